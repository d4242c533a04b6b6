//! Limits held in Redis: two servers on one Redis enforce one budget, and a
//! bounded load test shows no request over quota is served and no credit is
//! lost or counted twice under concurrency (docs/OPERATORS.md).

use distill_e2e::keys::{assert_usage, create_key, run_job_as, scrape_as, wait_for_fresh_minute};
use distill_e2e::redis::RedisServer;
use distill_e2e::{ServerOptions, TestServer, fresh_tmp_dir, site};
use serde_json::json;
use std::path::Path;
use std::time::Duration;

fn redis_server(redis: &RedisServer, keys: &Path) -> TestServer {
    TestServer::start(
        ServerOptions::default()
            .env("DISTILL_CACHE_URL", &redis.url())
            .env("DISTILL_KEYS_FILE", keys.to_str().unwrap()),
    )
}

#[tokio::test]
async fn two_servers_on_one_redis_share_rate_limits_and_concurrency() {
    let redis = RedisServer::start();
    let keys = fresh_tmp_dir().join("keys.json");
    let (a, b) = (redis_server(&redis, &keys), redis_server(&redis, &keys));
    assert!(
        a.logs().contains("limits ready") && a.logs().contains("redis"),
        "{}",
        a.logs()
    );
    let key = create_key(&keys, "shared-rpm", &["--rpm", "4"]);
    wait_for_fresh_minute(20);
    let page = json!({"url": site().url("/article.html"), "maxAge": 0});
    let mut statuses = Vec::new();
    for i in 0..8 {
        let server = if i % 2 == 0 { &a } else { &b };
        statuses.push(scrape_as(server.url(), &key, &page).await.status);
    }
    assert_eq!(
        statuses,
        vec![200, 200, 200, 200, 429, 429, 429, 429],
        "one window for both servers"
    );

    // One slot across both servers: a scrape on B waits for A's.
    let key = create_key(&keys, "shared-slot", &["--concurrency", "1"]);
    let slow = json!({"url": site().url("/slow?ms=1500&shared=1"), "maxAge": 0});
    let (ua, ka, sa) = (a.url().to_string(), key.clone(), slow.clone());
    let first = tokio::spawn(async move { scrape_as(&ua, &ka, &sa).await });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let second = scrape_as(
        b.url(),
        &key,
        &json!({"url": site().url("/article.html"), "maxAge": 0}),
    )
    .await;
    let first = first.await.unwrap();
    assert_eq!((first.status, second.status), (200, 200));
    let m = &second.json["data"]["metadata"];
    assert_eq!(m["concurrencyLimited"], true, "{m}");
    assert!(m["concurrencyQueueDurationMs"].as_u64().unwrap() >= 800, "{m}");
}

/// Bounded load: 60 scrapes in waves of 15 at once, alternating between two servers,
/// against a key with 25 credits and a concurrency limit of 3.
#[tokio::test]
async fn load_across_two_servers_serves_exactly_the_quota_and_counts_every_credit() {
    let redis = RedisServer::start();
    let keys = fresh_tmp_dir().join("keys.json");
    let (a, b) = (redis_server(&redis, &keys), redis_server(&redis, &keys));
    let key = create_key(&keys, "load", &["--credits", "25", "--concurrency", "3"]);
    let urls = [a.url().to_string(), b.url().to_string()];
    let mut answers = Vec::new();
    for wave in 0..4 {
        let calls: Vec<_> = (0..15)
            .map(|i| {
                let server = urls[i % 2].clone();
                let key = key.clone();
                let body = json!({"url": site().url(&format!("/hits/load-{wave}-{i}?ms=50")), "maxAge": 0});
                tokio::spawn(async move { scrape_as(&server, &key, &body).await })
            })
            .collect();
        for call in calls {
            answers.push(call.await.unwrap());
        }
    }
    let served: Vec<_> = answers.iter().filter(|r| r.status == 200).collect();
    let refused = answers.iter().filter(|r| r.status == 402).count();
    let other: Vec<_> = answers
        .iter()
        .filter(|r| r.status != 200 && r.status != 402)
        .map(|r| (r.status, r.json.to_string()))
        .collect();
    assert!(other.is_empty(), "unexpected answers: {other:?}");
    assert_eq!(served.len(), 25, "exactly the quota is served");
    assert_eq!(refused, 35);
    let billed: u64 = served.iter().map(|r| r.credits()).sum();
    assert_eq!(billed, 25, "every served scrape billed once");
    for server in &urls {
        assert_usage(server, &key, 25, 0).await;
    }
    assert!(
        served
            .iter()
            .any(|r| r.json["data"]["metadata"]["concurrencyLimited"] == true),
        "with 15 in flight and 3 slots some scrapes queued"
    );
}

