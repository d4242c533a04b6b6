//! API keys, 401/402/429, credits, the concurrency queue, the audit log and
//! zeroDataRetention, over HTTP against the real server (docs/OPERATORS.md).

use distill_e2e::crawl_site::{CrawlSite, SiteShape};
use distill_e2e::keys::{
    assert_usage, call, create_key, keys_cmd, run_job_as, scrape_as, usage_of, wait_for_fresh_minute,
};
use distill_e2e::{ServerOptions, TestServer, fresh_tmp_dir, site};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;

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

/// Credits are on disk before the answer leaves: a `kill -9` right after a
/// burst of scrapes loses none of them (the embedded counters commit each
/// change durably; docs/OPERATORS.md, "Credits").
#[tokio::test]
async fn credits_spent_survive_a_kill_9_right_after() {
    let keys = keys_file();
    let data_dir = fresh_tmp_dir().join("data").to_string_lossy().into_owned();
    let start = || server_with_keys_on(&keys, &data_dir);
    let server = start();
    let key = create_key(&keys, "durable", &["--credits", "1000"]);
    let s = server.url().to_string();
    // Pages (1 credit) and a 3-page PDF (1 reserved, 2 settled after), at once.
    let pdf = json!({"url": site().url("/documents/report.pdf"), "maxAge": 0});
    let bodies: Vec<Value> = (0..12)
        .map(|i| if i % 3 == 0 { pdf.clone() } else { page() })
        .collect();
    let answers = futures_join(bodies.into_iter().map(|b| {
        let (s, key) = (s.clone(), key.clone());
        async move { scrape_as(&s, &key, &b).await }
    }))
    .await;
    let spent: u64 = answers
        .iter()
        .map(|a| {
            assert_eq!(a.status, 200, "{}", a.json);
            a.credits()
        })
        .sum();
    assert_eq!(spent, 4 * 3 + 8);
    // SAFETY: a plain syscall on the child this test started.
    unsafe { libc::kill(server.pid() as i32, libc::SIGKILL) };
    assert!(server.terminate(Duration::from_secs(5)));
    let again = start();
    let u = usage_of(again.url(), &key).await;
    assert_eq!(u["creditsUsed"], json!(spent), "{u}");
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

/// One JSON-RPC message to `/mcp` as `key` (streamable HTTP, JSON answers).
async fn mcp_post(server: &str, key: &str, session: Option<&str>, message: Value) -> (Option<String>, Value) {
    let mut req = distill_e2e::client::http()
        .post(format!("{server}/mcp"))
        .header("authorization", format!("Bearer {key}"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(message.to_string());
    if let Some(s) = session {
        req = req.header("mcp-session-id", s);
    }
    let resp = req.send().await.unwrap();
    assert!(resp.status().is_success(), "{}", resp.status());
    let session = resp
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let text = resp.text().await.unwrap();
    (session, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn mcp_tool_calls_are_metered_and_billed_like_their_routes() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let key = create_key(&keys, "mcp", &["--credits", "6"]);
    let s = server.url();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "distill-e2e", "version": "0"}}});
    let (session, hello) = mcp_post(s, &key, None, init).await;
    assert!(hello["result"]["serverInfo"].is_object(), "{hello}");
    // Stateless servers answer without a session id.
    mcp_post(
        s,
        &key,
        session.as_deref(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    let mut next_id = 1;
    let mut call = |name: &str, args: Value| {
        next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": next_id, "method": "tools/call",
                             "params": {"name": name, "arguments": args}});
        let (s, key, session) = (s.to_string(), key.clone(), session.clone());
        async move { mcp_post(&s, &key, session.as_deref(), message).await.1["result"].clone() }
    };
    let credits = |result: &Value| result["structuredContent"]["data"]["metadata"]["creditsUsed"].clone();
    let scraped = call("scrape", page()).await;
    assert_eq!(
        (&scraped["isError"], credits(&scraped)),
        (&json!(false), json!(1)),
        "{scraped}"
    );
    let pdf = call(
        "scrape",
        json!({"url": site().url("/documents/report.pdf"), "maxAge": 0}),
    )
    .await;
    assert_eq!(credits(&pdf), json!(3), "1 per PDF page, as the route: {pdf}");
    let csv = base64_of(&distill_e2e::read_document("sample.csv"));
    let parsed = call("parse", json!({"filename": "sample.csv", "content": csv})).await;
    assert_eq!(credits(&parsed), json!(1), "{parsed}");
    assert_eq!(usage_of(s, &key).await["creditsUsed"], 5);
    assert_eq!(credits(&call("scrape", page()).await), json!(1));
    // No credit left: the tool answers the route's 402 body as a tool error.
    let broke = call("scrape", page()).await;
    assert_eq!(broke["isError"], true, "{broke}");
    assert_eq!(
        broke["structuredContent"]["code"], "INSUFFICIENT_CREDITS",
        "{broke}"
    );
    assert_eq!(usage_of(s, &key).await["creditsUsed"], 6);
}

