//! Memory that must not grow with use (docs/ROBUSTNESS.md, "Memory"): plugin
//! versions replaced by hot swaps are dropped once no request holds them,
//! and the page cache's in-memory tier stays within `DISTILL_CACHE_HOT_MIB`
//! however much is written through it. Both read the server's `/metrics`.

use distill_e2e::client::http;
use distill_e2e::{
    Plugins, ServerOptions, TestServer, plugins_dir_with, scrape, shipped_plugins_dir, site, test_plugins_dir,
};
use serde_json::json;
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

/// Plugins serving now, from the admin API.
async fn serving(server: &TestServer) -> usize {
    let r = http()
        .get(server.endpoint("/admin/plugins"))
        .bearer_auth(ADMIN_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: serde_json::Value = r.json().await.unwrap();
    body["plugins"].as_array().map(Vec::len).unwrap_or(0)
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
