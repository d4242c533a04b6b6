//! `POST/DELETE /v2/scrape/{scrapeId}/interact` against a real Chromium and
//! playwright-core (`make browser-tools`): node code changing the replayed
//! page and reading it back across calls, the scrape's actions replayed, the
//! timeout killing the child, errors (unknown scrape, bad bodies, python,
//! a prompt without a model), expiry, DELETE, and the official Python SDK's
//! `scrape(..., actions=[...])`, `interact` and `stop_interaction`.

use distill_e2e::client::{http, post_raw};
use distill_e2e::{Reply, scrape, shared, site};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

async fn interact(scrape_id: &str, body: Value) -> Reply {
    let url = shared().endpoint(&format!("/v2/scrape/{scrape_id}/interact"));
    post_raw(&url, body.to_string(), &[]).await
}

async fn stop(scrape_id: &str) -> (u16, Value) {
    let url = shared().endpoint(&format!("/v2/scrape/{scrape_id}/interact"));
    let resp = http().delete(&url).send().await.unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

/// Scrapes `body` on the shared server; its scrapeId.
async fn scrape_id(body: Value) -> String {
    let r = scrape(shared().url(), &body).await;
    r.assert_ok();
    r.data()["metadata"]["scrapeId"].as_str().unwrap().to_string()
}

fn ok(r: &Reply) -> &Value {
    assert_eq!(r.status, 200, "{}", r.body);
    &r.json
}

#[tokio::test]
async fn node_code_changes_the_page_and_later_calls_see_it_until_delete() {
    let id = scrape_id(json!({"url": site().url("/browser/form.html"), "formats": ["markdown"]})).await;
    let code = "console.log('filling'); await page.fill('#name', 'Grace'); await page.click('#go'); \
                return await page.textContent('#out');";
    let r = interact(&id, json!({"code": code, "language": "node"})).await;
    let first = ok(&r);
    assert_eq!(first["success"], json!(true), "{}", r.body);
    assert_eq!(first["result"], json!("GREETING: Hello, Grace!"), "{}", r.body);
    assert_eq!(first["stdout"], json!("filling\n"), "{}", r.body);
    assert_eq!(
        (first["exitCode"].clone(), first["killed"].clone()),
        (json!(0), json!(false))
    );
    let session = first["sessionId"].as_str().unwrap().to_string();

    // Same session, same page: a lone expression is its own result.
    let r = interact(&id, json!({"code": "await page.textContent('#out')"})).await;
    let second = ok(&r);
    assert_eq!(second["result"], json!("GREETING: Hello, Grace!"), "{}", r.body);
    assert_eq!(second["sessionId"], json!(session));

    // Code that throws: its exit code and stderr, success false.
    let r = interact(&id, json!({"code": "throw new Error('no such widget')"})).await;
    let thrown = ok(&r);
    assert_eq!(
        (thrown["success"].clone(), thrown["exitCode"].clone()),
        (json!(false), json!(1))
    );
    assert!(
        thrown["stderr"].as_str().unwrap().contains("no such widget"),
        "{}",
        r.body
    );
    assert!(
        thrown["error"].as_str().unwrap().contains("no such widget"),
        "{}",
        r.body
    );

    let (status, body) = stop(&id).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["success"], json!(true));
    assert_eq!(body["cleanupQueued"], json!(true));
    assert!(body["sessionDurationMs"].as_u64().unwrap() > 0, "{body}");
    let r = interact(&id, json!({"code": "1"})).await;
    assert_eq!(r.status, 410, "{}", r.body);
    assert_eq!(r.json["error"], json!("Browser session has been destroyed."));
    let (status, body) = stop(&id).await;
    assert_eq!(
        (status, body["error"].clone()),
        (404, json!("Browser session not found."))
    );
}

#[tokio::test]
async fn the_session_replays_the_scrapes_actions() {
    let id = scrape_id(json!({
        "url": site().url("/browser/form.html"),
        "formats": ["markdown"],
        "actions": [
            {"type": "click", "selector": ".counter", "all": true},
            {"type": "screenshot"}
        ]
    }))
    .await;
    let r = interact(&id, json!({"code": "await page.textContent('#clicks')"})).await;
    assert_eq!(ok(&r)["result"], json!("clicks: 3"), "{}", r.body);
    stop(&id).await;
}

