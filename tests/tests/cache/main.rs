//! The page cache over HTTP (docs/CACHE.md, compat notes §4): hits and misses
//! across formats, maxAge expiry, minAge and lockdown answers, persistence
//! across a restart, zero data retention leaving no trace, coalescing of
//! concurrent identical requests (each waiting no longer than its own timeout), change tracking over three page versions,
//! and the Redis backend (one server, then two sharing one Redis).
//!
//! Every test uses its own URL token, so the fixture's hit counter tells
//! exactly how many times the target was contacted.
//! Change tracking is in `change_tracking.rs`, the Redis backend in `redis.rs`.

use axum::Router;
use axum::body::Bytes;
use axum::routing::post;
use distill_e2e::fixture::versioned_page;
use distill_e2e::redis::RedisServer;
use distill_e2e::server::Plugins;
use distill_e2e::server::TempDir;
use distill_e2e::{ServerOptions, TestServer, scrape, shared, site, unique_token};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod change_tracking;
mod redis;

/// `cachedAt` as JavaScript's `toISOString()`: `2026-11-24T04:01:12.123Z`.
fn assert_iso(v: &Value) {
    let s = v
        .as_str()
        .unwrap_or_else(|| panic!("cachedAt is not a string: {v}"));
    let b = s.as_bytes();
    assert!(
        s.len() == 24 && b[4] == b'-' && b[10] == b'T' && b[19] == b'.' && s.ends_with('Z'),
        "cachedAt {s}"
    );
}

/// Miss, hit, other formats from the stored page, then `maxAge: 0`; the
/// fixture counts every fetch.
async fn hit_and_miss(server: &str, name: &str) {
    let t = unique_token(name);
    let url = site().url(&format!("/hits/{t}"));
    let first = scrape(server, &json!({ "url": url, "formats": ["markdown"] })).await;
    first.assert_ok();
    assert_eq!(first.metadata()["cacheState"], "miss", "{}", first.pretty());
    assert!(first.metadata().get("cachedAt").is_none(), "{}", first.pretty());
    assert_eq!(site().hits(&t), 1);

    let second = scrape(server, &json!({ "url": url, "formats": ["markdown"] })).await;
    second.assert_ok();
    assert_eq!(second.metadata()["cacheState"], "hit", "{}", second.pretty());
    assert_iso(&second.metadata()["cachedAt"]);
    assert_eq!(second.markdown(), first.markdown());
    assert_ne!(second.metadata()["scrapeId"], first.metadata()["scrapeId"]);
    assert_eq!(second.metadata()["sourceURL"], json!(url));
    assert_eq!(site().hits(&t), 1, "the hit fetched the page");

    // Other formats of the same page: rendered from the stored page.
    let other = scrape(
        server,
        &json!({ "url": url, "formats": ["html", "links", "rawHtml"] }),
    )
    .await;
    other.assert_ok();
    assert_eq!(other.metadata()["cacheState"], "hit", "{}", other.pretty());
    assert_eq!(other.metadata()["cachedAt"], second.metadata()["cachedAt"]);
    assert!(
        other.data_str("rawHtml").contains(&format!("Hit {t}")),
        "{}",
        other.pretty()
    );
    assert!(other.data().get("markdown").is_none());
    assert_eq!(site().hits(&t), 1, "other formats fetched the page");

    // maxAge 0: a live fetch, and no cacheState (the cache was not consulted).
    let fresh = scrape(
        server,
        &json!({ "url": url, "formats": ["markdown"], "maxAge": 0 }),
    )
    .await;
    fresh.assert_ok();
    assert!(fresh.metadata().get("cacheState").is_none(), "{}", fresh.pretty());
    assert_eq!(site().hits(&t), 2);
}

#[tokio::test]
async fn a_second_request_is_served_from_the_cache_across_formats() {
    hit_and_miss(shared().url(), "hitmiss").await;
}

#[tokio::test]
async fn an_entry_older_than_max_age_is_fetched_again() {
    let t = unique_token("maxage");
    let url = site().url(&format!("/hits/{t}"));
    scrape(shared().url(), &json!({ "url": url })).await.assert_ok();
    let young = scrape(shared().url(), &json!({ "url": url, "maxAge": 60_000 })).await;
    assert_eq!(young.metadata()["cacheState"], "hit", "{}", young.pretty());
    assert_eq!(site().hits(&t), 1);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let old = scrape(shared().url(), &json!({ "url": url, "maxAge": 1000 })).await;
    old.assert_ok();
    assert_eq!(old.metadata()["cacheState"], "miss", "{}", old.pretty());
    assert_eq!(site().hits(&t), 2);
    // The refetch replaced the entry: a small maxAge is now satisfied.
    let again = scrape(shared().url(), &json!({ "url": url, "maxAge": 1000 })).await;
    assert_eq!(again.metadata()["cacheState"], "hit", "{}", again.pretty());
    assert_eq!(site().hits(&t), 2);
}

