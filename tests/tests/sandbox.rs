//! The plugin sandbox, driven through the test-only `misbehave` plugin: a trap,
//! an endless loop, a memory bomb and a typed error each fail only their own
//! request, name the plugin, and leave the server serving normal scrapes;
//! a looping plugin does not stall concurrent requests, and is stopped even
//! when it is the first call after an idle spell; a call waiting for a slot
//! waits no longer than its request's timeout.

use distill_e2e::{Plugins, Reply, ServerOptions, TestServer, get, scrape, site};
use serde_json::json;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

fn server() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        TestServer::start(ServerOptions {
            plugins: Plugins::ShippedAnd(&["misbehave"]),
            ..ServerOptions::default()
        })
    })
}

async fn misbehave(mode: &str, timeout_ms: u64) -> Reply {
    scrape(
        server().url(),
        &json!({
            "url": site().url("/article.html"),
            "formats": ["markdown", { "type": "misbehave", "mode": mode }],
            "timeout": timeout_ms
        }),
    )
    .await
}

/// A normal markdown scrape on the same server still works.
async fn assert_still_serving() {
    let r = scrape(server().url(), &json!({ "url": site().url("/article.html") })).await;
    r.assert_ok();
    assert!(r.markdown().contains("# Lichens on Old Walls"), "{}", r.pretty());
}

fn assert_names_plugin(r: &Reply) {
    assert!(
        r.error().contains("plugin 'misbehave'") && r.error().contains("'misbehave' format"),
        "the error should name the plugin and the format: {}",
        r.pretty()
    );
}

#[tokio::test]
async fn a_well_behaved_call_returns_its_value() {
    let r = misbehave("ok", 30_000).await;
    r.assert_ok();
    assert_eq!(r.data()["misbehave"], "fine", "{}", r.pretty());
    assert!(r.markdown().contains("Lichens on Old Walls"));
}

