//! Several servers on one Redis queue (`DISTILL_QUEUE_URL`): a crawl
//! started on one is worked by all, and SIGKILLing a worker mid-crawl loses
//! no page and duplicates none (its leases expire and others take them).
//! Real `distill` processes, a real `redis-server` and the generated site,
//! all on loopback.

use distill_e2e::crawl_site::{CrawlSite, SiteShape, page_key};
use distill_e2e::redis::RedisServer;
use distill_e2e::{ServerOptions, TestServer, get, post_raw};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

fn worker(redis: &RedisServer) -> TestServer {
    TestServer::start(
        ServerOptions::default()
            .env("DISTILL_QUEUE_URL", &redis.url())
            .env("DISTILL_QUEUE_LEASE_SECS", "2")
            .env("DISTILL_QUEUE_POLL_MS", "200"),
    )
}

async fn status(server: &str, path: &str, id: &str) -> Value {
    let r = get(&format!("{server}{path}/{id}?limit=1")).await;
    assert_eq!(r.status, 200, "{}", r.pretty());
    r.json
}

/// Every document's page key (asserting none repeats), following `next`.
async fn page_keys(server: &str, path: &str, id: &str) -> BTreeSet<String> {
    let mut url = format!("{server}{path}/{id}?limit=40");
    let mut out = BTreeSet::new();
    loop {
        let r = get(&url).await;
        assert_eq!(r.status, 200, "{}", r.pretty());
        for d in r.json["data"].as_array().unwrap() {
            let url = d["metadata"]["url"].as_str().expect("metadata.url");
            assert!(out.insert(page_key(url)), "{url} stored twice");
        }
        match r.json["next"].as_str() {
            Some(next) => url = next.to_string(),
            None => return out,
        }
    }
}