/// A batch worked by two servers on one Redis (queue and counters), 4 pages
/// at a time on each: exactly the key's 6 credits are fetched, served and
/// billed, the balance ends at 0 and never below.
#[tokio::test]
async fn a_batch_shared_by_two_servers_serves_exactly_the_credits() {
    let redis = RedisServer::start();
    let keys = fresh_tmp_dir().join("keys.json");
    let worker = || {
        TestServer::start(
            ServerOptions::default()
                .env("DISTILL_CACHE_URL", &redis.url())
                .env("DISTILL_QUEUE_URL", &redis.url())
                .env("DISTILL_QUEUE_POLL_MS", "100")
                .env("DISTILL_KEYS_FILE", keys.to_str().unwrap()),
        )
    };
    let (a, b) = (worker(), worker());
    let key = create_key(&keys, "shared-batch", &["--credits", "6"]);
    let token = std::process::id();
    let urls: Vec<String> = (0..16)
        .map(|i| site().url(&format!("/hits/shared-batch-{token}-{i}?ms=300")))
        .collect();
    let body = json!({"urls": urls, "maxConcurrency": 4, "maxAge": 0});
    let job = run_job_as(a.url(), &key, "/v2/batch/scrape", &body, Duration::from_secs(60)).await;
    assert_eq!((job.documents.len(), job.errors.len()), (6, 10), "{}", job.status);
    assert!(
        job.errors.iter().all(|e| e["code"] == "INSUFFICIENT_CREDITS"),
        "{:?}",
        job.errors
    );
    let fetched: u64 = (0..16)
        .map(|i| site().hits(&format!("shared-batch-{token}-{i}")))
        .sum();
    assert_eq!(fetched, 6, "no page fetched over quota");
    assert_eq!(job.status["creditsUsed"], 6);
    for server in [a.url(), b.url()] {
        assert_usage(server, &key, 6, 0).await;
    }
}

/// The counters out of reach (Redis gone): nothing is served unmetered — a
/// 503 with `LIMITS_UNAVAILABLE` and `Retry-After: 1` (docs/OPERATORS.md).
#[tokio::test]
async fn a_redis_outage_fails_closed_with_503_and_retry_after() {
    let redis = RedisServer::start();
    let keys = fresh_tmp_dir().join("keys.json");
    let server = redis_server(&redis, &keys);
    let key = create_key(&keys, "outage", &["--credits", "10"]);
    let page = json!({"url": site().url("/article.html"), "maxAge": 0});
    assert_eq!(scrape_as(server.url(), &key, &page).await.status, 200);
    drop(redis);
    let refused = scrape_as(server.url(), &key, &page).await;
    assert_eq!(
        (
            refused.status,
            &refused.json["code"],
            refused.header("retry-after")
        ),
        (503, &json!("LIMITS_UNAVAILABLE"), Some("1")),
        "{}",
        refused.json
    );
    assert_eq!(
        refused.json["error"],
        "The server cannot check this key's limits right now. Please retry shortly."
    );
}
