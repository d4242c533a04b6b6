//! Memory that must not grow with use (docs/ROBUSTNESS.md, "Memory"): plugin
//! versions replaced by hot swaps are dropped once no request holds them,
//! and the page cache's in-memory tier stays within `DISTILL_CACHE_HOT_MIB`
//! however much is written through it (both read the server's `/metrics`);
//! a plugin's compiled code is mapped only once the plugin serves; a page of
//! nothing but line ends costs the server a few times its size, not tens; a
//! page whose markup multiplies into millions of elements is refused within
//! the node budget.

use distill_e2e::client::http;
use distill_e2e::fault_site::{CARRIAGE_RETURNS, fault_site};
use distill_e2e::{
    Plugins, ServerOptions, TestServer, plugins_dir_with, scrape, shipped_plugins_dir, site, test_plugins_dir,
};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

const ADMIN_KEY: &str = "memory-admin-key";

/// The value of an unlabelled sample in `/metrics`.
async fn metric(server: &TestServer, name: &str) -> Option<f64> {
    let text = http()
        .get(server.endpoint("/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

/// The plugins serving now, from the admin API.
async fn plugin_list(server: &TestServer) -> Vec<Value> {
    let r = http()
        .get(server.endpoint("/admin/plugins"))
        .bearer_auth(ADMIN_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    body["plugins"].as_array().cloned().unwrap_or_default()
}

/// How many plugins serve now.
async fn serving(server: &TestServer) -> usize {
    plugin_list(server).await.len()
}

/// The compiled plugin code files the server process has mapped.
fn mapped_code_files(server: &TestServer) -> BTreeSet<String> {
    std::fs::read_to_string(format!("/proc/{}/maps", server.pid()))
        .unwrap()
        .lines()
        .filter_map(|line| line.split_whitespace().nth(5))
        .filter(|path| path.ends_with(".cwasm"))
        .filter_map(|path| Some(Path::new(path).file_name()?.to_string_lossy().into_owned()))
        .collect()
}

/// The names of the plugins the admin API lists with their code mapped.
fn with_code_mapped(plugins: &[Value]) -> Vec<&str> {
    plugins
        .iter()
        .filter(|p| p["codeMapped"] == json!(true))
        .filter_map(|p| p["name"].as_str())
        .collect()
}

/// Replaces `dest` atomically.
fn install(src: &Path, dest: &Path) {
    let tmp = dest.with_extension("wasm.partial");
    std::fs::copy(src, &tmp).unwrap();
    std::fs::rename(&tmp, dest).unwrap();
}

/// Polls `/metrics` until `name` equals `want` or `limit` passes; the last value.
async fn settles_at(server: &TestServer, name: &str, want: f64, limit: Duration) -> Option<f64> {
    let until = Instant::now() + limit;
    loop {
        let v = metric(server, name).await;
        if v == Some(want) || Instant::now() >= until {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn hot_swaps_drop_the_replaced_plugin_versions() {
    let dir = plugins_dir_with(&[]);
    let server = TestServer::start(
        ServerOptions {
            plugins: Plugins::Dir(dir.clone()),
            ..ServerOptions::default()
        }
        .env("DISTILL_ADMIN_KEY", ADMIN_KEY),
    );
    let plugins = serving(&server).await as f64;
    assert!(plugins >= 1.0);
    let live = settles_at(
        &server,
        "distill_plugin_versions_live",
        plugins,
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(live, Some(plugins), "before any swap");

    let versions = [
        test_plugins_dir().join("markdown-v2.wasm"),
        shipped_plugins_dir().join("markdown.wasm"),
    ];
    for round in 0..8 {
        install(&versions[round % 2], &dir.join("markdown.wasm"));
        let reload = http()
            .post(server.endpoint("/admin/plugins/reload"))
            .bearer_auth(ADMIN_KEY)
            .send()
            .await
            .unwrap();
        assert_eq!(reload.status(), 200);
        // Each version serves a request before the next swap.
        let r = scrape(
            server.url(),
            &json!({ "url": site().url("/article.html"), "maxAge": 0 }),
        )
        .await;
        r.assert_ok();
        assert_eq!(
            r.markdown().starts_with("markdown v2:"),
            round % 2 == 0,
            "round {round}: {}",
            r.pretty()
        );
    }
    assert_eq!(serving(&server).await as f64, plugins);
    // Every request has ended: only the serving versions may be alive.
    let live = settles_at(
        &server,
        "distill_plugin_versions_live",
        plugins,
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(
        live,
        Some(plugins),
        "plugin versions alive after 8 hot swaps (serving: {plugins})\n{}",
        server.logs()
    );
}

#[tokio::test]
async fn a_plugin_maps_its_code_only_once_it_serves() {
    let server = TestServer::start(ServerOptions::default().env("DISTILL_ADMIN_KEY", ADMIN_KEY));
    let plugins = plugin_list(&server).await;
    assert!(plugins.len() > 1, "{plugins:?}");
    assert_eq!(with_code_mapped(&plugins), Vec::<&str>::new(), "after loading");
    assert_eq!(mapped_code_files(&server), BTreeSet::new(), "after loading");

    // A markdown scrape maps the markdown plugin's code, and only that.
    for round in 0..2 {
        scrape(
            server.url(),
            &json!({ "url": site().url("/article.html"), "maxAge": 0 }),
        )
        .await
        .assert_ok();
        let plugins = plugin_list(&server).await;
        assert_eq!(with_code_mapped(&plugins), ["markdown"], "round {round}");
        let markdown = plugins.iter().find(|p| p["name"] == "markdown").unwrap();
        let sha256 = markdown["sha256"].as_str().unwrap();
        let files = mapped_code_files(&server);
        assert!(
            files.len() == 1 && files.iter().all(|f| f.starts_with(sha256)),
            "round {round}: {files:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_cache_memory_tier_stays_within_its_cap() {
    const CAP: f64 = (1 << 20) as f64;
    let server = Arc::new(TestServer::start(
        ServerOptions::default().env("DISTILL_CACHE_HOT_MIB", "1"),
    ));
    // 480 distinct URLs (the query string makes each its own cache entry),
    // each storing the page and the response: several times the cap.
    let mut workers = Vec::new();
    for w in 0..8 {
        let server = server.clone();
        workers.push(tokio::spawn(async move {
            let mut written = 0usize;
            for i in 0..60 {
                let url = site().url(&format!("/article.html?copy={w}-{i}"));
                let r = scrape(
                    server.url(),
                    &json!({ "url": url, "formats": ["markdown", "html", "rawHtml"] }),
                )
                .await;
                r.assert_ok();
                written += r.body.len();
            }
            written
        }));
    }
    let mut written = 0;
    for w in workers {
        written += w.await.unwrap();
    }
    assert!(
        written as f64 > 2.0 * CAP,
        "the load wrote only {written} bytes of responses"
    );
    let held = metric(&server, "distill_cache_memory_bytes")
        .await
        .expect("the embedded cache reports its in-memory bytes");
    assert!(held > 0.0, "nothing in the in-memory tier");
    assert!(
        held <= CAP,
        "the in-memory tier holds {held} bytes, over its 1 MiB cap"
    );
    // A page written early is still served from the file below the tier.
    let again = scrape(
        server.url(),
        &json!({ "url": site().url("/article.html?copy=0-0"), "formats": ["markdown", "html", "rawHtml"] }),
    )
    .await;
    again.assert_ok();
    assert_eq!(
        again.json["data"]["metadata"]["cacheState"],
        "hit",
        "{}",
        again.pretty()
    );
}

/// The server's peak resident memory so far (`VmHWM`), in bytes.
fn peak_rss(server: &TestServer) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid())).unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse().ok())
        .expect("VmHWM in /proc/PID/status");
    kib * 1024
}

#[tokio::test]
async fn a_page_of_nothing_but_line_ends_costs_a_few_times_its_size() {
    let server = TestServer::start(ServerOptions::default());
    let formats = json!(["rawHtml", "markdown"]);
    // Warm up: the markdown plugin's code mapped, the first buffers made.
    scrape(
        server.url(),
        &json!({ "url": fault_site().url(0, "/small"), "formats": formats }),
    )
    .await
    .assert_ok();
    let before = peak_rss(&server);
    let r = scrape(
        server.url(),
        &json!({
            "url": fault_site().url(0, "/carriage-returns"),
            "formats": formats,
            "storeInCache": false,
            "timeout": 60000,
        }),
    )
    .await;
    r.assert_ok();
    // The page as received comes back with its line ends as they were.
    let raw = r.json["data"]["rawHtml"].as_str().expect("rawHtml");
    assert_eq!(raw.bytes().filter(|&b| b == b'\r').count(), CARRIAGE_RETURNS);
    assert!(!raw.contains('\n'), "a lone CR came back as LF");
    let grew = peak_rss(&server).saturating_sub(before);
    // The body, the parse's buffer, the page given back and its JSON (each CR
    // written as two bytes) are a few times the page; a record of the line ends
    // at 8 bytes each was 8 times the page on its own.
    let page = CARRIAGE_RETURNS as u64;
    assert!(
        grew <= 8 * page,
        "one scrape of a {} MiB page raised the peak RSS by {} MiB",
        page >> 20,
        grew >> 20
    );
}

#[tokio::test]
async fn markup_that_multiplies_is_refused_within_the_node_budget() {
    let server = TestServer::start(ServerOptions::default().env("DISTILL_MAX_PAGE_NODES", "100000"));
    // A real page is still served.
    scrape(
        server.url(),
        &json!({ "url": site().url("/article.html"), "formats": ["markdown"] }),
    )
    .await
    .assert_ok();
    let before = peak_rss(&server);
    let started = Instant::now();
    let r = scrape(
        server.url(),
        &json!({ "url": fault_site().url(0, "/reopened"), "formats": ["markdown", "html"], "timeout": 60000 }),
    )
    .await;
    assert_eq!(r.status, 413, "{}", r.pretty());
    assert_eq!(r.json["code"], "SCRAPE_CONTENT_TOO_LARGE", "{}", r.pretty());
    let error = r.json["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("100000 elements") && error.contains("DISTILL_MAX_PAGE_NODES"),
        "{error}"
    );
    // The whole tree (2 million elements) took ~750 MiB; stopped at 100,000 it is a few
    // dozen.
    let grew = peak_rss(&server).saturating_sub(before);
    assert!(
        grew < 150 << 20,
        "the refused page raised the peak RSS by {} MiB",
        grew >> 20
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let logs = server.logs();
    assert!(logs.contains("page refused"), "the log says why: {logs}");
    assert!(!logs.contains("/reopened"), "the host logs no target URL: {logs}");
}
