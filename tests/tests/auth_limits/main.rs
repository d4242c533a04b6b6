//! API keys, 401/402/429, credits, the concurrency queue, the audit log and
//! zeroDataRetention, over HTTP against the real server (docs/OPERATORS.md).
//! Credits spent by jobs are in `jobs.rs`, the MCP route's metering in `mcp.rs`.

use distill_e2e::crawl_site::{CrawlSite, SiteShape};
use distill_e2e::keys::{
    assert_usage, call, create_key, keys_cmd, run_job_as, scrape_as, usage_of, wait_for_fresh_minute,
};
use distill_e2e::{ServerOptions, TestServer, fresh_tmp_dir, site};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;

mod account;
mod deadline;
mod jobs;
mod mcp;
mod ownership;

/// Options of a server whose keys file is `keys` (created by the test as needed).
fn keyed_options(keys: &Path, extra: &[(&str, &str)]) -> ServerOptions {
    let mut opts = ServerOptions::default().env("DISTILL_KEYS_FILE", keys.to_str().unwrap());
    for (k, v) in extra {
        opts = opts.env(k, v);
    }
    opts
}

/// A server whose keys file is `keys` (created by the test as needed).
fn server_with_keys(keys: &Path, extra: &[(&str, &str)]) -> TestServer {
    TestServer::start(keyed_options(keys, extra))
}

/// A keyed server on `data_dir`: started again on the same directory, it
/// finds the counters and jobs the last one left.
fn server_with_keys_on(keys: &Path, data_dir: &str) -> TestServer {
    TestServer::start(ServerOptions {
        data_dir: Some(data_dir.to_owned()),
        ..keyed_options(keys, &[])
    })
}

fn keys_file() -> PathBuf {
    fresh_tmp_dir().join("keys.json")
}

fn page() -> Value {
    json!({ "url": site().url("/article.html"), "formats": ["markdown"], "maxAge": 0 })
}

#[tokio::test]
async fn without_keys_loopback_is_open_and_credits_are_still_reported() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let a = call("POST", &server.endpoint("/v2/scrape"), None, Some(&page())).await;
    assert_eq!(a.status, 200, "{}", a.json);
    assert_eq!(a.credits(), 1);
    let u = call("GET", &server.endpoint("/v2/team/credit-usage"), None, None).await;
    assert_eq!(u.status, 200);
    assert_eq!(u.json["data"]["remainingCredits"], 99_999_999);
}

#[tokio::test]
async fn keys_created_and_revoked_while_running_take_effect_with_upstreams_401_bodies() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let url = server.endpoint("/v2/scrape");
    assert_eq!(call("POST", &url, None, Some(&page())).await.status, 200);

    let key = create_key(&keys, "ci", &[]);
    assert!(key.starts_with("fc-"), "{key}");
    let stored = std::fs::read_to_string(&keys).unwrap();
    assert!(!stored.contains(&key), "the keys file holds hashes only");

    let none = call("POST", &url, None, Some(&page())).await;
    assert_eq!(
        (none.status, &none.json["error"]),
        (401, &json!("Unauthorized")),
        "{}",
        none.json
    );
    assert_eq!(none.json["success"], false);
    let empty = call("POST", &url, Some("Bearer "), Some(&page())).await;
    assert_eq!(
        (empty.status, &empty.json["error"]),
        (401, &json!("Unauthorized: Token missing"))
    );
    let wrong = call(
        "POST",
        &url,
        Some("Bearer fc-00000000000000000000"),
        Some(&page()),
    )
    .await;
    assert_eq!(
        (wrong.status, &wrong.json["error"]),
        (401, &json!("Unauthorized: Invalid token"))
    );
    // Every /v2 route, the unknown ones included; not the health check.
    let unknown = call("POST", &server.endpoint("/v2/crawl"), None, Some(&json!({}))).await;
    assert_eq!(unknown.status, 401);
    assert_eq!(
        call("GET", &server.endpoint("/health"), None, None).await.status,
        200
    );

    let ok = scrape_as(server.url(), &key, &page()).await;
    assert_eq!(ok.status, 200, "{}", ok.json);

    let (listed, stdout, _) = keys_cmd(&keys, &["list"]);
    assert!(
        listed && stdout.contains("\"name\":\"ci\"") && !stdout.contains(&key),
        "{stdout}"
    );
    let id = serde_json::from_str::<Value>(stdout.lines().next().unwrap()).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (revoked, _, err) = keys_cmd(&keys, &["revoke", &id]);
    assert!(revoked, "{err}");
    let after = scrape_as(server.url(), &key, &page()).await;
    assert_eq!(
        (after.status, &after.json["error"]),
        (401, &json!("Unauthorized: Invalid token"))
    );
    assert!(!server.logs().contains(&key), "a key was logged");
}

