//! Validation of scrape bodies: defaults, bounds, unknown keys, URL rules.

use super::*;

fn parse(body: Value) -> Result<ScrapeRequest, ApiError> {
    ScrapeRequest::from_json(&body, &|name: &str| name == "reading-time")
}

fn details(err: &ApiError) -> &Vec<Value> {
    err.details.as_ref().and_then(Value::as_array).expect("details")
}

#[test]
fn defaults() {
    let r = parse(json!({"url": "https://example.com"})).unwrap();
    let o = &r.options;
    assert_eq!(o.formats, vec![FormatRequest::named("markdown")]);
    assert!(o.only_main_content && o.skip_tls_verification && o.remove_base64_images && o.block_ads);
    assert_eq!(o.timeout_ms, 60_000);
    assert_eq!(o.wait_for_ms, 0);
    assert_eq!(o.max_age_ms, DEFAULT_MAX_AGE_MS);
    assert_eq!(o.proxy, "auto");
    assert_eq!(o.parsers.len(), 1);
}

#[test]
fn scheme_is_added_and_other_schemes_refused() {
    let r = parse(json!({"url": "example.com/a?b=1"})).unwrap();
    assert_eq!(r.url.as_str(), "http://example.com/a?b=1");
    assert_eq!(r.url_as_sent, "example.com/a?b=1");
    let r = parse(json!({"url": "localhost:8080/x"})).unwrap();
    assert_eq!(r.url.as_str(), "http://localhost:8080/x");
    let e = parse(json!({"url": "ftp://example.com"})).unwrap_err();
    assert_eq!(e.message, "URL uses unsupported protocol");
    let e = parse(json!({"url": "file:///etc/passwd"})).unwrap_err();
    assert_eq!(e.message, "URL uses unsupported protocol");
}

#[test]
fn unknown_keys_rejected_but_sdk_keys_accepted() {
    parse(json!({"url": "https://a.b", "origin": "python-sdk@4.55.0", "integration": "x"})).unwrap();
    let e = parse(json!({"url": "https://a.b", "bogus": 1})).unwrap_err();
    assert_eq!(e.code, "BAD_REQUEST");
    assert_eq!(details(&e)[0]["code"], "unrecognized_keys");
    assert_eq!(details(&e)[0]["keys"], json!(["bogus"]));
}

#[test]
fn bounds_and_types() {
    let e = parse(json!({"url": "https://a.b", "timeout": 999})).unwrap_err();
    assert_eq!(details(&e)[0]["code"], "too_small");
    assert_eq!(details(&e)[0]["path"], json!(["timeout"]));
    let e = parse(json!({"url": "https://a.b", "timeout": 300001})).unwrap_err();
    assert_eq!(details(&e)[0]["code"], "too_big");
    let e = parse(json!({"url": "https://a.b", "onlyMainContent": "yes"})).unwrap_err();
    assert_eq!(details(&e)[0]["code"], "invalid_type");
    let e = parse(json!({"url": "https://a.b", "waitFor": 4000, "timeout": 5000})).unwrap_err();
    assert_eq!(e.message, "waitFor must not exceed half of timeout");
    parse(json!({"url": "https://a.b", "waitFor": 40000})).unwrap();
    let r = parse(json!({"url": "https://a.b", "proxy": "stealth", "fastMode": true})).unwrap();
    assert_eq!(r.options.proxy, "enhanced");
    let e = parse(json!({"url": "https://a.b", "proxy": "stealthy"})).unwrap_err();
    assert_eq!(details(&e)[0]["code"], "invalid_enum_value");
    let e = parse(json!({})).unwrap_err();
    assert_eq!(details(&e)[0]["message"], "Required");
    let e = parse(json!([1])).unwrap_err();
    assert_eq!(details(&e)[0]["code"], "invalid_type");
}

#[test]
fn formats() {
    let r = parse(json!({"url": "https://a.b", "formats": ["html", {"type": "links"}, {"type": "reading-time", "wpm": 200}]})).unwrap();
    let names: Vec<_> = r.options.formats.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["html", "links", "reading-time"]);
    assert_eq!(r.options.formats[2].options["wpm"], 200);
    let e = parse(json!({"url": "https://a.b", "formats": ["markdwon"]})).unwrap_err();
    assert!(details(&e)[0]["message"].as_str().unwrap().contains("markdwon"));
    let e = parse(json!({"url": "https://a.b", "formats": [{"type": "html", "extra": true}]})).unwrap_err();
    assert_eq!(details(&e)[0]["code"], "unrecognized_keys");
    let e = parse(json!({"url": "https://a.b", "formats": ["changeTracking"]})).unwrap_err();
    assert_eq!(
        e.message,
        "The changeTracking format requires the markdown format to be specified as well"
    );
    let e = parse(json!({"url": "https://a.b", "formats": [{"type": "screenshot", "quality": 101}]}))
        .unwrap_err();
    assert_eq!(details(&e)[0]["code"], "too_big");
}

#[test]
fn actions_and_parsers() {
    let r = parse(json!({"url": "https://a.b", "actions": [{"type": "wait", "milliseconds": 500}, {"type": "click", "selector": "#b"}]})).unwrap();
    assert_eq!(r.options.actions.len(), 2);
    let e = parse(json!({"url": "https://a.b", "actions": [{"type": "wait"}]})).unwrap_err();
    assert_eq!(details(&e)[0]["code"], "custom");
    let e = parse(json!({"url": "https://a.b", "actions": [{"type": "fly"}]})).unwrap_err();
    assert_eq!(details(&e)[0]["code"], "invalid_enum_value");
    let e = parse(json!({"url": "https://a.b", "actions": [{"type": "wait", "milliseconds": 61000}]}))
        .unwrap_err();
    assert!(e.message.contains("60 seconds"));
    let r = parse(
        json!({"url": "https://a.b", "parsers": ["pdf", {"type": "pdf", "maxPages": 3, "mode": "fast"}]}),
    )
    .unwrap();
    assert_eq!(
        r.options.parsers[1],
        ParserSpec {
            kind: "pdf".into(),
            max_pages: Some(3),
            mode: "fast".into(),
            extra: Default::default(),
        }
    );
    let r = parse(json!({"url": "https://a.b", "parsers": []})).unwrap();
    assert!(r.options.parsers.is_empty());
    let e = parse(json!({"url": "https://a.b", "parsers": [{"type": "pdf", "maxPages": 0}]})).unwrap_err();
    assert_eq!(details(&e)[0]["code"], "too_small");
}

#[test]
fn nested_objects() {
    let e = parse(json!({"url": "https://a.b", "location": {"country": "usa"}})).unwrap_err();
    assert_eq!(details(&e)[0]["path"], json!(["location", "country"]));
    let e = parse(json!({"url": "https://a.b", "profile": {"name": ""}})).unwrap_err();
    assert_eq!(details(&e)[0]["code"], "too_small");
    let e =
        parse(json!({"url": "https://a.b", "auditMetadata": {"username": "x", "role": "y"}})).unwrap_err();
    assert_eq!(details(&e)[0]["code"], "unrecognized_keys");
    let r = parse(json!({"url": "https://a.b", "lockdown": true})).unwrap();
    assert_eq!(r.options.max_age_ms, LOCKDOWN_MAX_AGE_MS);
    let e = parse(json!({"url": "https://a.b", "headers": {"X-A": 1}})).unwrap_err();
    assert_eq!(details(&e)[0]["path"], json!(["headers", "X-A"]));
}