#[tokio::test]
async fn servers_share_a_crawl_and_a_killed_worker_loses_no_page() {
    let redis = RedisServer::start();
    let site = CrawlSite::start(SiteShape {
        sections: 4,
        pages: 20,
        orphans: 3,
    });
    let (a, b, c) = (worker(&redis), worker(&redis), worker(&redis));
    // A delay makes each server's share sequential, so the crawl lasts long
    // enough to be killed mid-way.
    let r = post_raw(
        &a.endpoint("/v2/crawl"),
        json!({"url": site.url("/"), "maxDiscoveryDepth": 4, "delay": 0.05}).to_string(),
        &[],
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.pretty());
    let id = r.json["id"].as_str().unwrap().to_string();
    for other in [&b, &c] {
        let (seen, logs) = other.wait_for_logs(Duration::from_secs(10), |l| {
            l.contains("working job") && l.contains(&id)
        });
        assert!(seen, "another server never picked the crawl up: {logs}");
    }
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let s = status(b.url(), "/v2/crawl", &id).await;
        if s["completed"].as_u64().unwrap() >= 20 {
            assert_eq!(s["status"], json!("scraping"), "finished before the kill: {s}");
            break;
        }
        assert!(Instant::now() < until, "{s}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    drop(a); // SIGKILL: its leased pages come back after the 2 s lease
    let until = Instant::now() + Duration::from_secs(90);
    let done = loop {
        let s = status(b.url(), "/v2/crawl", &id).await;
        if s["status"] != json!("scraping") {
            break s;
        }
        assert!(Instant::now() < until, "{s}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(done["status"], json!("completed"), "{done}");
    assert_eq!(done["completed"], done["total"], "{done}");
    let expected = site.expected_crawl(4);
    assert_eq!(page_keys(b.url(), "/v2/crawl", &id).await, expected);
    assert_eq!(page_keys(c.url(), "/v2/crawl", &id).await, expected);
    assert_eq!(done["creditsUsed"].as_u64(), Some(expected.len() as u64));
    assert_eq!(site.hits("/private"), 0);

    // A batch started on one server is read back from the other.
    let urls: Vec<String> = (0..6).map(|p| site.url(&format!("/s1/p{p}"))).collect();
    let r = post_raw(
        &c.endpoint("/v2/batch/scrape"),
        json!({"urls": urls, "formats": ["markdown"]}).to_string(),
        &[],
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.pretty());
    let batch = r.json["id"].as_str().unwrap().to_string();
    let until = Instant::now() + Duration::from_secs(30);
    while status(b.url(), "/v2/batch/scrape", &batch).await["status"] == json!("scraping") {
        assert!(Instant::now() < until, "batch still scraping");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let got = page_keys(b.url(), "/v2/batch/scrape", &batch).await;
    assert_eq!(got, (0..6).map(|p| format!("/s1/p{p}")).collect());
}

/// Per-host slots are shared through Redis: with one slot per host, a batch
/// worked by two servers (4 pages at a time each) never has two requests in
/// flight at the host, and every page is still scraped once.
#[tokio::test]
async fn servers_share_the_per_host_cap() {
    let redis = RedisServer::start();
    let worker = || {
        TestServer::start(
            ServerOptions::default()
                .env("DISTILL_QUEUE_URL", &redis.url())
                .env("DISTILL_QUEUE_POLL_MS", "100")
                .env("DISTILL_CRAWL_PER_HOST", "1"),
        )
    };
    let (a, b) = (worker(), worker());
    let token = format!("per-host-{}", std::process::id());
    let urls: Vec<String> = (0..12)
        .map(|i| distill_e2e::site().url(&format!("/inflight/{token}?ms=250&page={i}")))
        .collect();
    let body = json!({"urls": urls, "maxConcurrency": 4, "maxAge": 0});
    let done = run_on_both(&a, &b, "/v2/batch/scrape", body, Duration::from_secs(60)).await;
    assert_eq!(done["completed"], 12, "{done}");
    assert_eq!(distill_e2e::site().hits(&token), 12);
    assert_eq!(
        distill_e2e::site().max_in_flight(&token),
        1,
        "two fetches of one host at once"
    );
}

/// Starts a job on `a` (`path` is its start route), waits until `b` works it
/// too and then until it is no longer scraping; its final status.
async fn run_on_both(a: &TestServer, b: &TestServer, path: &str, body: Value, limit: Duration) -> Value {
    let r = post_raw(&a.endpoint(path), body.to_string(), &[]).await;
    assert_eq!(r.status, 200, "{}", r.pretty());
    let id = r.json["id"].as_str().unwrap().to_string();
    let (seen, logs) = b.wait_for_logs(Duration::from_secs(30), |l| {
        l.contains("working job") && l.contains(&id)
    });
    assert!(seen, "the second server never picked {id} up: {logs}");
    let until = Instant::now() + limit;
    loop {
        let s = status(a.url(), path, &id).await;
        if s["status"] != json!("scraping") {
            return s;
        }
        assert!(Instant::now() < until, "{s}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Page fetches a server made (its `distill_fetches_total`, every label).
async fn fetches(server: &str) -> f64 {
    let r = get(&format!("{server}/metrics")).await;
    assert_eq!(r.status, 200);
    r.body
        .lines()
        .filter(|l| l.starts_with("distill_fetches_total"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// A crawl's `delay` is one pace for the job across servers: two servers
/// working one crawl never start page fetches closer than the delay (less a
/// margin for scheduling). With a pace per server, the two schedules
/// interleave and some pair of starts is at most half the delay apart, so
/// this fails whatever the phase between them.
#[tokio::test]
async fn servers_share_a_crawls_delay() {
    let redis = RedisServer::start();
    let site = CrawlSite::start(SiteShape {
        sections: 1,
        pages: 6,
        orphans: 0,
    });
    let (a, b) = (worker(&redis), worker(&redis));
    let body = json!({"url": site.url("/s0/"), "sitemap": "skip", "limit": 7, "delay": 1.5});
    let done = run_on_both(&a, &b, "/v2/crawl", body, Duration::from_secs(90)).await;
    assert_eq!(done["status"], "completed", "{done}");
    let (by_a, by_b) = (fetches(a.url()).await, fetches(b.url()).await);
    assert!(by_a > 0.0 && by_b > 0.0, "fetches by server: {by_a} and {by_b}");
    let starts = site.arrivals("/s0");
    assert!(starts.len() >= 5, "only {} page fetches", starts.len());
    let gaps: Vec<u128> = starts.windows(2).map(|w| (w[1] - w[0]).as_millis()).collect();
    assert!(
        gaps.iter().all(|&g| g >= 900),
        "page fetches closer than the 1.5 s delay allows (ms between starts): {gaps:?}"
    );
}