#[tokio::test]
async fn admin_routes_create_list_and_revoke_keys() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[("DISTILL_ADMIN_KEY", "admin-secret")]);
    let admin = Some("Bearer admin-secret");
    let created = call(
        "POST",
        &server.endpoint("/admin/keys"),
        admin,
        Some(&json!({"name": "web", "credits": 7, "rpm": 60})),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.json);
    let key = created.json["key"].as_str().unwrap().to_string();
    let id = created.json["record"]["id"].as_str().unwrap().to_string();
    assert_eq!(scrape_as(server.url(), &key, &page()).await.status, 200);
    let listed = call("GET", &server.endpoint("/admin/keys"), admin, None).await;
    let entry = &listed.json["keys"][0];
    assert_eq!(
        (&entry["name"], &entry["credits"], &entry["creditsUsed"]),
        (&json!("web"), &json!(7), &json!(1))
    );
    assert!(!listed.json.to_string().contains(&key));
    let bad = call(
        "POST",
        &server.endpoint("/admin/keys"),
        admin,
        Some(&json!({"name": "x", "plan": 1})),
    )
    .await;
    assert_eq!(bad.status, 400, "{}", bad.json);
    let no_admin = call(
        "GET",
        &server.endpoint("/admin/keys"),
        Some(&format!("Bearer {key}")),
        None,
    )
    .await;
    assert_eq!(no_admin.status, 401, "an API key is not the admin key");
    let gone = call(
        "DELETE",
        &server.endpoint(&format!("/admin/keys/{id}")),
        admin,
        None,
    )
    .await;
    assert_eq!(gone.status, 200, "{}", gone.json);
    assert_eq!(scrape_as(server.url(), &key, &page()).await.status, 401);
}

#[test]
fn a_public_address_needs_keys_or_allow_anonymous() {
    let keys = keys_file();
    let mut cmd = std::process::Command::new(distill_e2e::server::distill_bin());
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("DISTILL_") {
            cmd.env_remove(&key);
        }
    }
    let out = cmd
        .env("DISTILL_HOST", "0.0.0.0")
        .env("DISTILL_PORT", "0")
        .env("DISTILL_KEYS_FILE", &keys)
        .env("DISTILL_DATA_DIR", fresh_tmp_dir())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("without API keys") && err.contains("--allow-anonymous"),
        "{err}"
    );
    // With --allow-anonymous it starts; with a key it starts too.
    let open = server_with_keys(
        &keys,
        &[("DISTILL_HOST", "0.0.0.0"), ("DISTILL_ALLOW_ANONYMOUS", "true")],
    );
    assert!(open.is_running());
    create_key(&keys, "public", &[]);
    let keyed = server_with_keys(&keys, &[("DISTILL_HOST", "0.0.0.0")]);
    assert!(keyed.is_running());
}