#[tokio::test]
async fn the_timeout_kills_the_code() {
    let id = scrape_id(json!({"url": site().url("/browser/form.html")})).await;
    let started = Instant::now();
    let r = interact(
        &id,
        json!({"code": "await new Promise(r => setTimeout(r, 120000));", "timeout": 3}),
    )
    .await;
    let body = ok(&r);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(body["killed"], json!(true), "{}", r.body);
    assert_eq!(body["success"], json!(false));
    assert_eq!(body["exitCode"], json!(137));
    assert!(
        body["error"].as_str().unwrap().contains("timed out"),
        "{}",
        r.body
    );
    // The session survives its code's timeout.
    let r = interact(&id, json!({"code": "page.url()"})).await;
    assert!(
        ok(&r)["result"].as_str().unwrap().ends_with("/browser/form.html"),
        "{}",
        r.body
    );
    stop(&id).await;
}

#[tokio::test]
async fn unknown_scrapes_bad_bodies_python_and_prompts_without_a_model() {
    let r = interact("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", json!({"code": "1"})).await;
    assert_eq!(
        (r.status, r.json["error"].clone()),
        (404, json!("Job not found.")),
        "{}",
        r.body
    );
    let (status, body) = stop("no-such-scrape").await;
    assert_eq!(status, 404, "{body}");

    let id = scrape_id(json!({"url": site().url("/article.html")})).await;
    let r = interact(&id, json!({"language": "node"})).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("Either 'code' or 'prompt' must be provided."),
        "{}",
        r.body
    );
    let r = interact(&id, json!({"code": "1", "timeout": 0})).await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = interact(&id, json!({"code": "print(1)", "language": "python"})).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.json["error"].as_str().unwrap().contains("\"node\""),
        "{}",
        r.body
    );
    let r = interact(&id, json!({"prompt": "click the first link"})).await;
    assert_eq!(r.status, 501, "{}", r.body);
    assert_eq!(r.json["code"], json!("LLM_NOT_CONFIGURED"), "{}", r.body);
    assert!(
        r.json["error"].as_str().unwrap().contains("DISTILL_LLM_BASE_URL"),
        "{}",
        r.body
    );
    // None of these opened a session.
    assert_eq!(stop(&id).await.0, 404);
}

#[tokio::test]
async fn an_idle_session_expires() {
    let id = scrape_id(json!({"url": site().url("/browser/form.html")})).await;
    let r = interact(&id, json!({"code": "1 + 1", "activityTtl": 10})).await;
    assert_eq!(ok(&r)["result"], json!("2"), "{}", r.body);
    tokio::time::sleep(Duration::from_millis(11_500)).await;
    let r = interact(&id, json!({"code": "1"})).await;
    assert_eq!(r.status, 410, "{}", r.body);
    assert_eq!(stop(&id).await.0, 404);
}

fn sdk_python() -> PathBuf {
    let python = std::env::var_os("DISTILL_SDK_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/tools/sdk/py/bin/python")
        });
    assert!(
        python.exists(),
        "{} is missing: run `make sdk-tools` (firecrawl-py 4.55.0)",
        python.display()
    );
    python
}

const SDK_SCRIPT: &str = r##"
import json, sys
from firecrawl import Firecrawl
fc = Firecrawl(api_url=sys.argv[1])
doc = fc.scrape(sys.argv[2], formats=["markdown"], actions=[
    {"type": "click", "selector": "#name"},
    {"type": "write", "text": "Ada"},
    {"type": "press", "key": "Enter"},
])
job = doc.metadata.scrape_id
ran = fc.interact(job, code="await page.textContent('#out')")
stopped = fc.stop_interaction(job)
print(json.dumps({"markdown": doc.markdown, "result": ran.result, "success": ran.success,
                  "exit_code": ran.exit_code, "stopped": stopped.success}))
"##;

#[tokio::test]
async fn the_python_sdk_scrapes_with_actions_interacts_and_stops() {
    let python = sdk_python();
    let url = site().url("/browser/form.html");
    let server = shared().url().to_string();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(python)
            .args(["-c", SDK_SCRIPT, &server, &url])
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value = serde_json::from_slice(out.stdout.trim_ascii()).unwrap();
    assert!(
        got["markdown"]
            .as_str()
            .unwrap()
            .contains("GREETING: Hello, Ada!"),
        "{got}"
    );
    // The interact session replayed the actions: the greeting is on its page.
    assert_eq!(got["result"], json!("GREETING: Hello, Ada!"), "{got}");
    assert_eq!(got["success"], json!(true));
    assert_eq!(got["exit_code"], json!(0));
    assert_eq!(got["stopped"], json!(true));
}
