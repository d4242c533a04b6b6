//! A request's `timeout` counts from when the server took it: the wait for
//! a concurrency slot is part of it, not added to it.

use super::{keys_file, rand_token, server_with_keys};
use distill_e2e::keys::{create_key, scrape_as};
use distill_e2e::site;
use serde_json::json;
use std::time::{Duration, Instant};

/// With the key's one slot held by a 2 s page, a scrape of another 2 s page
/// with a 2.5 s timeout waits ~1.7 s for the slot, then has ~0.8 s left: it
/// answers 408 at about 2.5 s (before, the pipeline's clock started after
/// the wait: 200 after ~3.7 s).
#[tokio::test]
async fn the_wait_for_a_slot_counts_against_the_timeout() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let key = create_key(&keys, "deadline", &["--concurrency", "1"]);
    let slow = |timeout: u64| {
        json!({
            "url": site().url(&format!("/slow?ms=2000&n={}", rand_token())),
            "maxAge": 0,
            "timeout": timeout,
        })
    };
    let (s, k, holder_body) = (server.url().to_string(), key.clone(), slow(30_000));
    let holder = tokio::spawn(async move { scrape_as(&s, &k, &holder_body).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    let queued = scrape_as(server.url(), &key, &slow(2500)).await;
    let took = started.elapsed();
    assert_eq!(
        (queued.status, &queued.json["code"]),
        (408, &json!("SCRAPE_TIMEOUT")),
        "{} after {took:?}",
        queued.json
    );
    assert!(
        took >= Duration::from_millis(2000) && took < Duration::from_millis(3400),
        "the 2500 ms timeout took {took:?}"
    );
    assert_eq!(holder.await.unwrap().status, 200);
}
