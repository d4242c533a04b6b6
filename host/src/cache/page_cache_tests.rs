//! The cache around a scrape, over a real embedded store: hits, page
//! re-use for other formats, maxAge/minAge/lockdown, privacy rules, and 20
//! concurrent requests for one uncached page fetching it once.

use super::*;
use crate::api::ScrapeRequest;
use crate::cache::coalesce::{Coalescer, Role};
use crate::cache::embedded::{EmbeddedOptions, EmbeddedStore};
use crate::cache::policy::CacheState;
use crate::cache::store::now_ms;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};

const DAY: i64 = 86_400_000;

fn cache(name: &str) -> (PageCache, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("distill-pagecache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = EmbeddedStore::open(
        &dir.join("cache.redb"),
        EmbeddedOptions {
            max_bytes: 16 << 20,
            hot_max_bytes: 1 << 20,
        },
    )
    .unwrap();
    let c = PageCache::new(
        Arc::new(store),
        Duration::from_secs(30 * 86_400),
        Duration::from_secs(86_400),
    );
    (c, dir)
}

fn req(body: Value) -> ScrapeRequest {
    ScrapeRequest::from_json(&body, &|_: &str| false).unwrap_or_else(|e| panic!("{body}: {e:?}"))
}

fn page() -> PageEntry {
    PageEntry {
        final_url: "https://example.com/a".into(),
        status_code: 200,
        content_type: Some("text/html".into()),
        headers: vec![],
        engine_data: Default::default(),
        body: bytes::Bytes::from_static(b"<html><title>A</title><p>Hello</p></html>"),
        wire_gzip: None,
    }
}

fn doc() -> Value {
    json!({"markdown": "Hello", "metadata": {"title": "A", "scrapeId": "s1", "sourceURL": "example.com/a",
        "url": "https://example.com/a", "statusCode": 200, "cacheState": "miss"}})
}

/// One scrape as the pipeline will run it: lookup, fetch on a miss, save.
async fn scrape(c: &PageCache, r: &ScrapeRequest, now: i64) -> Lookup {
    let (lookup, keys) = c.lookup(&r.url, &r.options, now).await;
    if let Lookup::Fetch(_) = lookup {
        c.save(&r.url, &r.options, &keys, Some(&page()), Some(&doc()), now)
            .await;
    }
    lookup
}