fn base64_of(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The batch job's status at `url` once it has left "scraping" (at most
/// 60 s), asked with `auth`.
async fn batch_once_done(url: &str, auth: &str) -> Value {
    let until = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let r = call("GET", url, Some(auth), None).await;
        if r.json["status"] != "scraping" {
            return r.json;
        }
        assert!(std::time::Instant::now() < until, "{}", r.json);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every page a batch scrape stores is billed to the key that started it
/// (with `creditsUsed` on the page); once the credits are gone its remaining
/// pages fail with INSUFFICIENT_CREDITS instead of being fetched.
#[tokio::test]
async fn batch_pages_are_billed_to_the_key_that_started_the_job() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let key = create_key(&keys, "batch", &["--credits", "4"]);
    let s = server.url();
    let token = rand_token();
    let urls: Vec<String> = (0..4)
        .map(|i| site().url(&format!("/hits/batch-{token}-{i}")))
        .collect();
    let mut all = vec![site().url("/documents/report.pdf")];
    all.extend(urls.iter().cloned());
    // Sequential, so the order of billing is known: the 3-page PDF, then 1 page, then none left.
    let body = json!({"urls": all, "formats": ["markdown"], "maxConcurrency": 1, "maxAge": 0});
    let auth = format!("Bearer {key}");
    let started = call(
        "POST",
        &format!("{s}/v2/batch/scrape"),
        Some(auth.as_str()),
        Some(&body),
    )
    .await;
    assert_eq!(started.status, 200, "{}", started.json);
    let id = started.json["id"].as_str().unwrap().to_string();
    let status = batch_once_done(&format!("{s}/v2/batch/scrape/{id}"), &auth).await;
    let docs = status["data"].as_array().unwrap();
    let mut credits: Vec<u64> = docs
        .iter()
        .map(|d| d["metadata"]["creditsUsed"].as_u64().unwrap())
        .collect();
    credits.sort_unstable();
    assert_eq!(credits, [1, 3], "{status}");
    // The job's creditsUsed is what its pages were billed, the PDF's 3 included.
    assert_eq!(status["creditsUsed"], 4, "{status}");
    let errors = call(
        "GET",
        &format!("{s}/v2/batch/scrape/{id}/errors"),
        Some(auth.as_str()),
        None,
    )
    .await;
    let errors = errors.json["errors"].as_array().unwrap().clone();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        errors.iter().all(|e| e["code"] == "INSUFFICIENT_CREDITS"),
        "{errors:?}"
    );
    // The refused pages were never fetched.
    let fetched: u64 = (0..4).map(|i| site().hits(&format!("batch-{token}-{i}"))).sum();
    assert_eq!(fetched, 1);
    assert_usage(s, &key, 4, 0).await;
}

/// Pages of a job running at once never take a key past its credits: each
/// holds its credit before it is fetched, so with 5 credits and 4 pages at a
/// time exactly 5 of 12 pages are fetched, stored and billed.
#[tokio::test]
async fn concurrent_job_pages_never_pass_the_credits() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let s = server.url();
    let key = create_key(&keys, "conc", &["--credits", "5"]);
    let token = rand_token();
    let urls: Vec<String> = (0..12)
        .map(|i| site().url(&format!("/hits/conc-{token}-{i}?ms=150")))
        .collect();
    let body = json!({"urls": urls, "maxConcurrency": 4, "maxAge": 0});
    let job = run_job_as(s, &key, "/v2/batch/scrape", &body, Duration::from_secs(60)).await;
    assert_eq!((job.documents.len(), job.errors.len()), (5, 7), "{}", job.status);
    assert!(
        job.errors.iter().all(|e| e["code"] == "INSUFFICIENT_CREDITS"),
        "{:?}",
        job.errors
    );
    let fetched: u64 = (0..12).map(|i| site().hits(&format!("conc-{token}-{i}"))).sum();
    assert_eq!(fetched, 5, "no page fetched over quota");
    assert_eq!(job.status["creditsUsed"], 5);
    assert_usage(s, &key, 5, 0).await;

    // Pages costing more than their first credit (3-page PDFs) at once: what
    // is served is what is billed, and never more than the key had.
    let key = create_key(&keys, "conc-pdf", &["--credits", "7"]);
    let mut urls: Vec<String> = (0..3)
        .map(|i| site().url(&format!("/documents/report.pdf?copy={token}-{i}")))
        .collect();
    urls.extend((0..3).map(|i| site().url(&format!("/hits/conc-pdf-{token}-{i}?ms=100"))));
    let body = json!({"urls": urls, "maxConcurrency": 3, "maxAge": 0});
    let job = run_job_as(s, &key, "/v2/batch/scrape", &body, Duration::from_secs(60)).await;
    let billed = job.document_credits();
    assert_eq!(job.documents.len() + job.errors.len(), 6, "{}", job.status);
    assert!(!job.documents.is_empty() && billed <= 7, "{}", job.status);
    assert!(
        job.errors.iter().all(|e| e["code"] == "INSUFFICIENT_CREDITS"),
        "{:?}",
        job.errors
    );
    assert_eq!(job.status["creditsUsed"], billed, "{}", job.status);
    assert_usage(s, &key, billed, 7 - billed).await;
}

