//! Failures while fetching: timeouts, redirect loops, DNS failures, refused
//! connections, and the test-fault header being inert by default
//! (compat notes §1.3, §4).

use distill_e2e::{scrape, scrape_with_headers, shared, site};
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn a_slow_page_hits_the_timeout_with_408() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/slow?ms=6000"), "timeout": 1000 }),
    )
    .await;
    r.assert_error(408, "SCRAPE_TIMEOUT");
    assert!(
        r.error()
            .starts_with("The scrape operation timed out before completing"),
        "{}",
        r.pretty()
    );
    assert!(
        r.elapsed >= Duration::from_millis(900) && r.elapsed < Duration::from_millis(3000),
        "the 1000 ms timeout took {:?}",
        r.elapsed
    );
}

#[tokio::test]
async fn a_slow_page_within_the_timeout_succeeds() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/slow?ms=300"), "timeout": 5000 }),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("Answered after 300 ms"), "{}", r.pretty());
}

#[tokio::test]
async fn a_redirect_loop_fails_cleanly() {
    let r = scrape(shared().url(), &json!({ "url": site().url("/redirect-loop/a") })).await;
    r.assert_error(500, "SCRAPE_SITE_ERROR");
    assert!(r.error().to_lowercase().contains("redirect"), "{}", r.pretty());
    assert!(r.elapsed < Duration::from_secs(5), "{:?}", r.elapsed);
}

#[tokio::test]
async fn ten_redirects_are_followed() {
    let r = scrape(shared().url(), &json!({ "url": site().url("/redirect/10") })).await;
    r.assert_ok();
    assert_eq!(r.metadata()["url"], site().url("/article.html"));
    assert_eq!(r.metadata()["sourceURL"], site().url("/redirect/10"));
}

#[tokio::test]
async fn dns_failure_is_http_200_with_success_false() {
    // A 64-character label: glibc refuses to build the query, so resolution
    // fails locally without any packet leaving the machine.
    let host = format!("{}.com", "a".repeat(64));
    let r = scrape(shared().url(), &json!({ "url": format!("http://{host}/page") })).await;
    assert_eq!(r.status, 200, "{}", r.pretty());
    assert_eq!(r.json["success"], false, "{}", r.pretty());
    assert_eq!(r.code(), Some("SCRAPE_DNS_RESOLUTION_ERROR"), "{}", r.pretty());
    assert!(
        r.error()
            .starts_with(&format!("DNS resolution failed for hostname \"{host}\"")),
        "{}",
        r.pretty()
    );
    assert!(r.json.get("data").is_none(), "{}", r.pretty());
}

#[tokio::test]
async fn a_refused_connection_fails_fast_with_a_json_error() {
    // A port that was free a moment ago: nothing listens there.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let r = scrape(
        shared().url(),
        &json!({ "url": format!("http://127.0.0.1:{port}/") }),
    )
    .await;
    r.assert_error(500, "SCRAPE_SITE_ERROR");
    assert!(r.error().contains(&format!("127.0.0.1:{port}")), "{}", r.pretty());
    assert!(r.elapsed < Duration::from_secs(5), "{:?}", r.elapsed);
}

#[tokio::test]
async fn the_fault_header_is_inert_unless_test_faults_are_enabled() {
    let r = scrape_with_headers(
        shared().url(),
        &json!({ "url": site().url("/article.html") }),
        &[("x-distill-fault", "panic")],
    )
    .await;
    r.assert_ok();
}