#[tokio::test]
async fn miss_then_hit_then_other_formats_from_the_page() {
    let (c, dir) = cache("hit");
    let now = now_ms();
    let r = req(json!({"url": "https://example.com/a"}));
    let miss = Decision::Fetch {
        cache_state: Some(CacheState::Miss),
    };
    assert_eq!(scrape(&c, &r, now - 1000).await, Lookup::Fetch(miss));
    let Lookup::Document(stored, decision) = scrape(&c, &r, now).await else {
        panic!("expected the stored document");
    };
    let mut d = stored.to_value().unwrap();
    policy::annotate(&mut d, &decision);
    assert_eq!(d["markdown"], "Hello");
    assert_eq!(d["metadata"]["cacheState"], "hit");
    assert_eq!(d["metadata"]["cachedAt"], policy::iso8601(now - 1000));
    assert!(d["metadata"].get("scrapeId").is_none() && d["metadata"].get("sourceURL").is_none());

    // Same page, other formats: rendered from the stored page, no fetch.
    let other = req(json!({"url": "https://example.com/a#intro", "formats": ["html", "links"]}));
    match scrape(&c, &other, now).await {
        Lookup::Page(p, Decision::Serve { stored_at_ms }) => {
            assert_eq!(p, page());
            assert_eq!(stored_at_ms, now - 1000);
        }
        other => panic!("expected the stored page, got {other:?}"),
    }
    // A fetch option changes the page: nothing to re-use.
    let mobile = req(json!({"url": "https://example.com/a", "mobile": true}));
    assert_eq!(scrape(&c, &mobile, now).await, Lookup::Fetch(miss));
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn age_limits_and_cache_only_modes() {
    let (c, dir) = cache("ages");
    let now = now_ms();
    let url = "https://example.com/a";
    // Cache-only requests before anything is stored.
    assert_eq!(
        scrape(&c, &req(json!({"url": url, "minAge": 1})), now).await,
        Lookup::NoCachedData
    );
    assert_eq!(
        scrape(&c, &req(json!({"url": url, "lockdown": true})), now).await,
        Lookup::LockdownMiss
    );
    // Stored three days ago.
    scrape(&c, &req(json!({"url": url})), now - 3 * DAY).await;
    let miss = Decision::Fetch {
        cache_state: Some(CacheState::Miss),
    };
    // Too old for the default maxAge: a fresh fetch (which stores again).
    let (l, _) = c
        .lookup(
            &req(json!({"url": url})).url,
            &req(json!({"url": url})).options,
            now,
        )
        .await;
    assert_eq!(l, Lookup::Fetch(miss));
    // Old enough for minAge, young enough for a larger maxAge.
    let within = req(json!({"url": url, "minAge": DAY, "maxAge": 5 * DAY}));
    assert!(matches!(
        c.lookup(&within.url, &within.options, now).await.0,
        Lookup::Document(..)
    ));
    // Lockdown's two years reach it; it stores nothing itself.
    let locked = req(json!({"url": url, "lockdown": true}));
    assert!(matches!(
        c.lookup(&locked.url, &locked.options, now).await.0,
        Lookup::Document(..)
    ));
    // maxAge 0 never looks.
    let fresh = req(json!({"url": url, "maxAge": 0}));
    assert_eq!(
        c.lookup(&fresh.url, &fresh.options, now).await.0,
        Lookup::Fetch(Decision::Fetch { cache_state: None })
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn private_and_zero_retention_requests_store_nothing() {
    let (c, dir) = cache("private");
    let now = now_ms();
    for body in [
        json!({"url": "https://example.com/p", "storeInCache": false}),
        json!({"url": "https://example.com/p", "zeroDataRetention": true}),
        json!({"url": "https://example.com/p", "headers": {"Cookie": "session=1"}}),
        json!({"url": "https://example.com/p", "lockdown": true, "maxAge": 0}),
    ] {
        let r = req(body.clone());
        let keys = key::keys(&r.url, &r.options);
        let saved = c
            .save(&r.url, &r.options, &keys, Some(&page()), Some(&doc()), now)
            .await;
        assert_eq!(saved, Saved::default(), "{body}");
        assert!(c.store().get(&keys.page).await.unwrap().is_none(), "{body}");
    }
    assert_eq!(c.store().usage().await.unwrap().entries, 0);
    // changeTracking: the page is kept, the stateful result is not.
    let ct = req(json!({"url": "https://example.com/p", "formats": ["markdown", "changeTracking"]}));
    let keys = key::keys(&ct.url, &ct.options);
    let saved = c
        .save(&ct.url, &ct.options, &keys, Some(&page()), Some(&doc()), now)
        .await;
    assert_eq!(
        saved,
        Saved {
            page: true,
            result: false
        }
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_identical_requests_fetch_once() {
    let (c, dir) = cache("coalesce");
    let fetches = Arc::new(AtomicUsize::new(0));
    let coalescer: Arc<Coalescer<Arc<PageEntry>>> = Arc::new(Coalescer::new());
    let start = Arc::new(tokio::sync::Barrier::new(20));
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let (c, fetches, coalescer, start) = (c.clone(), fetches.clone(), coalescer.clone(), start.clone());
        tasks.push(tokio::spawn(async move {
            let r = req(json!({"url": "https://example.com/slow"}));
            start.wait().await;
            let now = now_ms();
            let (lookup, keys) = c.lookup(&r.url, &r.options, now).await;
            match lookup {
                Lookup::Fetch(_) => {
                    let (p, role) = coalescer
                        .run(&keys.page, || async {
                            fetches.fetch_add(1, Ordering::SeqCst);
                            tokio::time::sleep(Duration::from_millis(300)).await;
                            let p = Arc::new(page());
                            c.save(&r.url, &r.options, &keys, Some(&p), Some(&doc()), now)
                                .await;
                            p
                        })
                        .await;
                    assert_eq!(*p, page());
                    role
                }
                // A task that looked after the first save finished.
                Lookup::Document(..) => Role::Follower,
                other => panic!("{other:?}"),
            }
        }));
    }
    let mut leaders = 0;
    for t in tasks {
        leaders += usize::from(t.await.unwrap() == Role::Leader);
    }
    assert_eq!(fetches.load(Ordering::SeqCst), 1, "one fetch for twenty requests");
    assert_eq!(leaders, 1);
    let r = req(json!({"url": "https://example.com/slow"}));
    assert!(matches!(
        c.lookup(&r.url, &r.options, now_ms()).await.0,
        Lookup::Document(..)
    ));
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_stored_screenshot_never_outlives_its_media_file() {
    let (c, dir) = cache("media");
    let now = now_ms();
    let shot = json!({"url": "https://example.com/shot", "formats": ["markdown", "screenshot"]});
    let r = req(shot.clone());
    let mut with_shot = page();
    with_shot
        .engine_data
        .insert("screenshot".into(), json!("http://127.0.0.1:1/media/x.png"));
    let mut shot_doc = doc();
    shot_doc["screenshot"] = json!("http://127.0.0.1:1/media/x.png");
    let hour = 3_600_000;
    // Saved an hour ago: the page comes back with its engine data, the
    // document too.
    let (_, keys) = c.lookup(&r.url, &r.options, now).await;
    let saved = c
        .save(
            &r.url,
            &r.options,
            &keys,
            Some(&with_shot),
            Some(&shot_doc),
            now - hour,
        )
        .await;
    assert_eq!(
        saved,
        Saved {
            page: true,
            result: true
        }
    );
    let Lookup::Document(stored, _) = c.lookup(&r.url, &r.options, now).await.0 else {
        panic!("stored document expected");
    };
    assert_eq!(
        stored.to_value().unwrap()["screenshot"],
        json!("http://127.0.0.1:1/media/x.png")
    );
    let other = req(json!({"url": "https://example.com/shot", "formats": ["html", "screenshot"]}));
    match c.lookup(&other.url, &other.options, now).await.0 {
        Lookup::Page(p, _) => assert_eq!(
            p.engine_data["screenshot"],
            json!("http://127.0.0.1:1/media/x.png")
        ),
        l => panic!("stored page expected, got {l:?}"),
    }
    // Saved 23 h 55 min ago (a default maxAge of 2 days would accept it):
    // past the media's lifetime less the margin, so neither entry is served.
    let r2 = req(json!({"url": "https://example.com/shot2", "formats": ["markdown", "screenshot"]}));
    let (_, keys) = c.lookup(&r2.url, &r2.options, now).await;
    c.save(
        &r2.url,
        &r2.options,
        &keys,
        Some(&with_shot),
        Some(&shot_doc),
        now - 24 * hour + 300_000,
    )
    .await;
    assert!(matches!(
        c.lookup(&r2.url, &r2.options, now).await.0,
        Lookup::Fetch(_)
    ));
    // Without media, the same age is served.
    let r3 = req(json!({"url": "https://example.com/plain"}));
    let (_, keys) = c.lookup(&r3.url, &r3.options, now).await;
    c.save(
        &r3.url,
        &r3.options,
        &keys,
        Some(&page()),
        Some(&doc()),
        now - 24 * hour + 300_000,
    )
    .await;
    assert!(matches!(
        c.lookup(&r3.url, &r3.options, now).await.0,
        Lookup::Document(..)
    ));
    let _ = std::fs::remove_dir_all(dir);
}
