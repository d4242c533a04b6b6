//! The browser's own requests under `blockAds` and the target guard, seen
//! from the fixtures that would receive them. A page on 127.0.0.1
//! (`browser/subresources.html`) asks another origin for an image, a fetch
//! and an iframe; each test has a control in which the same request does
//! arrive, so a test that passed because nothing was ever requested fails.
//!
//! - Ad hosts: Chromium resolves `*.doubleclick.net` (on the shipped list) to
//!   127.0.0.1 through `DISTILL_CHROMIUM_ARGS=--host-resolver-rules=...`;
//!   every other name fails to resolve, so nothing can leave the machine.
//! - Private subresources: private targets are refused but
//!   `DISTILL_ALLOW_TARGET_CIDRS=127.0.0.1/32` lets the page itself through;
//!   the subresources are on 127.0.0.2 ([`other_site`]).

use distill_e2e::{FixtureSite, Reply, ServerOptions, TestServer, other_site, scrape, site};
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The ad host the page asks; `doubleclick.net` is on the shipped list.
const AD_HOST: &str = "pixel.ads.doubleclick.net";

fn ads_server() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        TestServer::start(ServerOptions::default().env(
            "DISTILL_CHROMIUM_ARGS",
            "--host-resolver-rules='MAP *.doubleclick.net 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'",
        ))
    })
}

/// Private targets refused except `allowed`.
fn guarded(allowed: &str) -> TestServer {
    TestServer::start(
        ServerOptions {
            allow_private_targets: Some(false),
            ..ServerOptions::default()
        }
        .env("DISTILL_ALLOW_TARGET_CIDRS", allowed),
    )
}

fn only_first_loopback() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| guarded("127.0.0.1/32"))
}

fn both_loopbacks() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| guarded("127.0.0.1/32, 127.0.0.2"))
}

/// Scrapes the subresource page with the browser (the wait action), its
/// subresources asked from `from`, and waits until all three settled.
async fn scrape_page(server: &TestServer, from: &str, token: &str, extra: Value) -> Reply {
    let mut body = json!({
        "url": site().url(&format!("/browser/subresources.html?from={from}&token={token}")),
        "formats": ["markdown"],
        "actions": [{"type": "wait", "selector": "#done"}],
    });
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let r = scrape(server.url(), &body).await;
    r.assert_ok();
    assert_eq!(r.metadata()["engineUsed"], "browser", "{}", r.pretty());
    assert!(r.markdown().contains("ALL SETTLED"), "{}", r.pretty());
    r
}

/// Requests each kind of subresource made to `fixture`.
fn hits(fixture: &FixtureSite, token: &str) -> [u64; 3] {
    ["img", "fetch", "frame"].map(|kind| fixture.hits(&format!("{token}-{kind}")))
}

#[tokio::test]
async fn ad_hosts_are_requested_without_block_ads_and_refused_with_it() {
    let from = format!("http://{AD_HOST}:{}", site().port());

    // Control: with blockAds off the fixture gets all three requests.
    let token = "ads-off";
    let r = scrape_page(ads_server(), &from, token, json!({ "blockAds": false })).await;
    assert!(r.markdown().contains("FETCH answered"), "{}", r.pretty());
    assert!(
        hits(site(), token).iter().all(|&n| n >= 1),
        "the ad requests did not arrive: {:?}",
        hits(site(), token)
    );

    // blockAds is on by default: none leaves Chromium, the scrape succeeds.
    let token = "ads-default";
    let r = scrape_page(ads_server(), &from, token, json!({})).await;
    assert!(r.markdown().contains("FETCH refused"), "{}", r.pretty());
    assert_eq!(hits(site(), token), [0, 0, 0], "an ad request got through");
}

#[tokio::test]
async fn private_subresources_are_refused_unless_their_range_is_allowed() {
    let from = other_site().base();

    let token = "private-refused";
    let r = scrape_page(only_first_loopback(), &from, token, json!({})).await;
    assert!(r.markdown().contains("FETCH refused"), "{}", r.pretty());
    assert_eq!(
        hits(other_site(), token),
        [0, 0, 0],
        "Chromium reached 127.0.0.2, which the guard refuses"
    );

    // Control: with 127.0.0.2 allowed too, the same page reaches it.
    let token = "private-allowed";
    let r = scrape_page(both_loopbacks(), &from, token, json!({})).await;
    assert!(r.markdown().contains("FETCH answered"), "{}", r.pretty());
    assert!(
        hits(other_site(), token).iter().all(|&n| n >= 1),
        "the allowed requests did not arrive: {:?}",
        hits(other_site(), token)
    );
}

#[tokio::test]
async fn a_first_url_outside_the_allowed_ranges_is_refused_by_both_engines() {
    for (token, extra) in [
        ("first-http", json!({})),
        (
            "first-browser",
            json!({ "actions": [{"type": "wait", "milliseconds": 10}] }),
        ),
    ] {
        let mut body = json!({ "url": other_site().url(&format!("/hits/{token}")) });
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let r = scrape(only_first_loopback().url(), &body).await;
        r.assert_error(403, "SCRAPE_TARGET_BLOCKED");
        assert!(
            r.error().contains("127.0.0.2") && r.error().contains("loopback"),
            "{token}: {}",
            r.pretty()
        );
        assert_eq!(
            other_site().hits(token),
            0,
            "{token}: the refused target was contacted"
        );
    }
    // The allowed range is fetched by the HTTP engine too.
    let r = scrape(
        only_first_loopback().url(),
        &json!({ "url": site().url("/hits/first-allowed") }),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.metadata()["engineUsed"], "http", "{}", r.pretty());
    assert_eq!(site().hits("first-allowed"), 1);
}
