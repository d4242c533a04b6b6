//! The browser fallback: a page the HTTP engine fetched that looks
//! script-rendered is fetched again with the browser (on by default;
//! `DISTILL_BROWSER_FALLBACK=false` turns it off), with no browser-only
//! option in the request; a static page never is. `metadata.engineUsed`
//! names the engine that served a page and `metadata.engineFallback` why the
//! browser took over; the fixture's hit counts prove how often each page was
//! fetched.

use distill_e2e::fixture::SHELL_CONTENT;
use distill_e2e::{ServerOptions, TestServer, scrape, site};
use serde_json::json;
use std::sync::OnceLock;

fn server() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| TestServer::start(ServerOptions::default()))
}

/// A token no other test uses, so the hit counts are this test's.
fn token(name: &str) -> String {
    format!("fallback-{name}-{}", std::process::id())
}

#[tokio::test]
async fn a_script_rendered_page_is_fetched_again_with_the_browser() {
    let tok = token("shell");
    let url = site().url(&format!("/hits/{tok}?page=shell"));
    let r = scrape(server().url(), &json!({ "url": url, "formats": ["markdown"] })).await;
    r.assert_ok();
    assert!(r.markdown().contains(SHELL_CONTENT), "{}", r.pretty());
    let m = r.metadata();
    assert_eq!(m["engineUsed"], json!("browser"), "{}", r.pretty());
    assert_eq!(m["engineFallback"], json!("appShell"), "{}", r.pretty());
    assert_eq!(m["creditsUsed"], json!(1), "one scrape, one credit");
    assert_eq!(m["statusCode"], json!(200));
    assert!(r.data()["warning"].is_null(), "{}", r.pretty());
    assert_eq!(site().hits(&tok), 2, "the HTTP engine's fetch and the browser's");

    // The stored result is the browser's: a hit serves it, fetching nothing.
    let again = scrape(server().url(), &json!({ "url": url, "formats": ["markdown"] })).await;
    again.assert_ok();
    assert_eq!(again.metadata()["cacheState"], json!("hit"), "{}", again.pretty());
    assert!(again.markdown().contains(SHELL_CONTENT), "{}", again.pretty());
    assert_eq!(again.metadata()["engineUsed"], json!("browser"));
    assert_eq!(again.metadata()["engineFallback"], json!("appShell"));
    assert_eq!(site().hits(&tok), 2);

    // Another format of the same page: the stored page is rendered again.
    let html = scrape(server().url(), &json!({ "url": url, "formats": ["html"] })).await;
    html.assert_ok();
    assert!(
        html.data()["html"].as_str().unwrap().contains(SHELL_CONTENT),
        "{}",
        html.pretty()
    );
    assert_eq!(html.metadata()["engineUsed"], json!("browser"));
    assert_eq!(site().hits(&tok), 2);
}

#[tokio::test]
async fn a_static_page_is_never_fetched_again() {
    for page in ["scripted", "plain"] {
        let tok = token(page);
        let url = site().url(&format!("/hits/{tok}?page={page}"));
        let r = scrape(
            server().url(),
            &json!({ "url": url, "formats": ["markdown"], "maxAge": 0 }),
        )
        .await;
        r.assert_ok();
        assert!(r.markdown().contains(&format!("Hit {tok}")), "{}", r.pretty());
        assert_eq!(r.metadata()["engineUsed"], json!("http"), "{}", r.pretty());
        assert!(r.metadata()["engineFallback"].is_null(), "{}", r.pretty());
        assert_eq!(site().hits(&tok), 1, "{page}: fetched once");
    }
}

#[tokio::test]
async fn browser_only_options_name_the_browser_without_a_fallback() {
    let r = scrape(
        server().url(),
        &json!({ "url": site().url("/article.html"), "formats": ["markdown"], "waitFor": 50 }),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.metadata()["engineUsed"], json!("browser"), "{}", r.pretty());
    assert!(r.metadata()["engineFallback"].is_null(), "{}", r.pretty());
}

#[tokio::test]
async fn lockdown_never_fetches_a_script_rendered_page() {
    let tok = token("lockdown");
    let url = site().url(&format!("/hits/{tok}?page=shell"));
    let r = scrape(server().url(), &json!({ "url": url, "lockdown": true })).await;
    r.assert_error(404, "SCRAPE_LOCKDOWN_CACHE_MISS");
    assert_eq!(site().hits(&tok), 0);
}

#[tokio::test]
async fn with_the_fallback_off_the_http_result_stands() {
    let off = TestServer::start(ServerOptions::default().env("DISTILL_BROWSER_FALLBACK", "false"));
    let tok = token("off");
    let url = site().url(&format!("/hits/{tok}?page=shell"));
    let r = scrape(off.url(), &json!({ "url": url, "formats": ["markdown"] })).await;
    r.assert_ok();
    assert!(!r.markdown().contains(SHELL_CONTENT), "{}", r.pretty());
    assert_eq!(r.metadata()["engineUsed"], json!("http"), "{}", r.pretty());
    assert!(r.metadata()["engineFallback"].is_null(), "{}", r.pretty());
    assert!(r.data()["warning"].is_null(), "{}", r.pretty());
    assert_eq!(site().hits(&tok), 1);

    // The browser fixture rendered by a timer: the same with the fallback off.
    let js = site().url("/browser/js-rendered.html");
    let r = scrape(off.url(), &json!({ "url": js, "formats": ["markdown"] })).await;
    r.assert_ok();
    assert!(!r.markdown().contains("JSRENDERED-7731"), "{}", r.pretty());
}