#[tokio::test]
async fn a_trapping_plugin_is_a_plugin_error() {
    let r = misbehave("trap", 30_000).await;
    r.assert_error(500, "PLUGIN_ERROR");
    assert_names_plugin(&r);
    assert!(r.error().contains("crashed"), "{}", r.pretty());
    assert!(r.elapsed < Duration::from_secs(5), "{:?}", r.elapsed);
    // Counted in /metrics as the plugin's error, by kind.
    let metrics = get(&server().endpoint("/metrics")).await;
    assert!(
        metrics
            .body
            .lines()
            .any(|l| l.starts_with("distill_plugin_calls_total{")
                && l.contains(r#"plugin="misbehave""#)
                && l.contains(r#"outcome="trap""#)),
        "no trap counted in /metrics"
    );
    assert_still_serving().await;
}

#[tokio::test]
async fn an_endless_loop_is_stopped_at_the_request_timeout() {
    // misbehave declares no time limit of its own, so the request's 3 s
    // deadline stops it: 408 SCRAPE_TIMEOUT (not PLUGIN_ERROR).
    let r = misbehave("loop", 3000).await;
    r.assert_error(408, "SCRAPE_TIMEOUT");
    assert_names_plugin(&r);
    assert!(
        r.elapsed >= Duration::from_millis(2500) && r.elapsed < Duration::from_secs(8),
        "the 3000 ms timeout took {:?}",
        r.elapsed
    );
    assert_still_serving().await;
}

#[tokio::test]
async fn a_loop_started_after_an_idle_spell_is_still_stopped() {
    // The epoch ticker that enforces plugin deadlines sleeps once no call
    // has run for a second; the next call must wake it. A server of its
    // own, left idle past that, then a loop with a 2 s deadline.
    let idle = TestServer::start(ServerOptions {
        plugins: Plugins::ShippedAnd(&["misbehave"]),
        ..ServerOptions::default()
    });
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let r = scrape(
        idle.url(),
        &json!({
            "url": site().url("/article.html"),
            "formats": [{ "type": "misbehave", "mode": "loop" }],
            "timeout": 2000
        }),
    )
    .await;
    r.assert_error(408, "SCRAPE_TIMEOUT");
    assert!(
        r.elapsed >= Duration::from_millis(1500) && r.elapsed < Duration::from_secs(6),
        "the 2000 ms timeout took {:?}",
        r.elapsed
    );
}

#[tokio::test]
async fn a_memory_bomb_hits_the_declared_cap() {
    let r = misbehave("oom", 30_000).await;
    r.assert_error(500, "PLUGIN_ERROR");
    assert_names_plugin(&r);
    assert!(r.error().contains("memory"), "{}", r.pretty());
    assert!(
        r.error().contains("64 MiB"),
        "the plugin's declared cap: {}",
        r.pretty()
    );
    assert!(r.elapsed < Duration::from_secs(10), "{:?}", r.elapsed);
    // Again: the memory is reclaimed, not leaked into the next call.
    let again = misbehave("oom", 30_000).await;
    again.assert_error(500, "PLUGIN_ERROR");
    assert_still_serving().await;
}

#[tokio::test]
async fn a_typed_plugin_error_names_the_plugin() {
    let r = misbehave("error", 30_000).await;
    r.assert_error(500, "PLUGIN_ERROR");
    assert_names_plugin(&r);
    assert!(r.error().contains("deliberate failure"), "{}", r.pretty());
    assert_still_serving().await;
}

#[tokio::test]
async fn invalid_plugin_options_are_a_bad_request() {
    let r = misbehave("dance", 30_000).await;
    r.assert_error(400, "BAD_REQUEST");
    assert!(r.error().contains("unknown mode 'dance'"), "{}", r.pretty());
}

#[tokio::test]
async fn a_plugin_cannot_reach_files_network_environment_or_the_clock() {
    let marker = std::path::Path::new("/tmp/distill-escape");
    let existed_before = marker.exists();
    // The connect target is the local fixture site: even a broken sandbox
    // would not send anything off the machine.
    let r = scrape(
        server().url(),
        &json!({
            "url": site().url("/article.html"),
            "formats": [{ "type": "misbehave", "mode": "escape", "target": site().host_port() }]
        }),
    )
    .await;
    r.assert_ok();
    let got = &r.data()["misbehave"];
    for probe in ["fs", "fsWrite", "net"] {
        let outcome = got[probe]
            .as_str()
            .unwrap_or_else(|| panic!("no {probe} in {}", r.pretty()));
        assert!(
            outcome.starts_with("error"),
            "{probe} escaped the sandbox: {outcome}"
        );
    }
    assert_eq!(
        got["env"],
        json!([]),
        "the plugin sees environment variables: {}",
        r.pretty()
    );
    assert_eq!(got["clock"], 0, "the plugin sees the real clock: {}", r.pretty());
    if !existed_before {
        assert!(!marker.exists(), "the plugin wrote {}", marker.display());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_looping_plugin_does_not_stall_other_requests() {
    server(); // started before anything is timed
    let looping = tokio::spawn(misbehave("loop", 10_000));
    // Let the loop get going.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!looping.is_finished(), "the loop request ended early");

    let started = Instant::now();
    let normal: Vec<_> = (0..6)
        .map(|i| {
            let url = if i % 2 == 0 {
                site().url("/article.html")
            } else {
                site().url("/layout.html")
            };
            tokio::spawn(async move { scrape(server().url(), &json!({ "url": url })).await })
        })
        .collect();
    for handle in normal {
        let r = handle.await.unwrap();
        r.assert_ok();
        assert!(
            r.elapsed < Duration::from_secs(3),
            "a normal scrape took {:?} next to the loop",
            r.elapsed
        );
    }
    let health = get(&server().endpoint("/health")).await;
    assert_eq!(health.status, 200);
    let normal_time = started.elapsed();
    assert!(
        !looping.is_finished(),
        "the loop request finished before the normal ones were checked ({normal_time:?})"
    );
    assert!(
        normal_time < Duration::from_secs(5),
        "normal requests took {normal_time:?} in total"
    );

    let r = looping.await.unwrap();
    r.assert_error(408, "SCRAPE_TIMEOUT");
}

/// A server with one run slot per kind (`DISTILL_PLUGIN_CONCURRENCY=1`) and
/// two looping format calls (10 s timeouts): one holds the only format slot,
/// the other waits for it.
async fn one_format_slot_held_and_one_call_waiting() -> (TestServer, Vec<tokio::task::JoinHandle<Reply>>) {
    let server = TestServer::start(
        ServerOptions {
            plugins: Plugins::ShippedAnd(&["misbehave"]),
            ..ServerOptions::default()
        }
        .env("DISTILL_PLUGIN_CONCURRENCY", "1"),
    );
    let looping = |url: String| {
        tokio::spawn(async move {
            let body = json!({
                "url": site().url("/article.html"),
                "formats": [{ "type": "misbehave", "mode": "loop" }],
                "timeout": 10_000
            });
            scrape(&url, &body).await
        })
    };
    let loops = vec![
        looping(server.url().to_string()),
        looping(server.url().to_string()),
    ];
    let deadline = Instant::now() + Duration::from_secs(8);
    while server.metric("distill_plugin_calls_waiting").await < 1.0 {
        assert!(
            Instant::now() < deadline,
            "no format call waited for the held slot"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (server, loops)
}

/// With a format call waiting for the slot a looping one holds
/// ([`one_format_slot_held_and_one_call_waiting`]), a document's
/// converter call runs at once in its own slot. (A parse asking for markdown
/// also takes a format slot, for the markdown plugin.)
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn formats_and_converters_have_their_own_run_slots() {
    let (server, loops) = one_format_slot_held_and_one_call_waiting().await;

    // The `html` format is the host's own, so this parse calls only a converter.
    let doc = distill_e2e::read_document("docx-lo.docx");
    let options = json!({ "formats": ["html"] });
    let parsed = distill_e2e::parse_upload(server.url(), "docx-lo.docx", None, doc, Some(&options)).await;
    parsed.assert_ok();
    assert!(parsed.data_str("html").contains("<p"), "{}", parsed.pretty());
    assert!(
        loops.iter().all(|l| !l.is_finished()),
        "the conversion waited until the format slot was free ({:?})",
        parsed.elapsed
    );

    for handle in loops {
        handle.await.unwrap().assert_error(408, "SCRAPE_TIMEOUT");
    }
}

/// A call waiting for a run slot waits no longer than its request's
/// timeout: with the only format slot held by a loop (10 s) and another loop
/// queued, a markdown scrape with a 1.5 s timeout answers 408 at about 1.5 s,
/// naming the plugin, rather than after the loops' 10 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn waiting_for_a_run_slot_ends_at_the_request_timeout() {
    let (server, loops) = one_format_slot_held_and_one_call_waiting().await;

    let body = json!({ "url": site().url("/article.html"), "formats": ["markdown"], "timeout": 1500 });
    let r = scrape(server.url(), &body).await;
    r.assert_error(408, "SCRAPE_TIMEOUT");
    assert!(r.error().contains("plugin 'markdown'"), "{}", r.pretty());
    assert!(
        r.elapsed >= Duration::from_millis(1000) && r.elapsed < Duration::from_secs(5),
        "the 1500 ms timeout took {:?}",
        r.elapsed
    );
    assert!(
        loops.iter().all(|l| !l.is_finished()),
        "the loops ended before the waiting scrape was checked"
    );
    // The loops end at their own timeouts.
    for handle in loops {
        handle.await.unwrap().assert_error(408, "SCRAPE_TIMEOUT");
    }
}

/// A finished call's store waits for the response before it is dropped, and
/// keeps its instance slot meanwhile; one scrape with more plugin calls than
/// the server has instance slots (four with one run slot) must still get a
/// slot for each call, not wait on its own finished calls' stores.
#[tokio::test]
async fn a_scrape_with_more_plugin_calls_than_instance_slots_completes() {
    let server = TestServer::start(
        ServerOptions {
            plugins: Plugins::ShippedAnd(&["misbehave", "legacy-abi", "abi-v4", "consumer"]),
            ..ServerOptions::default()
        }
        .env("DISTILL_PLUGIN_CONCURRENCY", "1"),
    );
    let formats = json!([
        "markdown",
        "reading-time",
        { "type": "misbehave", "mode": "ok" },
        "legacy-echo",
        "v4-echo",
        "v4-string",
        { "type": "digest", "lines": 1 }
    ]);
    for _ in 0..3 {
        let body = json!({ "url": site().url("/article.html"), "formats": formats, "timeout": 20_000 });
        let r = scrape(server.url(), &body).await;
        r.assert_ok();
        let data = r.data();
        for key in [
            "reading-time",
            "misbehave",
            "legacy-echo",
            "v4-echo",
            "v4-string",
            "digest",
        ] {
            assert!(!data[key].is_null(), "no {key}: {}", r.pretty());
        }
        assert!(r.markdown().contains("Lichens on Old Walls"), "{}", r.pretty());
    }
}
