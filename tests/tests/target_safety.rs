//! Target safety with private targets refused: loopback in every spelling is
//! answered 403 SCRAPE_TARGET_BLOCKED before any request reaches it. Only
//! loopback addresses and names in /etc/hosts are used, so nothing leaves the
//! machine even if the guard were broken (`localhost.` with a trailing dot is
//! deliberately absent: glibc sends that one to the DNS resolver).

use distill_e2e::{Reply, ServerOptions, TestServer, scrape, site};
use serde_json::json;
use std::sync::OnceLock;

fn guarded() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        TestServer::start(ServerOptions {
            allow_private_targets: Some(false),
            ..ServerOptions::default()
        })
    })
}

fn assert_blocked(r: &Reply, what: &str) {
    r.assert_error(403, "SCRAPE_TARGET_BLOCKED");
    assert!(
        r.error().starts_with("Blocked insecure target URL"),
        "{what}: {}",
        r.pretty()
    );
}

#[tokio::test]
async fn loopback_ip_is_refused_before_any_request() {
    let token = "guard-ipv4";
    let r = scrape(
        guarded().url(),
        &json!({ "url": site().url(&format!("/hits/{token}")) }),
    )
    .await;
    assert_blocked(&r, "127.0.0.1");
    assert!(r.error().contains("loopback"), "{}", r.pretty());
    assert_eq!(site().hits(token), 0, "the blocked target was contacted");
}

#[tokio::test]
async fn localhost_by_name_is_refused_after_resolution() {
    let token = "guard-localhost";
    let url = format!("http://localhost:{}/hits/{token}", site().port());
    let r = scrape(guarded().url(), &json!({ "url": url })).await;
    assert_blocked(&r, "localhost");
    assert!(
        r.error().contains("127.0.0.1"),
        "the message names the resolved address: {}",
        r.pretty()
    );
    assert_eq!(site().hits(token), 0, "the blocked target was contacted");
}

#[tokio::test]
async fn ipv6_loopback_is_refused() {
    let r = scrape(
        guarded().url(),
        &json!({ "url": format!("http://[::1]:{}/", site().port()) }),
    )
    .await;
    assert_blocked(&r, "[::1]");
}

#[tokio::test]
async fn other_spellings_of_loopback_are_refused() {
    let port = site().port();
    for host in [
        "127.1.2.3".to_string(),
        "2130706433".to_string(), // 127.0.0.1 as one decimal number
        "0x7f.0.0.1".to_string(),
        "[::ffff:127.0.0.1]".to_string(),
        "0.0.0.0".to_string(),
        "LOCALHOST".to_string(),
    ] {
        let r = scrape(
            guarded().url(),
            &json!({ "url": format!("http://{host}:{port}/hits/guard-spellings") }),
        )
        .await;
        assert_blocked(&r, &host);
    }
    // A URL without a scheme goes through the same guard.
    let r = scrape(
        guarded().url(),
        &json!({ "url": format!("localhost:{port}/hits/guard-spellings") }),
    )
    .await;
    assert_blocked(&r, "scheme-less localhost");
    assert_eq!(
        site().hits("guard-spellings"),
        0,
        "a blocked target was contacted"
    );
}

#[tokio::test]
async fn private_targets_are_refused_when_the_setting_is_left_unset() {
    let server = TestServer::start(ServerOptions {
        allow_private_targets: None,
        ..ServerOptions::default()
    });
    let r = scrape(server.url(), &json!({ "url": site().url("/hits/guard-default") })).await;
    assert_blocked(&r, "default configuration");
    assert_eq!(site().hits("guard-default"), 0);
}

#[tokio::test]
async fn the_same_targets_work_when_private_targets_are_allowed() {
    // Control: the guard, not the fixture, is what refuses above.
    let server = TestServer::start(ServerOptions::default());
    let url = format!("http://localhost:{}/hits/guard-allowed", site().port());
    let r = scrape(server.url(), &json!({ "url": url })).await;
    r.assert_ok();
    assert_eq!(site().hits("guard-allowed"), 1);
}
