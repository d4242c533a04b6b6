//! `profile`: cookies and localStorage kept by name across browser scrapes
//! (the fixture page counts its visits in localStorage and sets a cookie),
//! `saveChanges: false` reads without writing, and a second saving session
//! on a profile in use is refused with 409 `SCRAPE_PROFILE_IN_USE`.

use distill_e2e::{Reply, ServerOptions, TestServer, scrape, site};
use serde_json::{Value, json};
use std::sync::OnceLock;
use std::time::Duration;

fn server() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| TestServer::start(ServerOptions::default()))
}

/// A profile name no other test uses.
fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{prefix}-{nanos}")
}

async fn visit(profile: Value, wait_ms: u64) -> Reply {
    scrape(
        server().url(),
        &json!({
            "url": site().url("/browser/profile.html"),
            "profile": profile,
            "waitFor": wait_ms,
            "timeout": 30000
        }),
    )
    .await
}

#[tokio::test]
async fn local_storage_and_cookies_are_kept_across_scrapes() {
    let name = unique("visits");
    let expect = |r: &Reply, text: &str| {
        r.assert_ok();
        assert!(r.markdown().contains(text), "want {text:?}: {}", r.pretty());
    };
    expect(&visit(json!({"name": name}), 0).await, "VISITS: 1 COOKIE: no");
    expect(&visit(json!({"name": name}), 0).await, "VISITS: 2 COOKIE: yes");
    // Read only: sees the profile, writes nothing back.
    expect(
        &visit(json!({"name": name, "saveChanges": false}), 0).await,
        "VISITS: 3 COOKIE: yes",
    );
    expect(
        &visit(json!({"name": name, "saveChanges": true}), 0).await,
        "VISITS: 3 COOKIE: yes",
    );
    // The cookie goes out with the browser's requests.
    let echoed = scrape(
        server().url(),
        &json!({ "url": site().url("/echo-headers"), "formats": ["rawHtml"],
                 "profile": {"name": name, "saveChanges": false} }),
    )
    .await;
    echoed.assert_ok();
    assert!(
        echoed.data()["rawHtml"].as_str().unwrap().contains("seen=yes"),
        "{}",
        echoed.pretty()
    );
    // Another name starts empty.
    expect(
        &visit(json!({"name": unique("other")}), 0).await,
        "VISITS: 1 COOKIE: no",
    );
}

#[tokio::test]
async fn one_saving_session_per_profile_at_a_time() {
    let name = unique("busy");
    let first = tokio::spawn({
        let name = name.clone();
        async move { visit(json!({"name": name}), 4000).await }
    });
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let second = visit(json!({"name": name}), 0).await;
    second.assert_error(409, "SCRAPE_PROFILE_IN_USE");
    assert!(second.error().contains(&name), "{}", second.pretty());
    // Reading while it is saved is fine.
    let reader = visit(json!({"name": name, "saveChanges": false}), 0).await;
    reader.assert_ok();
    let first = first.await.unwrap();
    first.assert_ok();
    assert!(first.markdown().contains("VISITS: 1"), "{}", first.pretty());
    // Free again once it ended.
    let after = visit(json!({"name": name}), 0).await;
    after.assert_ok();
    assert!(after.markdown().contains("VISITS: 2"), "{}", after.pretty());
}
