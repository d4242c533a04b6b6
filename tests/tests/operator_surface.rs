//! The operator and integration surface over HTTP: `/metrics` (Prometheus
//! text, counted on a server of its own), `/openapi.json` (valid OpenAPI 3.1
//! per the `openapi-spec-validator` package, and in agreement with what the
//! server accepts and refuses), and `/mcp` driven by the official MCP Python
//! SDK (`mcp` from PyPI; `make test` installs both into target/tools/mcp).

use distill_e2e::client::http;
use distill_e2e::fixture::documents_dir;
use distill_e2e::{ServerOptions, TestServer, get, scrape, shared, site};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;

/// The Python with `mcp` and `openapi-spec-validator` installed.
fn tools_python() -> PathBuf {
    let python = std::env::var_os("DISTILL_MCP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/tools/mcp/bin/python"));
    assert!(
        python.exists(),
        "{} is missing: `make test` installs the MCP client and the OpenAPI validator (make mcp-tools)",
        python.display()
    );
    python
}

async fn metrics_text(server: &TestServer) -> String {
    let response = http().get(server.endpoint("/metrics")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"].to_str().unwrap().to_string();
    assert!(content_type.starts_with("text/plain"), "{content_type}");
    response.text().await.unwrap()
}

/// The value of the sample whose name and labels contain every one of `parts`.
fn sample(text: &str, name: &str, parts: &[&str]) -> Option<f64> {
    text.lines()
        .filter(|l| l.starts_with(name) && !l.starts_with('#'))
        .filter(|l| l[name.len()..].starts_with(['{', ' ']))
        .find(|l| parts.iter().all(|p| l.contains(p)))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

#[tokio::test]
async fn metrics_count_requests_statuses_and_plugin_calls() {
    let server = TestServer::start(ServerOptions::default());
    let url = site().url("/article.html");
    // maxAge 0: fetched and rendered each time, never answered from the cache.
    for _ in 0..3 {
        scrape(server.url(), &json!({"url": url, "maxAge": 0}))
            .await
            .assert_ok();
    }
    scrape(server.url(), &json!({"url": url, "timeout": 5}))
        .await
        .assert_error(400, "BAD_REQUEST");
    let text = metrics_text(&server).await;
    let requests = "distill_http_requests_total";
    let route = r#"route="/v2/scrape""#;
    assert_eq!(
        sample(&text, requests, &[route, r#"status="200""#]),
        Some(3.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, requests, &[route, r#"status="400""#]),
        Some(1.0),
        "{text}"
    );
    // Three renderings (load-time calls are not counted; the bad request
    // never reached a plugin).
    assert_eq!(
        sample(
            &text,
            "distill_plugin_calls_total",
            &[r#"plugin="markdown""#, r#"outcome="ok""#]
        ),
        Some(3.0),
        "{text}"
    );
    // Latency histograms have buckets; the +Inf bucket holds every request.
    let bucket = "distill_http_request_duration_seconds_bucket";
    assert_eq!(
        sample(&text, bucket, &[route, r#"le="+Inf""#]),
        Some(4.0),
        "{text}"
    );
    assert!(
        text.contains("# TYPE distill_http_request_duration_seconds histogram"),
        "{text}"
    );
    // Unknown paths are one label, not one per path.
    get(&server.endpoint("/no/such/route/123")).await;
    let text = metrics_text(&server).await;
    assert_eq!(
        sample(&text, requests, &[r#"route="unmatched""#, r#"status="404""#]),
        Some(1.0)
    );
    assert!(!text.contains("/no/such/route"), "{text}");
}

#[tokio::test]
async fn openapi_document_is_valid_and_matches_what_the_server_accepts() {
    let reply = get(&shared().endpoint("/openapi.json")).await;
    assert_eq!(reply.status, 200);
    let doc = reply.json.clone();
    assert_eq!(doc["openapi"], "3.1.0");

    // A real validator (openapi-spec-validator) accepts the document.
    let path = distill_e2e::fresh_tmp_dir().join("openapi.json");
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    let out = Command::new(tools_python())
        .args(["-m", "openapi_spec_validator"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "openapi-spec-validator refused the document:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    let schema = &doc["components"]["schemas"]["ScrapeRequest"];
    let props = schema["properties"]
        .as_object()
        .expect("ScrapeRequest properties");
    assert_eq!(schema["required"], json!(["url"]));
    // Formats served by loaded plugins are in the document.
    let formats = serde_json::to_string(&props["formats"]).unwrap();
    assert!(formats.contains("reading-time"), "{formats}");

    let url = site().url("/article.html");
    // Every documented default is accepted as an explicit value.
    for (key, prop) in props {
        let Some(default) = prop.get("default") else {
            continue;
        };
        let r = scrape(shared().url(), &json!({"url": url, key: default})).await;
        assert_eq!(
            r.status,
            200,
            "documented default {key}={default} refused: {}",
            r.pretty()
        );
    }
    // Every documented enum refuses a value outside it, naming the field.
    let mut enums = 0;
    for (key, prop) in props {
        if prop.get("enum").is_none() {
            continue;
        }
        enums += 1;
        let r = scrape(
            shared().url(),
            &json!({"url": url, key: "not-a-documented-value"}),
        )
        .await;
        r.assert_error(400, "BAD_REQUEST");
        assert_eq!(r.json["details"][0]["path"], json!([key]), "{}", r.pretty());
    }
    assert!(enums >= 1);
    // Documented bounds hold: one past the maximum is refused.
    let timeout_max = props["timeout"]["maximum"].as_i64().unwrap();
    scrape(shared().url(), &json!({"url": url, "timeout": timeout_max + 1}))
        .await
        .assert_error(400, "BAD_REQUEST");
    // Undocumented keys are refused (additionalProperties: false).
    assert_eq!(schema["additionalProperties"], json!(false));
    scrape(shared().url(), &json!({"url": url, "notInTheDocument": 1}))
        .await
        .assert_error(400, "BAD_REQUEST");
}

#[tokio::test]
async fn mcp_tools_work_with_the_official_python_client() {
    let csv = documents_dir().join("sample.csv");
    let out = tokio::task::spawn_blocking(move || {
        Command::new(tools_python())
            .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("clients/mcp_client.py"))
            .arg(shared().url())
            .arg(site().url("/article.html"))
            .arg(csv)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "the MCP client failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("one JSON report");

    let scrape_schema = &report["tools"]["scrape"];
    assert_eq!(scrape_schema["required"], json!(["url"]), "{report}");
    assert!(scrape_schema["properties"]["formats"].is_object(), "{report}");
    assert!(
        report["tools"]["parse"]["properties"]["content"].is_object(),
        "{report}"
    );

    let scraped = &report["scrape"];
    assert_eq!(scraped["isError"], false, "{report}");
    assert!(
        scraped["text"]
            .as_str()
            .unwrap()
            .contains("**composite organisms**"),
        "{report}"
    );
    assert_eq!(scraped["structured"]["success"], true);
    assert!(scraped["structured"]["data"]["metadata"]["sourceURL"].is_string());

    let parsed = &report["parse"];
    assert_eq!(parsed["isError"], false, "{report}");
    assert!(
        parsed["text"]
            .as_str()
            .unwrap()
            .contains("| Widget | 9.99 | Small, blue |"),
        "{report}"
    );

    // A bad argument is a tool error carrying the route's error body.
    let invalid = &report["invalid"];
    assert_eq!(invalid["isError"], true, "{report}");
    assert_eq!(invalid["structured"]["code"], "BAD_REQUEST", "{report}");
    assert_eq!(
        invalid["structured"]["details"][0]["path"],
        json!(["timeout"]),
        "{report}"
    );
}
