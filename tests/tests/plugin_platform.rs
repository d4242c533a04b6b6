//! The plugin platform over HTTP: hot swap under load, a rejected update that
//! leaves the previous version serving, removal, the admin API, loading a
//! plugin built for an older ABI, refusing an unknown ABI, conflicting claims,
//! declared limits and capability grants.

use distill_e2e::client::into_reply;
use distill_e2e::{
    Plugins, Reply, ServerOptions, TestServer, get, plugins_dir_with, scrape, site, test_plugins_dir,
};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const ADMIN_KEY: &str = "test-admin-key";

fn start(dir: &Path, extra_env: &[(&str, &str)]) -> TestServer {
    let mut opts = ServerOptions {
        plugins: Plugins::Dir(dir.to_path_buf()),
        ..ServerOptions::default()
    }
    .env("DISTILL_ADMIN_KEY", ADMIN_KEY);
    for (k, v) in extra_env {
        opts = opts.env(k, v);
    }
    TestServer::start(opts)
}

/// Replaces `dest` atomically (as `make plugins` and careful operators do).
fn install(src: &Path, dest: &Path) {
    let tmp = dest.with_extension("wasm.partial");
    std::fs::copy(src, &tmp).unwrap();
    std::fs::rename(&tmp, dest).unwrap();
}

async fn admin(server: &TestServer, method: &str, path: &str, key: Option<&str>) -> Reply {
    let url = server.endpoint(path);
    let mut req = distill_e2e::client::http().request(method.parse().unwrap(), &url);
    if let Some(key) = key {
        req = req.bearer_auth(key);
    }
    let started = Instant::now();
    let resp = req.send().await.expect("admin request");
    into_reply(started, resp).await
}

async fn plugin_list(server: &TestServer) -> Vec<Value> {
    let r = admin(server, "GET", "/admin/plugins", Some(ADMIN_KEY)).await;
    assert_eq!(r.status, 200, "{}", r.pretty());
    r.json["plugins"].as_array().cloned().unwrap_or_default()
}

/// `maxAge: 0`: every call renders (these tests count plugin calls), never
/// a stored response.
async fn markdown_of(server: &TestServer) -> Reply {
    scrape(
        server.url(),
        &json!({ "url": site().url("/article.html"), "maxAge": 0 }),
    )
    .await
}

