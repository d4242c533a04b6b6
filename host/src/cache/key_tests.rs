//! Key stability and sensitivity, over requests parsed by the real validator.

use super::*;
use crate::api::ScrapeRequest;
use serde_json::json;

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
    let r = req(json!({}));
    let base = keys(&r.url, &r.options);
    assert_eq!(keys_for(&r.url, &r.options, ""), base);
    let a = keys_for(&r.url, &r.options, "sha-a,sha-b");
    let b = keys_for(&r.url, &r.options, "sha-a,sha-c");
    assert_eq!(a.page, base.page);
    assert_eq!(b.page, base.page);
    assert_ne!(a.result, base.result);
    assert_ne!(a.result, b.result);
    assert!(a.result.starts_with("result:"));
    assert_eq!(keys_for(&r.url, &r.options, "sha-a,sha-b"), a);
}

/// The page key's inputs as a JSON value: what [`page_text`] writes.
fn page_inputs(url: &Url, opts: &ScrapeOptions) -> Value {
    let headers = sorted_headers(opts);
    let fetch_formats: Vec<Value> = opts
        .formats
        .iter()
        .filter(|f| FETCH_TIME_FORMATS.contains(&f.name.as_str()))
        .map(|f| json!([f.name, Value::Object(f.options.clone())]))
        .collect();
    json!({
        "v": KEY_VERSION,
        "url": normalize_url(url),
        "headers": headers,
        "waitFor": opts.wait_for_ms,
        "mobile": opts.mobile,
        "location": opts.location.as_ref().map(|l| json!([l.country, l.languages])),
        "blockAds": opts.block_ads,
        "skipTlsVerification": opts.skip_tls_verification,
        "proxy": opts.proxy,
        "actions": opts.actions,
        "fetchFormats": fetch_formats,
    })
}

/// The result key's inputs as a JSON value: what [`result_text`] writes.
fn result_inputs(page_key: &str, opts: &ScrapeOptions, renderers: &str) -> Value {
    let mut formats: Vec<(&str, &Map<String, Value>)> = opts
        .formats
        .iter()
        .map(|f| (f.name.as_str(), &f.options))
        .collect();
    formats.sort_by_key(|(name, _)| *name);
    let formats: Vec<Value> = formats
        .into_iter()
        .map(|(name, options)| json!([name, Value::Object(options.clone())]))
        .collect();
    json!({
        "page": page_key,
        "formats": formats,
        "onlyMainContent": opts.only_main_content,
        "includeTags": opts.include_tags,
        "excludeTags": opts.exclude_tags,
        "removeBase64Images": opts.remove_base64_images,
        "parsers": crate::api::scrape_request::parsers_json(&opts.parsers),
        "onlyCleanContent": opts.only_clean_content,
        "redactPII": opts.redact_pii,
        "threatProtection": opts.threat_protection,
        "renderers": renderers,
    })
}

#[test]
fn keys_digest_the_canonical_text_of_their_inputs() {
    // The key text is written field by field; it must be the canonical
    // serialisation (keys sorted, no spaces) of the inputs as a JSON value.
    let canonical_text = |v: &Value| serde_json::to_string(&canonical(v)).unwrap();
    let sha = |text: &str| hex::encode(Sha256::digest(text.as_bytes()));
    for extra in [
        json!({}),
        json!({"formats": ["markdown", {"type": "json", "prompt": "p", "schema": {"b": 2, "a": 1}}]}),
        json!({"headers": {"X-A": "1", "b": "q\"x"}, "location": {"country": "DE", "languages": ["de"]},
               "actions": [{"type": "wait", "milliseconds": 5}]}),
        json!({"formats": [{"type": "screenshot", "viewport": {"width": 800, "height": 600}}, "markdown", "branding"]}),
        json!({"parsers": [{"type": "pdf", "maxPages": 2}], "includeTags": ["b", "a"], "excludeTags": ["nav"]}),
        json!({"parsers": [], "redactPII": true, "onlyCleanContent": true, "onlyMainContent": false}),
        json!({"url": "https://EXAMPLE.com:443/a%7eb?q=1#frag", "mobile": true, "waitFor": 250, "proxy": "basic"}),
        json!({"url": "https://app.example/#/inbox", "blockAds": false, "skipTlsVerification": false}),
    ] {
        let r = req(extra.clone());
        for renderers in ["", "0123abcd"] {
            let k = keys_for(&r.url, &r.options, renderers);
            let mut text = Vec::new();
            page_text(&mut text, &r.url, &r.options);
            let page = canonical_text(&page_inputs(&r.url, &r.options));
            assert_eq!(String::from_utf8(text).unwrap(), page, "{extra}");
            assert_eq!(k.page, format!("page:{}", sha(&page)), "{extra}");
            let mut text = Vec::new();
            result_text(&mut text, &k.page, &r.options, renderers);
            let result = canonical_text(&result_inputs(&k.page, &r.options, renderers));
            assert_eq!(String::from_utf8(text).unwrap(), result, "{extra}");
            assert_eq!(k.result, format!("result:{}", sha(&result)), "{extra}");
        }
    }
    // Values the validator would not pass but the text must still get
    // right: nested objects in actions, escapes, non-ASCII.
    let mut r = req(json!({}));
    r.options.actions =
        vec![json!({"type": "x", "b": {"z": 1, "y": [2.5, -3, null, {"d": "\u{e9}\"\n", "c": {}}]}})];
    r.options.headers = vec![("X-\u{e9}".into(), "\u{1}\\".into())];
    let mut text = Vec::new();
    page_text(&mut text, &r.url, &r.options);
    assert_eq!(
        String::from_utf8(text).unwrap(),
        canonical_text(&page_inputs(&r.url, &r.options))
    );
    // Parsers with fields of their own: written as `parsers_json` has them.
    let mut r = req(json!({"parsers": [{"type": "pdf", "maxPages": 2}]}));
    let extra: Map<String, Value> = serde_json::from_value(json!({"z": {"b": 1, "a": 2}, "a": "x"})).unwrap();
    r.options.parsers[0].extra = extra;
    let mut text = Vec::new();
    result_text(&mut text, "page:x", &r.options, "");
    assert_eq!(
        String::from_utf8(text).unwrap(),
        canonical_text(&result_inputs("page:x", &r.options, ""))
    );
}

#[test]
fn keys_are_the_same_in_every_process() {
    // A fixed request's keys, as computed when KEY_VERSION 2 was made: a
    // change here would make every stored entry miss after an upgrade, so
    // it must come with a KEY_VERSION bump (and a new value here). Checked
    // outside Rust: sha256 of Python's `json.dumps(d, separators=(",", ":"),
    // sort_keys=True)` of the description (defaults: proxy auto, TLS
    // verification skipped, the pdf parser in auto mode) gives the same.
    let r = req(json!({"formats": ["markdown"], "headers": {"Accept-Language": "de"}}));
    let k = keys_for(&r.url, &r.options, "");
    assert_eq!(
        k.page,
        "page:c4289d18fa33463ae74d25f807d123e4554405f902de52613e9a0f4585e4ba20"
    );
    assert_eq!(
        k.result,
        "result:a1c24319370dad0cbc484f2de16f5f3f793c8823a5ae412dd7d0ce97c5a906a2"
    );
}
