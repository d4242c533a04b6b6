//! Key stability and sensitivity, over requests parsed by the real validator.

use super::*;
use crate::api::ScrapeRequest;

fn req(extra: Value) -> ScrapeRequest {
    let mut body = json!({"url": "https://example.com/a"});
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    ScrapeRequest::from_json(&body, &|_: &str| false).unwrap_or_else(|e| panic!("{body}: {e:?}"))
}

fn keys_of(extra: Value) -> CacheKeys {
    let r = req(extra);
    keys(&r.url, &r.options)
}

#[test]
fn same_request_same_keys_whatever_the_order() {
    let a = keys_of(
        json!({"formats": ["markdown", "html", {"type": "json", "prompt": "p", "schema": {"a": 1, "b": 2}}]}),
    );
    let b = keys_of(
        json!({"formats": [{"type": "json", "schema": {"b": 2, "a": 1}, "prompt": "p"}, "html", "markdown"]}),
    );
    assert_eq!(a, b);
    assert!(a.page.starts_with("page:") && a.result.starts_with("result:"));
    assert_eq!(a.page.len(), "page:".len() + 64);
    // Header order and name case do not matter either.
    assert_eq!(
        keys_of(json!({"headers": {"X-A": "1", "Accept-Language": "de"}})),
        keys_of(json!({"headers": {"accept-language": "de", "x-a": "1"}}))
    );
}

#[test]
fn fetch_options_change_both_keys() {
    let base = keys_of(json!({}));
    for extra in [
        json!({"headers": {"Accept-Language": "de"}}),
        json!({"waitFor": 1000}),
        json!({"mobile": true}),
        json!({"location": {"country": "DE"}}),
        json!({"location": {"country": "US", "languages": ["en-US"]}}),
        json!({"blockAds": false}),
        json!({"skipTlsVerification": false}),
        json!({"proxy": "basic"}),
        json!({"formats": ["markdown", "screenshot"]}),
        json!({"formats": ["markdown", {"type": "screenshot", "fullPage": true}]}),
        json!({"formats": ["markdown", {"type": "screenshot", "viewport": {"width": 800, "height": 600}}]}),
        json!({"actions": [{"type": "wait", "milliseconds": 100}]}),
        json!({"url": "https://example.com/a?x=1"}),
        json!({"url": "http://example.com/a"}),
        json!({"url": "https://example.com/a/"}),
    ] {
        let k = keys_of(extra.clone());
        assert_ne!(k.page, base.page, "{extra} should change the page key");
        assert_ne!(k.result, base.result, "{extra} should change the result key");
    }
}

#[test]
fn rendering_options_change_only_the_result_key() {
    let base = keys_of(json!({}));
    for extra in [
        json!({"formats": ["markdown", "html"]}),
        json!({"formats": ["html"]}),
        json!({"formats": ["markdown", {"type": "json", "prompt": "a"}]}),
        json!({"formats": ["markdown", {"type": "changeTracking", "tag": "t"}]}),
        json!({"onlyMainContent": false}),
        json!({"includeTags": ["main"]}),
        json!({"excludeTags": ["nav"]}),
        json!({"removeBase64Images": false}),
        json!({"parsers": []}),
        json!({"parsers": [{"type": "pdf", "maxPages": 2}]}),
        json!({"onlyCleanContent": true}),
        json!({"redactPII": true}),
    ] {
        let k = keys_of(extra.clone());
        assert_eq!(k.page, base.page, "{extra} should keep the page key");
        assert_ne!(k.result, base.result, "{extra} should change the result key");
    }
    // includeTags order is output order, so it matters.
    assert_ne!(
        keys_of(json!({"includeTags": ["a", "b"]})).result,
        keys_of(json!({"includeTags": ["b", "a"]})).result
    );
}

#[test]
fn options_that_do_not_change_the_result_keep_both_keys() {
    let base = keys_of(json!({}));
    for extra in [
        json!({"timeout": 30000}),
        json!({"maxAge": 0}),
        json!({"minAge": 1}),
        json!({"storeInCache": false}),
        json!({"zeroDataRetention": true}),
        json!({"origin": "python-sdk@4.55.0"}),
        json!({"integration": "x"}),
        json!({"fastMode": true}),
        json!({"url": "https://EXAMPLE.com:443/a#section"}),
        json!({"url": "https://example.com/a?"}),
    ] {
        assert_eq!(keys_of(extra.clone()), base, "{extra} should not change the keys");
    }
}