const NO_CACHED_DATA: &str =
    "No cached data is available for this URL that meets your specified age requirements.";
const LOCKDOWN_MISS: &str = "No cached data is available for this request in lockdown mode.";

#[tokio::test]
async fn min_age_and_lockdown_answer_from_the_cache_only() {
    let server = TestServer::start(ServerOptions::default());
    let t = unique_token("lockdown");
    let url = site().url(&format!("/hits/{t}"));

    let r = scrape(server.url(), &json!({ "url": url, "minAge": 1 })).await;
    r.assert_error(404, "SCRAPE_NO_CACHED_DATA");
    assert!(r.error().starts_with(NO_CACHED_DATA), "{}", r.pretty());
    let r = scrape(server.url(), &json!({ "url": url, "lockdown": true })).await;
    r.assert_error(404, "SCRAPE_LOCKDOWN_CACHE_MISS");
    assert!(r.error().starts_with(LOCKDOWN_MISS), "{}", r.pretty());
    assert_eq!(site().hits(&t), 0, "a cache-only request contacted the target");
    assert!(
        !server.logs().contains(&t),
        "the lockdown miss logged the URL:\n{}",
        server.logs()
    );

    scrape(server.url(), &json!({ "url": url })).await.assert_ok();
    assert_eq!(site().hits(&t), 1);
    let r = scrape(server.url(), &json!({ "url": url, "lockdown": true })).await;
    r.assert_ok();
    assert_eq!(r.metadata()["cacheState"], "hit", "{}", r.pretty());
    // Too fresh for minAge 60 s; old enough for minAge 1 ms.
    let r = scrape(server.url(), &json!({ "url": url, "minAge": 60_000 })).await;
    r.assert_error(404, "SCRAPE_NO_CACHED_DATA");
    tokio::time::sleep(Duration::from_millis(20)).await;
    let r = scrape(server.url(), &json!({ "url": url, "minAge": 1 })).await;
    r.assert_ok();
    assert_eq!(r.metadata()["cacheState"], "hit", "{}", r.pretty());
    assert_eq!(site().hits(&t), 1, "cache-only requests contacted the target");
}

#[tokio::test]
async fn the_cache_survives_a_restart() {
    let data = TempDir::new();
    let opts = ServerOptions {
        data_dir: Some(data.path().join("data").to_string_lossy().into_owned()),
        ..ServerOptions::default()
    };
    let t = unique_token("restart");
    let url = site().url(&format!("/hits/{t}"));
    {
        let server = TestServer::start(opts.clone());
        let r = scrape(server.url(), &json!({ "url": url })).await;
        assert_eq!(r.metadata()["cacheState"], "miss", "{}", r.pretty());
        // Puts become durable within a second; the server is then killed (SIGKILL).
        tokio::time::sleep(Duration::from_millis(2500)).await;
    }
    let server = TestServer::start(opts);
    let r = scrape(server.url(), &json!({ "url": url })).await;
    r.assert_ok();
    assert_eq!(r.metadata()["cacheState"], "hit", "{}", r.pretty());
    assert_eq!(site().hits(&t), 1, "the restarted server fetched again");
}

/// A page its origin gzipped is stored with the origin's gzip bytes (the
/// file never holds its markup in the clear, though it is under half full,
/// where other pages are stored as they are); read back from the file after
/// a restart, it renders as fetched.
#[tokio::test]
async fn a_gzipped_page_is_stored_as_it_came_and_reads_back_as_fetched() {
    let data = TempDir::new();
    let dir = data.path().join("data");
    let opts = ServerOptions {
        data_dir: Some(dir.to_string_lossy().into_owned()),
        ..ServerOptions::default()
    };
    let t = unique_token("gzip");
    let url = site().url(&format!("/hits/{t}?page=gzip"));
    let mark = format!("data-mark=\"gz-{t}\"");
    {
        let server = TestServer::start(opts.clone());
        let r = scrape(server.url(), &json!({ "url": url })).await;
        assert_eq!(r.metadata()["cacheState"], "miss", "{}", r.pretty());
        let md = r.data()["markdown"].as_str().unwrap_or_default().to_string();
        assert!(md.contains("Paragraph 199 of a gzipped page."), "{md}");
        tokio::time::sleep(Duration::from_millis(2500)).await;
    }
    let files = files_under(&dir.join("cache"));
    assert!(!files.is_empty());
    assert!(
        !files.iter().any(|(_, bytes)| contains(bytes, &mark)),
        "the page's markup is in the cache file in the clear"
    );
    let server = TestServer::start(opts);
    let r = scrape(server.url(), &json!({ "url": url, "formats": ["rawHtml"] })).await;
    r.assert_ok();
    assert_eq!(r.metadata()["cacheState"], "hit", "{}", r.pretty());
    let raw = r.data()["rawHtml"].as_str().unwrap_or_default();
    assert_eq!(raw.matches(&mark).count(), 200, "{raw}");
    assert!(raw.contains("Paragraph 199 of a gzipped page."));
    assert_eq!(site().hits(&t), 1, "the restarted server fetched again");
}

