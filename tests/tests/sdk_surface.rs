//! The official Python and JS SDKs' less common calls against Distill,
//! unchanged (tests/sdk/surface_*): the `watcher` over the WebSocket of the
//! status routes (no fallback to polling), crawl status pages and cancel,
//! active crawls, batch status/errors/cancel, the account calls, parse, the async
//! Python client, extract (start, status, the waiting call) against a server
//! with a scripted model (its answer is the SDK's `data`) and its refusal
//! without a model (501 `LLM_NOT_CONFIGURED`), and the routes Distill does
//! not offer (search, the v1 client), whose SDK errors must say why (501
//! `NOT_SUPPORTED`); on a server with keys, the JS watcher's key as its
//! WebSocket subprotocol.

use distill_e2e::crawl_site::{CrawlSite, SiteShape};
use distill_e2e::keys::create_key;
use distill_e2e::sdks::{official_sdks_dir as sdk_dir, repo_root as root};
use distill_e2e::{FakeLlm, ServerOptions, TestServer, Turn, fresh_tmp_dir, shared, site};
use serde_json::{Value, json};
use std::process::Command;

/// Runs a driver and parses the JSON it prints last.
async fn drive(mut cmd: Command) -> Value {
    let out = tokio::task::spawn_blocking(move || cmd.output().expect("running the SDK driver"))
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "SDK driver failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("driver output {stdout:?}: {e}"))
}

/// Node before 22 has a WebSocket only behind a flag; without one the JS
/// watcher polls and its WebSocket path would go untested.
fn node_websocket_flag() -> Option<&'static str> {
    let out = Command::new("node").arg("--version").output().expect("node");
    let v = String::from_utf8_lossy(&out.stdout);
    let major: u32 = v
        .trim()
        .trim_start_matches('v')
        .split('.')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    (major < 22).then_some("--experimental-websocket")
}

