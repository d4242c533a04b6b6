//! The behaviour every [`CacheStore`] backend must have; run by the embedded
//! and the Redis tests on their own instances.

use super::value_for;
use crate::cache::store::{CacheStore, now_ms};
use std::sync::Arc;
use std::time::Duration;

const HOUR: Duration = Duration::from_secs(3600);

/// Get, put, overwrite, delete, binary values, times, usage.
pub async fn basic(store: &dyn CacheStore) {
    assert_eq!(store.get("absent").await.unwrap(), None);
    let now = now_ms();
    store.put("page:a", b"first", now - 5000, HOUR).await.unwrap();
    let got = store.get("page:a").await.unwrap().expect("stored");
    assert_eq!(got.value, b"first");
    assert_eq!(got.stored_at_ms, now - 5000);
    assert_eq!(got.expires_at_ms, now - 5000 + 3_600_000);

    store.put("page:a", b"second", now, HOUR).await.unwrap();
    let got = store.get("page:a").await.unwrap().unwrap();
    assert_eq!((got.value.as_slice(), got.stored_at_ms), (&b"second"[..], now));

    let binary: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
    store.put("page:bin", &binary, now, HOUR).await.unwrap();
    assert_eq!(store.get("page:bin").await.unwrap().unwrap().value, binary);
    let html = value_for(7);
    store.put("result:html", &html, now, HOUR).await.unwrap();
    assert_eq!(store.get("result:html").await.unwrap().unwrap().value, html);
    store.put("empty", b"", now, HOUR).await.unwrap();
    assert_eq!(store.get("empty").await.unwrap().unwrap().value, b"");

    let usage = store.usage().await.unwrap();
    assert!(usage.entries >= 4, "{usage:?}");
    assert!(usage.bytes > 0);

    assert!(store.delete("page:a").await.unwrap());
    assert!(!store.delete("page:a").await.unwrap());
    assert_eq!(store.get("page:a").await.unwrap(), None);
    assert_eq!(store.usage().await.unwrap().entries, usage.entries - 1);
}

/// Entries stop being returned at `stored_at + ttl`; already-expired puts
/// store nothing.
pub async fn expiry(store: &dyn CacheStore) {
    let now = now_ms();
    store
        .put("old", b"x", now - 10_000, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(store.get("old").await.unwrap(), None);
    store
        .put("short", b"y", now, Duration::from_millis(1200))
        .await
        .unwrap();
    assert!(store.get("short").await.unwrap().is_some());
    tokio::time::sleep(Duration::from_millis(2100)).await;
    assert_eq!(store.get("short").await.unwrap(), None, "expired after its ttl");
}

/// Many tasks writing and reading distinct and shared keys at once. Every
/// value read back is whole and the one put; returns the sampled keys that
/// came back absent afterwards, for the backend's test to account for (the
/// embedded store may drop a file write under a burst, by design).
pub async fn concurrent(store: Arc<dyn CacheStore>) -> Vec<String> {
    let mut tasks = Vec::new();
    for t in 0..16u64 {
        let s = store.clone();
        tasks.push(tokio::spawn(async move {
            for i in 0..20u64 {
                let n = t * 100 + i;
                let v = value_for(n);
                s.put(&format!("c:{n}"), &v, now_ms(), HOUR).await.unwrap();
                assert_eq!(s.get(&format!("c:{n}")).await.unwrap().unwrap().value, v);
                s.put("c:shared", &value_for(n % 3), now_ms(), HOUR)
                    .await
                    .unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let mut missing = Vec::new();
    match store.get("c:shared").await.unwrap() {
        Some(shared) => assert!(
            (0..3).any(|k| value_for(k) == shared.value),
            "one whole value, not a mix"
        ),
        None => missing.push("c:shared".to_string()),
    }
    for n in [0u64, 519, 1519] {
        let key = format!("c:{n}");
        match store.get(&key).await.unwrap() {
            Some(got) => assert_eq!(got.value, value_for(n), "{key}"),
            None => missing.push(key),
        }
    }
    missing
}