#[tokio::test]
async fn rate_limit_per_minute_and_class_answers_429_with_retry_after() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let key = create_key(&keys, "rl", &["--rpm", "3"]);
    wait_for_fresh_minute(20);
    for _ in 0..3 {
        let a = scrape_as(server.url(), &key, &page()).await;
        assert_eq!(a.status, 200, "{}", a.json);
    }
    let limited = scrape_as(server.url(), &key, &page()).await;
    assert_eq!(limited.status, 429, "{}", limited.json);
    let msg = limited.json["error"].as_str().unwrap();
    assert!(
        msg.starts_with("Rate limit exceeded. Consumed (req/min): 3, Remaining (req/min): 0.")
            && msg.contains("retry after")
            && msg.contains("resets at"),
        "{msg}"
    );
    let retry: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    // Another class has its own window; status polls are not limited.
    let map = call(
        "POST",
        &server.endpoint("/v2/map"),
        Some(&format!("Bearer {key}")),
        Some(&json!({"url": site().url("/article.html")})),
    )
    .await;
    assert_eq!(map.status, 200, "the map class has its own window: {}", map.json);
    let usage = call(
        "GET",
        &server.endpoint("/v2/team/credit-usage"),
        Some(&format!("Bearer {key}")),
        None,
    )
    .await;
    assert_eq!(usage.status, 200, "{}", usage.json);
    assert_eq!(
        usage.json["data"]["creditsUsed"], 3,
        "rejected requests cost nothing"
    );
}

#[tokio::test]
async fn credits_follow_the_billing_rules_and_402_when_exhausted() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let key = create_key(&keys, "billing", &["--credits", "15"]);
    let s = server.url();
    let pdf = site().url("/documents/report.pdf");
    // PDF with the pdf parser: 1 per page (3 pages).
    let a = scrape_as(s, &key, &json!({"url": pdf, "maxAge": 0})).await;
    assert_eq!(a.status, 200, "{}", a.json);
    assert_eq!(
        (a.json["data"]["metadata"]["numPages"].as_u64(), a.credits()),
        (Some(3), 3)
    );
    // The same PDF from the cache (served from the stored bytes): still 1 per page.
    let hit = scrape_as(s, &key, &json!({"url": pdf})).await;
    assert_eq!(
        (&hit.json["data"]["metadata"]["cacheState"], hit.credits()),
        (&json!("hit"), 3),
        "{}",
        hit.json
    );
    // parsers: [] returns the file, flat 1.
    let raw = scrape_as(s, &key, &json!({"url": pdf, "maxAge": 0, "parsers": []})).await;
    assert_eq!(raw.status, 200, "{}", raw.json);
    assert_eq!(raw.credits(), 1);
    // Lockdown: a miss costs 1 (404), a hit 5.
    let page_url = site().url(&format!("/hits/lockdown-{}", std::process::id()));
    let miss = scrape_as(s, &key, &json!({"url": page_url, "lockdown": true})).await;
    assert_eq!(miss.status, 404, "{}", miss.json);
    assert_eq!(usage_of(s, &key).await["creditsUsed"], 8);
    assert_eq!(scrape_as(s, &key, &json!({"url": page_url})).await.credits(), 1);
    let hit = scrape_as(s, &key, &json!({"url": page_url, "lockdown": true})).await;
    assert_eq!(hit.status, 200, "{}", hit.json);
    assert_eq!(
        (&hit.json["data"]["metadata"]["cacheState"], hit.credits()),
        (&json!("hit"), 5)
    );
    let u = usage_of(s, &key).await;
    assert_eq!(
        (&u["creditsUsed"], &u["remainingCredits"], &u["planCredits"]),
        (&json!(14), &json!(1), &json!(15))
    );
    // A failed scrape costs nothing.
    let failed = scrape_as(
        s,
        &key,
        &json!({"url": site().url("/slow?ms=3000"), "timeout": 1000}),
    )
    .await;
    assert_ne!(failed.status, 200);
    assert_eq!(usage_of(s, &key).await["creditsUsed"], 14);
    // The last credit, then 402 with upstream's body.
    assert_eq!(scrape_as(s, &key, &page()).await.status, 200);
    let broke = scrape_as(s, &key, &page()).await;
    assert_eq!(broke.status, 402, "{}", broke.json);
    assert_eq!(broke.json["success"], false);
    assert!(
        broke.json["error"]
            .as_str()
            .unwrap()
            .starts_with("Insufficient credits to perform this request."),
        "{}",
        broke.json
    );
    assert_eq!(usage_of(s, &key).await["remainingCredits"], 0);
}