/// A server whose model answers every extract with the same titles.
async fn model_server() -> (FakeLlm, TestServer) {
    let model = FakeLlm::start(vec![Turn::content(r#"{"titles": ["P0", "P1"]}"#)]).await;
    let server = TestServer::start(
        ServerOptions::default()
            .env("DISTILL_LLM_BASE_URL", model.base_url())
            .env("DISTILL_LLM_MODEL", "small-model"),
    );
    (model, server)
}

/// What the SDK's extract returned (same shape from both drivers after
/// their own field names are mapped by the caller).
fn assert_extracted(e: &Value, site: &CrawlSite, credits: &str, tokens: &str) {
    assert_eq!(e["status"], json!("completed"), "{e}");
    assert_eq!(e["data"], json!({"titles": ["P0", "P1"]}), "{e}");
    assert_eq!(
        e["sources"],
        json!({"titles": [site.url("/s2/p0"), site.url("/s2/p1")]}),
        "{e}"
    );
    // Two pages at 1 credit, the model call 5; the fake reports 110 tokens.
    assert_eq!(e[credits], json!(7), "{e}");
    assert_eq!(e[tokens], json!(110), "{e}");
    assert_eq!(e["started"], json!([true, true]), "{e}");
    assert_eq!(e["polled"], json!(true), "{e}");
}

fn text(v: &Value) -> &str {
    v.as_str()
        .unwrap_or_else(|| panic!("expected an error text, got {v}"))
}

#[tokio::test]
async fn the_python_sdk_watches_pages_cancels_and_names_what_is_not_offered() {
    let site = CrawlSite::start(SiteShape::default());
    let (model, with_model) = model_server().await;
    let mut py = Command::new(sdk_dir().join("py/bin/python"));
    py.arg(root().join("tests/sdk/surface_py.py")).args([
        shared().url(),
        site.url("").trim_end_matches('/'),
        with_model.url(),
    ]);
    let got = drive(py).await;
    assert_extracted(&got["extract"], &site, "credits", "tokens");
    assert_eq!(got["extract"]["expires"], json!(true), "{got}");
    assert_eq!(model.requests().len(), 2, "one model call per extract");

    // The watcher reads the WebSocket: no status polls, documents, a done event.
    for (key, docs) in [("watch_crawl", None), ("watch_batch", Some(3))] {
        let w = &got[key];
        assert_eq!(w["polls"], json!(0), "{key} fell back to polling: {got}");
        assert_eq!(w["status"], json!("completed"), "{key}: {w}");
        let events = w["events"].as_array().unwrap();
        let last_snapshot = events.iter().rev().find(|e| e.get("status").is_some()).unwrap();
        assert_eq!(last_snapshot["status"], json!("completed"), "{key}: {w}");
        let n = last_snapshot["docs"].as_u64().unwrap();
        assert_eq!(Some(n), docs.or(got["paging"]["total"].as_u64()), "{key}: {w}");
        assert!(events.iter().any(|e| e["event"] == json!("done")), "{key}: {w}");
    }
    let unknown = &got["watch_unknown"];
    assert_eq!(unknown["polls"], json!(0), "{got}");
    assert!(
        unknown["events"]
            .as_array()
            .unwrap()
            .contains(&json!({"event": "error", "error": "Job not found"})),
        "{unknown}"
    );

    let paging = &got["paging"];
    let total = paging["total"].as_u64().unwrap();
    assert!(total > 2, "{paging}");
    assert_eq!(paging["all"], json!(total), "{paging}");
    assert_eq!(paging["single"], json!(total), "{paging}");
    assert_eq!(
        (paging["first"].clone(), paging["second"].clone()),
        (json!(2), json!(2)),
        "{paging}"
    );
    assert!(text(&paging["next"]).ends_with("?skip=2&limit=2"), "{paging}");
    assert_eq!(paging["errors"], json!({"errors": [], "robots_blocked": []}));

    let cancel = &got["cancel"];
    assert_eq!(cancel["active"], json!(true), "{cancel}");
    assert_eq!(cancel["cancelled"], json!(true), "{cancel}");
    assert_eq!(cancel["status"], json!("cancelled"), "{cancel}");
    assert_eq!(
        cancel["again"],
        json!(false),
        "a completed crawl is not cancelled: {cancel}"
    );
    assert!(
        text(&cancel["unknown_status"]).contains("Job not found"),
        "{cancel}"
    );

    let batch = &got["batch"];
    assert_eq!(batch["status"], json!("completed"), "{batch}");
    assert_eq!(
        (batch["docs"].clone(), batch["page"].clone()),
        (json!(3), json!(2)),
        "{batch}"
    );
    assert!(
        text(&batch["cancel_done"]).contains("Job already completed"),
        "{batch}"
    );

    let unlimited = json!(99_999_999);
    let account = &got["account"];
    for key in ["concurrency", "credits", "tokens", "queue"] {
        assert_eq!(account[key], unlimited, "{key}: {account}");
    }
    assert_eq!(account["credits_historical"], json!(1), "{account}");
    assert_eq!(account["tokens_historical"], json!(1), "{account}");
    assert_eq!(account["parse_formats"], json!(["html"]), "{account}");
    assert_eq!(account["parse"], json!("# Uploaded\n\nA page."), "{account}");

    let unsupported = &got["unsupported"];
    for (key, said) in [
        (
            "search",
            "/v2/search is not supported by this server: web search needs a search engine",
        ),
        (
            "extract",
            "Extract needs a language model: no language model is configured on this server",
        ),
        ("extract_status", "Extract job not found"),
        ("v1_scrape", "Distill speaks the Firecrawl v2 API only"),
    ] {
        assert!(text(&unsupported[key]).contains(said), "{key}: {unsupported}");
    }

    let aio = &got["async"];
    assert_eq!(aio["crawl"][0], json!("completed"), "{aio}");
    assert!(aio["crawl"][1].as_u64().unwrap() > 0, "{aio}");
    assert_eq!(aio["batch"], json!(["completed", 2]), "{aio}");
    assert_eq!(aio["map"], json!(true), "{aio}");
    assert_eq!(aio["watch"], json!(["completed"]), "{aio}");
    assert_eq!(aio["credits"], unlimited, "{aio}");
    assert!(
        text(&aio["search"]).contains("not supported by this server"),
        "{aio}"
    );
}

#[tokio::test]
async fn the_js_sdk_watches_over_a_websocket_and_names_what_is_not_offered() {
    let site = CrawlSite::start(SiteShape::default());
    let (model, with_model) = model_server().await;
    let mut js = Command::new("node");
    js.args(node_websocket_flag())
        .arg(root().join("tests/sdk/surface_js.mjs"))
        .arg(sdk_dir().join("js"))
        .args([
            shared().url(),
            site.url("").trim_end_matches('/'),
            with_model.url(),
        ]);
    let got = drive(js).await;
    assert_extracted(&got["extract"], &site, "creditsUsed", "tokensUsed");
    assert_eq!(got["extract"]["expiresAt"], json!(true), "{got}");
    assert_eq!(model.requests().len(), 2, "one model call per extract");
    assert_eq!(
        got["websocket"],
        json!(true),
        "the runtime has no WebSocket: {got}"
    );

    let total = got["paging"]["total"].as_u64().unwrap();
    for (key, docs) in [("watchCrawl", total), ("watchBatch", 3)] {
        let w = &got[key];
        let events: Vec<&str> = w["events"].as_array().unwrap().iter().map(text).collect();
        assert!(!events.iter().any(|e| e.starts_with("error:")), "{key}: {w}");
        assert_eq!(events.last(), Some(&"done:completed"), "{key}: {w}");
        assert_eq!(w["docs"], json!(docs), "{key}: {w}");
    }
    assert_eq!(
        got["watchUnknown"]["events"][0],
        json!("error:Job not found"),
        "{got}"
    );

    assert_eq!(got["paging"]["all"], json!(total), "{got}");
    assert_eq!(got["errors"], json!({"errors": [], "robotsBlocked": []}));
    let cancel = &got["cancel"];
    assert_eq!(
        (&cancel["active"], &cancel["cancelled"], &cancel["status"]),
        (&json!(true), &json!(true), &json!("cancelled")),
        "{cancel}"
    );
    assert_eq!(cancel["again"]["status"], json!(409), "{cancel}");
    let batch = &got["batch"];
    assert_eq!(
        (&batch["status"], &batch["docs"]),
        (&json!("completed"), &json!(3)),
        "{batch}"
    );
    assert_eq!(batch["cancelDone"]["status"], json!(409), "{batch}");
    for key in ["concurrency", "credits", "tokens", "queue"] {
        assert_eq!(got["account"][key], json!(99_999_999), "{key}: {got}");
    }
    assert_eq!(got["account"]["creditsHistorical"], json!(1));
    assert_eq!(got["parse"], json!("# Uploaded\n\nA page."), "{got}");

    let unsupported = &got["unsupported"];
    let e = &unsupported["extract"];
    assert_eq!(
        (&e["status"], &e["code"]),
        (&json!(501), &json!("LLM_NOT_CONFIGURED")),
        "{e}"
    );
    assert!(
        text(&e["message"]).contains("Extract needs a language model"),
        "{e}"
    );
    let e = &unsupported["search"];
    assert_eq!(
        (&e["status"], &e["code"]),
        (&json!(501), &json!("NOT_SUPPORTED")),
        "search: {e}"
    );
    assert!(
        text(&e["message"]).contains("is not supported by this server"),
        "search: {e}"
    );
    // The v1 client shows the server's message only for some statuses (400 is one).
    let v1 = text(&unsupported["v1Scrape"]["message"]);
    assert!(
        v1.contains("Status code: 400") && v1.contains("Distill speaks the Firecrawl v2 API only"),
        "{unsupported}"
    );
}

#[tokio::test]
async fn the_js_watcher_sends_its_key_as_the_subprotocol_and_hears_a_refusal() {
    let keys = fresh_tmp_dir().join("keys.json");
    let server = TestServer::start(ServerOptions::default().env("DISTILL_KEYS_FILE", keys.to_str().unwrap()));
    let key = create_key(&keys, "watcher", &[]);
    let other = create_key(&keys, "other", &[]);
    let mut js = Command::new("node");
    js.args(node_websocket_flag())
        .arg(root().join("tests/sdk/watch_key_js.mjs"))
        .arg(sdk_dir().join("js"))
        .args([
            server.url(),
            key.as_str(),
            &site().url("/article.html"),
            other.as_str(),
        ]);
    let got = drive(js).await;
    assert_eq!(got["right"], json!(["document", "done:completed"]), "{got}");
    assert_eq!(
        got["wrong"],
        json!(["error:Unauthorized: Invalid token"]),
        "{got}"
    );
    // A valid key that did not start the job is refused too.
    assert_eq!(
        got["other"],
        json!(["error:Forbidden: this job was started with another API key"]),
        "{got}"
    );
}