/// As upstream, a crawl's limit is lowered to the key's remaining credits.
#[tokio::test]
async fn a_crawl_is_limited_to_the_remaining_credits() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let site = CrawlSite::start(SiteShape {
        sections: 2,
        pages: 6,
        orphans: 0,
    });
    let key = create_key(&keys, "crawl", &["--credits", "4"]);
    let body = json!({"url": site.url("/"), "maxConcurrency": 3, "sitemap": "skip"});
    let job = run_job_as(server.url(), &key, "/v2/crawl", &body, Duration::from_secs(60)).await;
    assert_eq!(job.status["total"], 4, "{}", job.status);
    assert!(!job.documents.is_empty(), "{}", job.status);
    let billed = job.document_credits();
    assert_eq!(job.status["creditsUsed"], billed, "{}", job.status);
    assert_usage(server.url(), &key, billed, 4 - billed).await;
    // A key with no credit left cannot start a crawl or a batch: 402, upstream's body.
    let broke = format!("Bearer {}", create_key(&keys, "broke", &["--credits", "0"]));
    let batch = json!({"urls": [site.url("/")]});
    for (path, body) in [("/v2/crawl", &body), ("/v2/batch/scrape", &batch)] {
        let refused = call("POST", &server.endpoint(path), Some(&broke), Some(body)).await;
        assert_eq!(refused.status, 402, "{path}: {}", refused.json);
        assert!(
            refused.json["error"]
                .as_str()
                .unwrap_or_default()
                .starts_with("Insufficient credits to perform this request."),
            "{}",
            refused.json
        );
    }
}

/// The default counters file under concurrency: 24 scrapes at once against
/// a key with 10 credits (their changes share group commits) serve and bill
/// exactly 10 and refuse the rest with 402; the balance is exact.
#[tokio::test]
async fn concurrent_scrapes_spend_exactly_the_credits_in_the_counters_file() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let key = create_key(&keys, "group", &["--credits", "10"]);
    let calls: Vec<_> = (0..24)
        .map(|_| {
            let (url, key) = (server.url().to_string(), key.clone());
            tokio::spawn(async move { scrape_as(&url, &key, &page()).await })
        })
        .collect();
    let mut statuses = Vec::new();
    let mut billed = 0;
    for call in calls {
        let r = call.await.unwrap();
        if r.status == 200 {
            billed += r.credits();
        }
        statuses.push(r.status);
    }
    let served = statuses.iter().filter(|s| **s == 200).count();
    let refused = statuses.iter().filter(|s| **s == 402).count();
    assert_eq!((served, refused, billed), (10, 14, 10), "{statuses:?}");
    assert_usage(server.url(), &key, 10, 0).await;
}

/// Pages held by a server killed mid-fetch are leased again after the
/// restart (a new attempt, which gives the old lease's hold back) and billed
/// once: the key ends with exactly what the stored pages cost.
#[tokio::test]
async fn job_pages_of_a_killed_server_are_billed_once_after_the_restart() {
    let keys = keys_file();
    let data_dir = fresh_tmp_dir().join("data").to_string_lossy().into_owned();
    let start = || server_with_keys_on(&keys, &data_dir);
    let server = start();
    let key = create_key(&keys, "killed", &["--credits", "10"]);
    let token = format!("killed-{}", rand_token());
    let urls: Vec<String> = (0..2)
        .map(|i| site().url(&format!("/gate/{token}?n={i}")))
        .collect();
    let body = json!({"urls": urls, "maxConcurrency": 2, "maxAge": 0});
    let auth = format!("Bearer {key}");
    let started = call(
        "POST",
        &server.endpoint("/v2/batch/scrape"),
        Some(&auth),
        Some(&body),
    )
    .await;
    assert_eq!(started.status, 200, "{}", started.json);
    let id = started.json["id"].as_str().unwrap().to_string();
    // Both pages are being fetched: each holds its credit.
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while site().gate_arrivals(&token) < 2 {
        assert!(std::time::Instant::now() < until, "the pages were never fetched");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(usage_of(server.url(), &key).await["creditsUsed"], 2);
    // SAFETY: a plain syscall on the child this test started.
    unsafe { libc::kill(server.pid() as i32, libc::SIGKILL) };
    assert!(server.terminate(Duration::from_secs(5)));
    site().open_gate(&token);
    let again = start();
    let status = batch_once_done(&again.endpoint(&format!("/v2/batch/scrape/{id}")), &auth).await;
    assert_eq!(
        (&status["status"], &status["completed"], &status["creditsUsed"]),
        (&json!("completed"), &json!(2), &json!(2)),
        "{status}"
    );
    assert!(site().gate_arrivals(&token) >= 4, "the pages were fetched again");
    assert_usage(again.url(), &key, 2, 8).await;
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