#[test]
fn normalisation() {
    let u = |s: &str| normalize_url(&Url::parse(s).unwrap());
    assert_eq!(
        u("HTTPS://Example.COM:443/a%7eb?q=1#frag"),
        "https://example.com/a%7eb?q=1"
    );
    assert_eq!(u("http://example.com"), "http://example.com/");
    assert_eq!(u("http://example.com:8080/?"), "http://example.com:8080/");
    assert_eq!(u("http://example.com/?b=2&a=1"), "http://example.com/?b=2&a=1");
    // Client-side routes are kept (a browser renders them); other fragments go.
    assert_eq!(u("https://app.example/#/inbox"), "https://app.example/#/inbox");
    assert_eq!(u("https://app.example/#!/inbox"), "https://app.example/#!/inbox");
    assert_eq!(u("https://app.example/#/"), "https://app.example/");
    assert_eq!(u("https://app.example/#top"), "https://app.example/");
}

#[test]
fn privacy_rules_force_store_off() {
    let decide = |extra: Value| {
        let r = req(extra);
        cacheable(&r.url, &r.options)
    };
    let open = decide(json!({}));
    assert_eq!(
        open,
        StoreDecision {
            page: true,
            result: true,
            reason: None
        }
    );
    for (extra, why) in [
        (json!({"zeroDataRetention": true}), NoStore::ZeroDataRetention),
        (json!({"lockdown": true}), NoStore::Lockdown),
        (json!({"storeInCache": false}), NoStore::StoreInCacheFalse),
        (
            json!({"actions": [{"type": "wait", "milliseconds": 10}]}),
            NoStore::Actions,
        ),
        (json!({"headers": {"Cookie": "a=b"}}), NoStore::PrivateHeaders),
        (
            json!({"headers": {"authorization": "Bearer x"}}),
            NoStore::PrivateHeaders,
        ),
        (json!({"headers": {"X-Api-Key": "k"}}), NoStore::PrivateHeaders),
        (json!({"headers": {"X-Auth-Token": "k"}}), NoStore::PrivateHeaders),
        (json!({"profile": {"name": "me"}}), NoStore::Profile),
        (
            json!({"url": "https://u:p@example.com/"}),
            NoStore::UrlCredentials,
        ),
    ] {
        let d = decide(extra.clone());
        assert!(!d.page && !d.result, "{extra}");
        assert_eq!(d.reason, Some(why), "{extra}");
    }
    // Harmless headers keep the cache (they are part of the key instead).
    assert!(decide(json!({"headers": {"Accept-Language": "de", "User-Agent": "x"}})).page);
    // changeTracking: the page may be stored, the stateful result not.
    let ct = decide(json!({"formats": ["markdown", "changeTracking"]}));
    assert!(ct.page && !ct.result && ct.reason.is_none());
}

#[test]
fn renderers_change_only_the_result_key() {
    let base = keys_of(json!({}));
    assert_eq!(with_renderers(base.clone(), ""), base);
    let a = with_renderers(base.clone(), "sha-a,sha-b");
    let b = with_renderers(base.clone(), "sha-a,sha-c");
    assert_eq!(a.page, base.page);
    assert_ne!(a.result, base.result);
    assert_ne!(a.result, b.result);
    assert!(a.result.starts_with("result:"));
    assert_eq!(with_renderers(base, "sha-a,sha-b"), a);
}

#[test]
fn keys_digest_the_canonical_text_as_before() {
    // The digest is taken over the sorted text without building the sorted
    // copy; it must stay the digest of that copy, or every stored entry
    // would miss after an upgrade.
    let reference = |v: &Value| {
        let text = serde_json::to_string(&canonical(v)).unwrap();
        hex::encode(Sha256::digest(text.as_bytes()))
    };
    let values = [
        json!({"b": 1, "a": [{"z": null, "y": "\u{e9}\"\n"}, 2.5, -3], "c": {}}),
        json!([{"b": {"d": 1, "c": 2}}, [], "x"]),
        json!("plain"),
        json!({"é": 1, "e": 2, "E": 3, "": 4}),
    ];
    for v in &values {
        assert_eq!(digest(v), reference(v), "{v}");
    }
    for extra in [
        json!({}),
        json!({"formats": ["markdown", {"type": "json", "prompt": "p", "schema": {"b": 2, "a": 1}}]}),
        json!({"headers": {"X-A": "1"}, "location": {"country": "DE"}, "actions": [{"type": "wait", "milliseconds": 5}]}),
    ] {
        let r = req(extra.clone());
        let inputs = page_inputs(&r.url, &r.options);
        assert_eq!(
            keys(&r.url, &r.options).page,
            format!("page:{}", reference(&inputs)),
            "{extra}"
        );
    }
}
