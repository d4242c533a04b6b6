//! maxAge / minAge / lockdown decisions over requests parsed by the real validator.

use super::*;
use crate::api::ScrapeRequest;
use serde_json::json;

const NOW: i64 = 1_764_043_272_123;
const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

fn plan_of(extra: Value) -> Plan {
    let mut body = json!({"url": "https://example.com/"});
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let r = ScrapeRequest::from_json(&body, &|_: &str| false).unwrap_or_else(|e| panic!("{body}: {e:?}"));
    plan(&r.options, &r.url)
}

#[test]
fn max_age_defaults_to_two_days() {
    let p = plan_of(json!({}));
    assert!(p.consult);
    assert_eq!(p.max_age_ms, 2 * DAY);
    assert_eq!(
        decide(&p, Some(NOW - HOUR), NOW),
        Decision::Serve {
            stored_at_ms: NOW - HOUR
        }
    );
    assert_eq!(
        decide(&p, Some(NOW - 2 * DAY), NOW),
        Decision::Serve {
            stored_at_ms: NOW - 2 * DAY
        }
    );
    let miss = Decision::Fetch {
        cache_state: Some(CacheState::Miss),
    };
    assert_eq!(decide(&p, Some(NOW - 2 * DAY - 1), NOW), miss);
    assert_eq!(decide(&p, None, NOW), miss);
    // A clock that went backwards: the entry counts as brand new.
    assert_eq!(
        decide(&p, Some(NOW + 5), NOW),
        Decision::Serve {
            stored_at_ms: NOW + 5
        }
    );
}

#[test]
fn max_age_zero_skips_the_cache_and_small_max_age_misses() {
    let p = plan_of(json!({"maxAge": 0}));
    assert!(!p.consult);
    let fresh = Decision::Fetch { cache_state: None };
    assert_eq!(before_lookup(&p), Some(fresh));
    assert_eq!(decide(&p, Some(NOW), NOW), fresh);
    let p = plan_of(json!({"maxAge": 1}));
    assert_eq!(
        decide(&p, Some(NOW - 5), NOW),
        Decision::Fetch {
            cache_state: Some(CacheState::Miss)
        }
    );
}

#[test]
fn min_age_answers_only_from_the_cache() {
    let p = plan_of(json!({"minAge": 60_000}));
    assert_eq!(p.only_cache, OnlyCache::MinAge);
    assert_eq!(decide(&p, None, NOW), Decision::NoCachedData);
    assert_eq!(decide(&p, Some(NOW - 10_000), NOW), Decision::NoCachedData);
    assert_eq!(
        decide(&p, Some(NOW - 120_000), NOW),
        Decision::Serve {
            stored_at_ms: NOW - 120_000
        }
    );
    // Still bounded by maxAge (the index's window is [now-maxAge, now-minAge]).
    assert_eq!(decide(&p, Some(NOW - 3 * DAY), NOW), Decision::NoCachedData);
    let p = plan_of(json!({"minAge": 1, "maxAge": 0}));
    assert!(p.consult, "minAge consults the cache even with maxAge 0");
    assert_eq!(decide(&p, Some(NOW - 10), NOW), Decision::NoCachedData);
    // Options whose results are never cached: no lookup, and still no fetch.
    let p = plan_of(json!({"minAge": 1, "headers": {"Cookie": "a=b"}}));
    assert_eq!(before_lookup(&p), Some(Decision::NoCachedData));
}

#[test]
fn lockdown_never_fetches() {
    let p = plan_of(json!({"lockdown": true}));
    assert_eq!(p.only_cache, OnlyCache::Lockdown);
    assert_eq!(p.max_age_ms, 2 * 365 * DAY);
    assert_eq!(
        decide(&p, Some(NOW - 300 * DAY), NOW),
        Decision::Serve {
            stored_at_ms: NOW - 300 * DAY
        }
    );
    assert_eq!(decide(&p, Some(NOW - 800 * DAY), NOW), Decision::LockdownMiss);
    assert_eq!(decide(&p, None, NOW), Decision::LockdownMiss);
    // Lockdown wins over minAge; ineligible options miss without a lookup.
    let p = plan_of(json!({"lockdown": true, "minAge": 5}));
    assert_eq!(decide(&p, None, NOW), Decision::LockdownMiss);
    let p = plan_of(json!({"lockdown": true, "actions": [{"type": "wait", "milliseconds": 5}]}));
    assert_eq!(before_lookup(&p), Some(Decision::LockdownMiss));
    let p = plan_of(json!({"lockdown": true, "maxAge": 1000}));
    assert_eq!(decide(&p, Some(NOW - 2000), NOW), Decision::LockdownMiss);
}

#[test]
fn stateful_or_private_requests_do_not_consult() {
    for extra in [
        json!({"formats": ["markdown", "changeTracking"]}),
        json!({"actions": [{"type": "wait", "milliseconds": 5}]}),
        json!({"headers": {"Authorization": "Bearer x"}}),
        json!({"profile": {"name": "p"}}),
        json!({"url": "https://a:b@example.com/"}),
    ] {
        let p = plan_of(extra.clone());
        assert_eq!(
            before_lookup(&p),
            Some(Decision::Fetch { cache_state: None }),
            "{extra}"
        );
    }
    assert!(plan_of(json!({"headers": {"Accept-Language": "de"}})).consult);
    assert!(
        plan_of(json!({"storeInCache": false})).consult,
        "storeInCache only stops writes"
    );
}

#[test]
fn logging_is_off_under_zdr_and_lockdown() {
    let opts = |extra: Value| {
        let mut body = json!({"url": "https://example.com/"});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        ScrapeRequest::from_json(&body, &|_: &str| false).unwrap().options
    };
    assert!(may_log_url(&opts(json!({}))));
    assert!(!may_log_url(&opts(json!({"zeroDataRetention": true}))));
    assert!(!may_log_url(&opts(json!({"lockdown": true}))));
}

#[test]
fn annotate_sets_upstream_fields() {
    let mut doc = json!({"markdown": "x", "metadata": {"title": "t"}});
    annotate(&mut doc, &Decision::Serve { stored_at_ms: NOW });
    assert_eq!(doc["metadata"]["cacheState"], "hit");
    assert_eq!(doc["metadata"]["cachedAt"], "2025-11-25T04:01:12.123Z");
    annotate(
        &mut doc,
        &Decision::Fetch {
            cache_state: Some(CacheState::Miss),
        },
    );
    assert_eq!(doc["metadata"]["cacheState"], "miss");
    assert!(doc["metadata"].get("cachedAt").is_none());
    annotate(&mut doc, &Decision::Fetch { cache_state: None });
    assert_eq!(doc["metadata"], json!({"title": "t"}));
}

#[test]
fn iso8601_matches_javascript() {
    assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
    assert_eq!(iso8601(-1), "1969-12-31T23:59:59.999Z");
    assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
    assert_eq!(iso8601(4_107_542_399_999), "2100-02-28T23:59:59.999Z");
}