/// Stores are written off the request path; a graceful shutdown (SIGTERM)
/// right after the responses still leaves every entry in the file.
#[tokio::test]
async fn a_graceful_shutdown_keeps_what_was_just_stored() {
    let data = TempDir::new();
    let opts = ServerOptions {
        data_dir: Some(data.path().join("data").to_string_lossy().into_owned()),
        ..ServerOptions::default()
    };
    let tokens: Vec<String> = (0..6).map(|i| unique_token(&format!("term{i}"))).collect();
    {
        let server = TestServer::start(opts.clone());
        for t in &tokens {
            let r = scrape(server.url(), &json!({ "url": site().url(&format!("/hits/{t}")) })).await;
            assert_eq!(r.metadata()["cacheState"], "miss", "{}", r.pretty());
        }
        // No pause: the writes may still be queued when the signal comes.
        assert!(server.terminate(Duration::from_secs(20)), "no exit after SIGTERM");
    }
    let server = TestServer::start(opts);
    for t in &tokens {
        let r = scrape(
            server.url(),
            &json!({ "url": site().url(&format!("/hits/{t}")), "lockdown": true }),
        )
        .await;
        r.assert_ok();
        assert_eq!(r.metadata()["cacheState"], "hit", "{}", r.pretty());
        assert_eq!(site().hits(t), 1);
    }
}

/// A hit is the stored response with this request's `scrapeId`,
/// `sourceURL` (as sent), `cacheState` and `cachedAt`, and nothing else
/// changed; an immediate second request hits.
#[tokio::test]
async fn a_hit_is_the_stored_response_with_this_requests_metadata() {
    let t = unique_token("splice");
    let url = site().url(&format!("/hits/{t}"));
    let formats = json!(["markdown", "html", "links"]);
    let first = scrape(shared().url(), &json!({ "url": url, "formats": formats })).await;
    first.assert_ok();
    let sent = format!("{url}#section");
    let second = scrape(shared().url(), &json!({ "url": sent, "formats": formats })).await;
    second.assert_ok();
    assert_eq!(site().hits(&t), 1);
    let meta = second.metadata();
    assert_eq!(meta["cacheState"], "hit", "{}", second.pretty());
    assert_eq!(meta["sourceURL"], json!(sent));
    assert_iso(&meta["cachedAt"]);
    assert!(meta["scrapeId"].is_string() && meta["scrapeId"] != first.metadata()["scrapeId"]);
    let strip = |reply: &Value| {
        let mut d = reply["data"].clone();
        for k in ["scrapeId", "sourceURL", "cacheState", "cachedAt"] {
            d["metadata"].as_object_mut().unwrap().remove(k);
        }
        d
    };
    let (a, b): (Value, Value) = (
        serde_json::from_str(&first.body).unwrap(),
        serde_json::from_str(&second.body).unwrap(),
    );
    assert_eq!(strip(&a), strip(&b));
    assert_eq!(b["success"], json!(true));
}