/// Polls until `check` holds or `limit` passes.
async fn eventually<F: AsyncFn() -> bool>(limit: Duration, check: F) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hot_swap_under_load_drops_no_request_and_switches_version() {
    let dir = plugins_dir_with(&[]);
    let server = Arc::new(start(&dir, &[]));
    let before = markdown_of(&server).await;
    before.assert_ok();
    assert!(
        before.markdown().contains("# Lichens on Old Walls"),
        "{}",
        before.pretty()
    );

    // A bounded load loop: 4 workers, at most 400 requests each, stopping once
    // every worker has seen the new version 10 times in a row.
    let stop = Arc::new(AtomicBool::new(false));
    let failures = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..4 {
        let (server, stop, failures) = (server.clone(), stop.clone(), failures.clone());
        workers.push(tokio::spawn(async move {
            let (mut old, mut new, mut new_streak, mut went_back) = (0, 0, 0, false);
            for _ in 0..400 {
                if stop.load(Ordering::Relaxed) && new_streak >= 10 {
                    break;
                }
                let r = markdown_of(&server).await;
                if r.status != 200 || r.json["success"] != true {
                    failures.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                if r.markdown().starts_with("markdown v2:") {
                    new += 1;
                    new_streak += 1;
                } else {
                    if new > 0 {
                        went_back = true;
                    }
                    old += 1;
                    new_streak = 0;
                }
            }
            (old, new, went_back)
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    install(
        &test_plugins_dir().join("markdown-v2.wasm"),
        &dir.join("markdown.wasm"),
    );
    stop.store(true, Ordering::Relaxed);
    let mut totals = (0, 0);
    for w in workers {
        let (old, new, went_back) = w.await.unwrap();
        assert!(!went_back, "a worker saw the old version again after the new one");
        totals.0 += old;
        totals.1 += new;
    }
    assert_eq!(
        failures.load(Ordering::Relaxed),
        0,
        "requests failed during the swap\n{}",
        server.logs()
    );
    assert!(
        totals.0 > 0,
        "no request was served by the old version: {totals:?}"
    );
    assert!(
        totals.1 >= 40,
        "responses did not switch to the new version: {totals:?}\n{}",
        server.logs()
    );
    let after = markdown_of(&server).await;
    assert!(
        after
            .markdown()
            .starts_with("markdown v2: Field Notes on Lichens"),
        "{}",
        after.pretty()
    );
    let (logged, logs) = server.wait_for_logs(Duration::from_secs(10), |l| {
        l.contains("plugin replaced by its new version")
    });
    assert!(logged, "{logs}");
}

#[tokio::test]
async fn a_broken_update_keeps_the_previous_version_and_a_removed_plugin_stops_serving() {
    let dir = plugins_dir_with(&["misbehave"]);
    let server = start(&dir, &[]);
    let sha_before = plugin_list(&server)
        .await
        .iter()
        .find(|p| p["name"] == "markdown")
        .unwrap()["sha256"]
        .clone();

    std::fs::write(dir.join("markdown.wasm"), b"this is not a component").unwrap();
    let (logged, logs) = server.wait_for_logs(Duration::from_secs(10), |l| {
        l.contains("previous version keeps serving")
    });
    assert!(logged, "no log line about the rejected update:\n{logs}");
    let r = markdown_of(&server).await;
    r.assert_ok();
    assert!(r.markdown().contains("# Lichens on Old Walls"), "{}", r.pretty());
    let sha_after = plugin_list(&server)
        .await
        .iter()
        .find(|p| p["name"] == "markdown")
        .unwrap()["sha256"]
        .clone();
    assert_eq!(
        sha_before, sha_after,
        "the previous version should still be the one serving"
    );

    std::fs::remove_file(dir.join("misbehave.wasm")).unwrap();
    let gone = eventually(Duration::from_secs(10), async || {
        !plugin_list(&server)
            .await
            .iter()
            .any(|p| p["name"] == "misbehave")
    })
    .await;
    assert!(gone, "misbehave still listed after its file was removed");
    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/article.html"), "formats": ["misbehave"] }),
    )
    .await;
    r.assert_error(400, "BAD_REQUEST");
    assert!(r.pretty().contains("misbehave"), "{}", r.pretty());
}

#[tokio::test]
async fn admin_api_requires_its_key_and_lists_plugins_with_stats() {
    // Disabled without a key.
    let plain = TestServer::start(ServerOptions::default());
    let r = admin(&plain, "GET", "/admin/plugins", Some("anything")).await;
    r.assert_error(404, "ADMIN_DISABLED");

    let dir = plugins_dir_with(&[]);
    let server = start(&dir, &[]);
    admin(&server, "GET", "/admin/plugins", None)
        .await
        .assert_error(401, "UNAUTHORIZED");
    let r = admin(&server, "GET", "/admin/plugins", Some("wrong")).await;
    r.assert_error(401, "UNAUTHORIZED");
    assert_eq!(r.error(), "Unauthorized: Invalid token");

    for _ in 0..3 {
        markdown_of(&server).await.assert_ok();
    }
    let list = plugin_list(&server).await;
    let md = list
        .iter()
        .find(|p| p["name"] == "markdown")
        .expect("markdown listed");
    assert_eq!(md["kind"], "format");
    assert_eq!(md["abi"], "0.5.0");
    assert_eq!(md["formats"], json!(["markdown"]));
    assert_eq!(md["calls"], 3);
    assert_eq!(md["errors"], 0);
    assert!(md["p50Ms"].as_f64().is_some_and(|v| v > 0.0), "{md}");
    assert!(
        md["p99Ms"]
            .as_f64()
            .is_some_and(|v| v >= md["p50Ms"].as_f64().unwrap()),
        "{md}"
    );
    assert!(md["loadedAt"].as_str().is_some_and(|t| t.ends_with('Z')), "{md}");
    // ABI 0.3 declarations are visible to the operator.
    let sheet = list
        .iter()
        .find(|p| p["name"] == "spreadsheet")
        .expect("spreadsheet listed");
    assert_eq!(sheet["parser"]["name"], "spreadsheet", "{sheet}");
    let options: Vec<&str> = sheet["parser"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(options, vec!["maxRowsPerSheet", "maxColumns"], "{sheet}");
    assert_eq!(sheet["parser"]["rawUnlessListed"], false, "{sheet}");
    let pdf = list.iter().find(|p| p["name"] == "pdf").expect("pdf listed");
    assert_eq!(pdf["parser"]["rawUnlessListed"], true, "{pdf}");
    let bytes = std::fs::read(dir.join("markdown.wasm")).unwrap();
    let sha = {
        use std::fmt::Write;
        let digest = <sha2::Sha256 as sha2::Digest>::digest(&bytes);
        digest.iter().fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
    };
    assert_eq!(md["sha256"], sha);
    assert!(list.iter().any(|p| p["name"] == "reading-time"), "{list:?}");

    // A forced reload reports what it did.
    std::fs::copy(
        test_plugins_dir().join("legacy-abi.wasm"),
        dir.join("legacy-abi.wasm"),
    )
    .unwrap();
    let r = admin(&server, "POST", "/admin/plugins/reload", Some(ADMIN_KEY)).await;
    assert_eq!(r.status, 200, "{}", r.pretty());
    let report = &r.json["report"];
    let mentioned = report["loaded"]
        .as_array()
        .unwrap()
        .iter()
        .chain(report["unchanged"].as_array().unwrap());
    assert!(mentioned.clone().any(|n| n == "legacy-abi"), "{}", r.pretty());
    assert!(mentioned.clone().any(|n| n == "markdown"), "{}", r.pretty());
}

#[tokio::test]
async fn plugins_of_the_older_abi_load_and_unknown_abis_are_refused() {
    let dir = plugins_dir_with(&["legacy-abi", "future-abi"]);
    let server = start(&dir, &[]);
    let logs = server.logs();
    assert!(
        logs.contains("unsupported plugin ABI")
            && logs.contains("0.1.0, 0.2.0")
            && logs.contains("future-abi.wasm"),
        "no clear refusal of the 9.0.0 plugin:\n{logs}"
    );
    let list = plugin_list(&server).await;
    assert!(
        !list
            .iter()
            .any(|p| p["file"].as_str().unwrap_or("").contains("future-abi")),
        "{list:?}"
    );
    let legacy = list
        .iter()
        .find(|p| p["name"] == "legacy-abi")
        .expect("legacy plugin loaded");
    assert_eq!(legacy["abi"], "0.1.0");

    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/article.html"), "formats": ["markdown", "legacy-echo"] }),
    )
    .await;
    r.assert_ok();
    let echo = &r.data()["legacy-echo"];
    assert_eq!(echo["abi"], "0.1.0");
    assert_eq!(echo["finalUrl"], site().url("/article.html"));
    assert!(echo["cleanedBytes"].as_u64().unwrap() > 100, "{echo}");
    assert!(r.markdown().contains("# Lichens on Old Walls"));
    // The server logs before it responds, but the harness reads stderr on its own thread.
    let (logged, logs) =
        server.wait_for_logs(Duration::from_secs(10), |l| l.contains("legacy plugin called"));
    assert!(logged, "the 0.1.0 log import did not reach the log:\n{logs}");
}

#[tokio::test]
async fn an_abi_0_4_plugin_gets_the_tokens_and_its_json_values_are_parsed() {
    let dir = plugins_dir_with(&["abi-v4"]);
    let server = start(&dir, &[]);
    let list = plugin_list(&server).await;
    let v4 = list
        .iter()
        .find(|p| p["name"] == "abi-v4")
        .expect("0.4.0 plugin loaded");
    assert_eq!(v4["abi"], "0.4.0");
    let markdown = list.iter().find(|p| p["name"] == "markdown").expect("markdown");
    assert_eq!(markdown["abi"], "0.5.0");

    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/article.html"), "formats": ["markdown", "v4-echo", "v4-string"] }),
    )
    .await;
    r.assert_ok();
    let echo = &r.data()["v4-echo"];
    assert_eq!(echo["abi"], "0.4.0");
    assert!(echo["tokenOps"].as_u64().unwrap() > 10, "{echo}");
    // A JSON string from 0.4 comes out as the string it encodes.
    assert_eq!(r.data()["v4-string"], "0.4 says \"hi\"\nline two");
    // The 0.5 markdown plugin's `text` value is the markdown itself.
    assert!(r.markdown().contains("# Lichens on Old Walls"));
}

#[tokio::test]
async fn two_plugins_claiming_one_format_is_a_load_error() {
    let dir = plugins_dir_with(&[]);
    // Plugins load in file-name order: markdown-v2.wasm ('-' sorts before '.')
    // comes first and takes `markdown`; markdown.wasm is then refused.
    std::fs::copy(
        test_plugins_dir().join("markdown-v2.wasm"),
        dir.join("markdown-v2.wasm"),
    )
    .unwrap();
    let server = start(&dir, &[]);
    let logs = server.logs();
    let refusal = logs
        .lines()
        .find(|l| l.contains("plugin not loaded") && l.contains("/markdown.wasm"))
        .unwrap_or_else(|| panic!("no clear conflict message:\n{logs}"));
    assert!(refusal.contains("already"), "{refusal}");
    let r = markdown_of(&server).await;
    assert!(
        r.markdown().starts_with("markdown v2:"),
        "the first plugin should keep the format: {}",
        r.pretty()
    );
}

#[tokio::test]
async fn declared_limits_are_enforced() {
    let dir = plugins_dir_with(&["strict"]);
    let server = start(&dir, &[]);
    let call = async |mode: &str, timeout: u64| {
        scrape(
            server.url(),
            &json!({ "url": site().url("/article.html"), "formats": [{ "type": "strict", "mode": mode }], "timeout": timeout }),
        )
        .await
    };
    call("ok", 10_000).await.assert_ok();
    // Its own 1500 ms limit stops the loop long before the request's 20 s.
    let r = call("loop", 20_000).await;
    r.assert_error(500, "PLUGIN_ERROR");
    assert!(
        r.error().contains("exceeded its time limit of 1500 ms"),
        "{}",
        r.pretty()
    );
    assert!(r.elapsed < Duration::from_secs(5), "{:?}", r.elapsed);
    // A request deadline shorter than the plugin's limit wins: 408.
    let r = call("loop", 1000).await;
    r.assert_error(408, "SCRAPE_TIMEOUT");
    // 32 MiB does not fit in its declared 16 MiB.
    let r = call("grow", 10_000).await;
    r.assert_error(500, "PLUGIN_ERROR");
    assert!(
        r.error().contains("exceeded its memory limit of 16 MiB"),
        "{}",
        r.pretty()
    );
    call("ok", 10_000).await.assert_ok();
}

#[tokio::test]
async fn the_llm_capability_is_granted_only_when_declared_allowed_and_configured() {
    let dir = plugins_dir_with(&["misbehave"]);
    let body =
        json!({ "url": site().url("/article.html"), "formats": [{ "type": "misbehave", "mode": "llm" }] });

    // Allowed by default, but no model configured.
    let server = start(&dir, &[]);
    let r = scrape(server.url(), &body).await;
    r.assert_ok();
    let err = r.data()["misbehave"]["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(err.contains("no language model is configured"), "{}", r.pretty());
    let granted = plugin_list(&server)
        .await
        .into_iter()
        .find(|p| p["name"] == "misbehave")
        .unwrap();
    assert_eq!(granted["grantedCapabilities"], json!(["llm"]));
    drop(server);

    // The operator denies it.
    let server = start(&dir, &[("DISTILL_ALLOWED_CAPABILITIES", "none")]);
    let r = scrape(server.url(), &body).await;
    let err = r.data()["misbehave"]["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(err.contains("operator does not allow"), "{}", r.pretty());
    let (logged, logs) = server.wait_for_logs(Duration::from_secs(10), |l| {
        l.contains("capabilities the operator does not allow")
    });
    assert!(logged, "{logs}");
}

#[tokio::test]
async fn the_reading_time_plugin_from_the_template_is_served() {
    let server = TestServer::start(ServerOptions::default());
    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/article.html"), "formats": [{ "type": "reading-time", "wordsPerMinute": 100 }] }),
    )
    .await;
    r.assert_ok();
    let rt = &r.data()["reading-time"];
    let words = rt["words"].as_u64().unwrap();
    assert!(words > 20, "{rt}");
    assert_eq!(rt["minutes"].as_u64().unwrap(), words.div_ceil(100));
    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/article.html"), "formats": [{ "type": "reading-time", "wordsPerMinute": 0 }] }),
    )
    .await;
    r.assert_error(400, "BAD_REQUEST");
    let health = get(&server.endpoint("/health")).await;
    assert!(
        health.json["plugins"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "reading-time")
    );
}

/// Two servers on one plugins directory: reading a plugin file (the other
/// server's reload) is not a change, so neither reloads while the directory
/// stands still; a plugin installed there is loaded by both.
#[tokio::test]
async fn servers_sharing_a_plugins_directory_reload_only_on_changes() {
    let dir = plugins_dir_with(&[]);
    let (a, b) = (start(&dir, &[]), start(&dir, &[]));
    for server in [&a, &b] {
        assert_eq!(markdown_of(server).await.status, 200);
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let reloads = |s: &TestServer| s.logs().matches("plugins directory changed").count();
    assert_eq!(
        (reloads(&a), reloads(&b)),
        (0, 0),
        "reloads with no change to the directory\n{}\n{}",
        a.logs(),
        b.logs()
    );
    install(
        &test_plugins_dir().join("consumer.wasm"),
        &dir.join("consumer.wasm"),
    );
    for server in [&a, &b] {
        let (seen, logs) = server.wait_for_logs(Duration::from_secs(15), |l| {
            l.contains("plugins directory changed") && l.contains("consumer")
        });
        assert!(seen, "the new plugin was not loaded: {logs}");
    }
}