#[tokio::test]
async fn queued_scrapes_report_their_wait_and_a_full_queue_or_a_long_wait_is_429() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[("DISTILL_CONCURRENCY_QUEUE", "1")]);
    let key = create_key(&keys, "conc", &["--concurrency", "1"]);
    let slow = |ms: u64, timeout: u64| json!({"url": site().url(&format!("/slow?ms={ms}&n={}", rand_token())), "maxAge": 0, "timeout": timeout});
    let s = server.url().to_string();
    let (s1, s2, s3, k1, k2, k3) = (
        s.clone(),
        s.clone(),
        s.clone(),
        key.clone(),
        key.clone(),
        key.clone(),
    );
    let (b1, b2) = (slow(1500, 30000), slow(200, 30000));
    let first = tokio::spawn(async move { scrape_as(&s1, &k1, &b1).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let second = tokio::spawn(async move { scrape_as(&s2, &k2, &b2).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    // The queue (1) is taken by the second: a third is refused at once.
    let b3 = slow(10, 30000);
    let third = scrape_as(&s3, &k3, &b3).await;
    assert_eq!(
        (third.status, &third.json["code"]),
        (429, &json!("CONCURRENCY_LIMIT_EXCEEDED")),
        "{}",
        third.json
    );
    assert!(third.header("retry-after").is_some());
    let first = first.await.unwrap();
    let second = second.await.unwrap();
    assert_eq!(
        (first.status, second.status),
        (200, 200),
        "{} {}",
        first.json,
        second.json
    );
    let (m1, m2) = (&first.json["data"]["metadata"], &second.json["data"]["metadata"]);
    assert!(m1.get("concurrencyLimited").is_none(), "{m1}");
    assert_eq!(m2["concurrencyLimited"], true, "{m2}");
    let waited = m2["concurrencyQueueDurationMs"].as_u64().unwrap();
    assert!(waited >= 500, "waited {waited} ms");
    // A wait past the request's timeout: 429.
    let (s4, k4, b4) = (s.clone(), key.clone(), slow(3000, 30000));
    let holder = tokio::spawn(async move { scrape_as(&s4, &k4, &b4).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let late = scrape_as(&s, &key, &slow(10, 1000)).await;
    assert_eq!(
        (late.status, &late.json["code"]),
        (429, &json!("CONCURRENCY_QUEUE_TIMEOUT")),
        "{}",
        late.json
    );
    assert_eq!(holder.await.unwrap().status, 200);
}

fn rand_token() -> String {
    uuid_like()
}

fn uuid_like() -> String {
    format!(
        "{:x}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    )
}

#[tokio::test]
async fn audit_log_records_outcomes_and_zero_data_retention_leaves_no_trace() {
    let keys = keys_file();
    let audit = fresh_tmp_dir().join("audit").join("audit.jsonl");
    let data_dir = fresh_tmp_dir().join("data");
    let server = TestServer::start(ServerOptions {
        data_dir: Some(data_dir.to_string_lossy().into_owned()),
        ..ServerOptions::default()
            .env("DISTILL_KEYS_FILE", keys.to_str().unwrap())
            .env("DISTILL_AUDIT_LOG", audit.to_str().unwrap())
    });
    let key = create_key(&keys, "auditor", &[]);
    let s = server.url();
    let plain = site().url("/article.html?audit=visible");
    let a = scrape_as(
        s,
        &key,
        &json!({"url": plain, "auditMetadata": {"username": "alice"}}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.json);
    // Strict validation: only username, at most 1024 characters.
    for bad in [
        json!({"username": "a", "role": "b"}),
        json!({"username": "x".repeat(1025)}),
        json!({}),
        json!({"username": 5}),
    ] {
        let r = scrape_as(s, &key, &json!({"url": plain, "auditMetadata": bad})).await;
        assert_eq!(r.status, 400, "{bad} → {}", r.json);
    }
    let edge = scrape_as(
        s,
        &key,
        &json!({"url": plain, "auditMetadata": {"username": "x".repeat(1024)}}),
    )
    .await;
    assert_eq!(edge.status, 200);
    let wrong = scrape_as(s, "fc-not-a-key", &json!({"url": plain})).await;
    assert_eq!(wrong.status, 401);
    // zeroDataRetention: the URL and the content appear nowhere.
    let secret = format!("zdr-secret-{}", uuid_like());
    let zdr_url = site().url(&format!("/hits/{secret}"));
    let z = scrape_as(
        s,
        &key,
        &json!({"url": zdr_url, "zeroDataRetention": true, "auditMetadata": {"username": "bob"}}),
    )
    .await;
    assert_eq!(z.status, 200, "{}", z.json);
    let body_text = z.json["data"]["markdown"].as_str().unwrap().to_string();
    assert!(!body_text.is_empty());
    let missing = site().url(&format!("/status/404?{secret}"));
    let _ = scrape_as(s, &key, &json!({"url": missing, "zeroDataRetention": true})).await;
    tokio::time::sleep(Duration::from_millis(1500)).await; // the audit writer and the cache flusher
    let lines: Vec<Value> = std::fs::read_to_string(&audit)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let first = &lines[0];
    assert_eq!(
        (&first["username"], &first["status"], &first["creditsUsed"]),
        (&json!("alice"), &json!(200), &json!(1))
    );
    assert_eq!(first["target"].as_str().unwrap(), plain);
    assert!(first["keyId"].as_str().unwrap().starts_with("key_"));
    let rejected: Vec<_> = lines.iter().filter(|l| l["status"] == 400).collect();
    assert_eq!(rejected.len(), 4, "invalid bodies are audited: {lines:?}");
    assert!(
        rejected
            .iter()
            .all(|l| l.get("target").is_none() && l["code"] == "BAD_REQUEST")
    );
    let refused = lines
        .iter()
        .find(|l| l["status"] == 401)
        .expect("a refused key is audited");
    assert!(
        refused.get("keyId").is_none() && refused["route"] == "/v2/scrape",
        "{refused}"
    );
    let zdr_line = lines
        .iter()
        .find(|l| l["username"] == "bob")
        .expect("the ZDR scrape is audited");
    assert_eq!(zdr_line["zeroDataRetention"], true);
    assert!(zdr_line.get("target").is_none());
    let mut leaks = Vec::new();
    let needle_content = body_text
        .lines()
        .find(|l| l.len() > 12)
        .unwrap_or(&body_text)
        .to_string();
    grep_tree(&data_dir, &[&secret, &needle_content], &mut leaks);
    grep_tree(audit.parent().unwrap(), &[&secret], &mut leaks);
    assert!(leaks.is_empty(), "ZDR data stored in {leaks:?}");
    assert!(!server.logs().contains(&secret), "ZDR URL logged");
}

fn grep_tree(dir: &Path, needles: &[&str], hits: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            grep_tree(&p, needles, hits);
        } else if let Ok(bytes) = std::fs::read(&p) {
            let text = String::from_utf8_lossy(&bytes);
            for n in needles {
                if text.contains(n) {
                    hits.push(format!("{} ({n})", p.display()));
                }
            }
        }
    }
}

/// Runs the futures concurrently, answers in order.
async fn futures_join<F: std::future::Future<Output = T> + Send + 'static, T: Send + 'static>(
    futures: impl Iterator<Item = F>,
) -> Vec<T> {
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}

/// `distill keys create --data-dir DIR` writes where a server on that data
/// directory reads its keys (`DIR/keys.json`): the running server takes the
/// new key on its next request.
#[tokio::test]
async fn keys_created_with_the_server_s_data_dir_take_effect() {
    let data_dir = fresh_tmp_dir().join("data");
    let server = TestServer::start(ServerOptions {
        data_dir: Some(data_dir.to_string_lossy().into_owned()),
        ..ServerOptions::default()
    });
    let url = server.endpoint("/v2/scrape");
    assert_eq!(call("POST", &url, None, Some(&page())).await.status, 200);
    let mut cmd = std::process::Command::new(distill_e2e::server::distill_bin());
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("DISTILL_") {
            cmd.env_remove(&k);
        }
    }
    let out = cmd
        .args(["keys", "create", "--name", "dd", "--data-dir"])
        .arg(&data_dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "the key alone on stdout: {stdout:?}");
    assert!(data_dir.join("keys.json").exists());
    assert_eq!(call("POST", &url, None, Some(&page())).await.status, 401);
    let keyed = scrape_as(server.url(), lines[0], &page()).await;
    assert_eq!(keyed.status, 200, "{}", keyed.json);
}