/// A plugin's own log lines and stderr carry the page's URL and content;
/// under zero data retention the server logs neither (the control request
/// shows that the plugin did log them).
#[tokio::test]
async fn plugin_log_lines_are_withheld_under_zero_data_retention() {
    let server = TestServer::start(
        ServerOptions {
            plugins: Plugins::ShippedAnd(&["misbehave"]),
            ..ServerOptions::default()
        }
        // Debug for Distill itself (plugin stderr is logged at debug), not for
        // third-party crates (html5ever traces the text it parses at debug).
        .env("DISTILL_LOG", "info,distill=debug"),
    );
    let format = json!([{ "type": "misbehave", "mode": "log" }]);
    let control = unique_token("plainlog");
    let r = scrape(
        server.url(),
        &json!({ "url": site().url(&format!("/hits/{control}")), "formats": format }),
    )
    .await;
    r.assert_ok();
    let (seen, logs) = server.wait_for_logs(Duration::from_secs(5), |l| {
        l.contains(&format!(
            "misbehave log: {}",
            site().url(&format!("/hits/{control}"))
        )) && l.contains(&format!(
            "misbehave stderr: {}",
            site().url(&format!("/hits/{control}"))
        ))
    });
    assert!(seen, "the plugin's log lines are not in the log:\n{logs}");

    let secret = unique_token("zdrlog");
    for extra in [json!({"zeroDataRetention": true}), json!({"lockdown": true})] {
        let mut body = json!({ "url": site().url(&format!("/hits/{secret}")), "formats": format });
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let r = scrape(server.url(), &body).await;
        assert!(r.status == 200 || r.status == 404, "{}", r.pretty());
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let logs = server.logs();
    assert!(
        !logs.contains(&secret),
        "the log carries the zero-retention URL:\n{logs}"
    );
    assert!(logs.contains("withheld under zero data retention"), "{logs}");
}

/// Every file under `dir`, read whole.
fn files_under(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                out.push((path, bytes));
            }
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[tokio::test]
async fn zero_data_retention_leaves_no_trace() {
    let data = TempDir::new();
    let cache_dir = data.path().join("data").join("cache");
    let server = TestServer::start(ServerOptions {
        data_dir: Some(data.path().join("data").to_string_lossy().into_owned()),
        ..ServerOptions::default()
    });
    let secret = unique_token("zdr");
    let url = site().url(&format!("/hits/{secret}"));
    for formats in [json!(["markdown"]), json!(["html", "links"])] {
        let r = scrape(
            server.url(),
            &json!({ "url": url, "formats": formats, "zeroDataRetention": true }),
        )
        .await;
        r.assert_ok();
        assert!(r.body.contains(&format!("Hit {secret}")), "{}", r.pretty());
    }
    assert_eq!(
        site().hits(&secret),
        2,
        "a zero-retention request was served from the cache"
    );

    // A control page, stored normally: its token does show in the store files
    // (small pages are stored uncompressed), so the search below can find one.
    let control = unique_token("stored");
    let r = scrape(
        server.url(),
        &json!({ "url": site().url(&format!("/hits/{control}")) }),
    )
    .await;
    r.assert_ok();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let files = files_under(&cache_dir);
    assert!(
        files.iter().any(|(_, b)| contains(b, &control)),
        "the control page is not in the store files under {}",
        cache_dir.display()
    );
    for (path, bytes) in &files {
        assert!(
            !contains(bytes, &secret),
            "{} holds the zero-retention page",
            path.display()
        );
    }
    assert!(
        !server.logs().contains(&secret),
        "the logs mention the zero-retention URL:\n{}",
        server.logs()
    );

    // Not stored: the next ordinary request is a miss.
    let r = scrape(server.url(), &json!({ "url": url })).await;
    assert_eq!(r.metadata()["cacheState"], "miss", "{}", r.pretty());
    assert_eq!(site().hits(&secret), 3);
}

/// A request that joins another's fetch of the same page waits only until its
/// own timeout: the first asks for a page that takes 5 s with a 20 s timeout,
/// the second for the same page with 1.5 s; the second answers 408 at about
/// 1.5 s without a fetch of its own, and the first still gets the page.
#[tokio::test]
async fn a_request_sharing_a_slow_fetch_times_out_at_its_own_deadline() {
    let t = unique_token("coalesce-deadline");
    let url = site().url(&format!("/hits/{t}?ms=5000"));
    let first = {
        let body = json!({ "url": url, "formats": ["markdown"], "timeout": 20_000 });
        tokio::spawn(async move { scrape(shared().url(), &body).await })
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while site().hits(&t) == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the first fetch never reached the site"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let second = scrape(
        shared().url(),
        &json!({ "url": url, "formats": ["markdown"], "timeout": 1500 }),
    )
    .await;
    second.assert_error(408, "SCRAPE_TIMEOUT");
    assert!(
        second.elapsed < Duration::from_millis(3500),
        "the 1500 ms timeout took {:?}",
        second.elapsed
    );
    assert!(!first.is_finished(), "the slow page came back before the check");
    let first = first.await.unwrap();
    first.assert_ok();
    assert!(
        first.markdown().contains(&format!("Hit {t}")),
        "{}",
        first.pretty()
    );
    assert_eq!(site().hits(&t), 1, "the second request fetched the page itself");
}

#[tokio::test]
async fn twenty_identical_concurrent_requests_fetch_once() {
    let t = unique_token("coalesce");
    let url = site().url(&format!("/hits/{t}?ms=600"));
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let body = json!({ "url": url, "formats": ["markdown"] });
        tasks.push(tokio::spawn(async move { scrape(shared().url(), &body).await }));
    }
    for task in tasks {
        let r = task.await.unwrap();
        r.assert_ok();
        assert!(r.markdown().contains(&format!("Hit {t}")), "{}", r.pretty());
    }
    assert_eq!(site().hits(&t), 1, "20 concurrent requests made several fetches");
}
