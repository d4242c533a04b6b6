//! The operator and integration surface over HTTP: `/metrics` (Prometheus
//! text, counted on a server of its own), `/openapi.json` (valid OpenAPI 3.1
//! per the `openapi-spec-validator` package, and in agreement with what the
//! server accepts and refuses), and `/mcp` driven by the official MCP Python
//! SDK (`mcp` from PyPI; `make test` installs both into target/tools/mcp).

use distill_e2e::client::http;
use distill_e2e::fixture::documents_dir;
use distill_e2e::keys::{call, create_key, scrape_as};
use distill_e2e::{ServerOptions, TestServer, fresh_tmp_dir, get, scrape, shared, site, unique_token};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

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
    // Each plugin call's latency.
    assert_eq!(
        sample(
            &text,
            "distill_plugin_call_duration_seconds_count",
            &[r#"plugin="markdown""#]
        ),
        Some(3.0),
        "{text}"
    );
    // A page scraped twice is a cache miss, then a hit.
    let lookups = |text: &str, result: &str| {
        sample(
            text,
            "distill_cache_lookups_total",
            &[&format!("result=\"{result}\"")],
        )
        .unwrap_or(0.0)
    };
    let before = (lookups(&text, "miss"), lookups(&text, "hit"));
    let cached = site().url(&format!("/hits/{}", unique_token("cache")));
    let first = scrape(server.url(), &json!({"url": cached})).await;
    let second = scrape(server.url(), &json!({"url": cached})).await;
    assert_eq!(
        (&first.metadata()["cacheState"], &second.metadata()["cacheState"]),
        (&json!("miss"), &json!("hit"))
    );
    let text = metrics_text(&server).await;
    let after = (lookups(&text, "miss"), lookups(&text, "hit"));
    assert_eq!((after.0 - before.0, after.1 - before.1), (1.0, 1.0), "{text}");
    // Unknown paths are one label, not one per path.
    get(&server.endpoint("/no/such/route/123")).await;
    let text = metrics_text(&server).await;
    assert_eq!(
        sample(&text, requests, &[r#"route="unmatched""#, r#"status="404""#]),
        Some(1.0)
    );
    assert!(!text.contains("/no/such/route"), "{text}");
}

/// Reads `/metrics` until `done(text)` holds (panics after 30 s with the last text).
async fn metrics_until(server: &TestServer, what: &str, done: impl Fn(&str) -> bool) -> String {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let text = metrics_text(server).await;
        if done(&text) {
            return text;
        }
        assert!(Instant::now() < until, "{what} never seen in /metrics:\n{text}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until `/gate/{token}` has received `n` requests.
async fn gate_reached(token: &str, n: u64) {
    let until = Instant::now() + Duration::from_secs(30);
    while site().gate_arrivals(token) < n {
        assert!(
            Instant::now() < until,
            "the gate {token} saw {} of {n}",
            site().gate_arrivals(token)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn metrics_show_requests_waiting_in_a_key_s_concurrency_queue() {
    let keys = fresh_tmp_dir().join("keys.json");
    let server = TestServer::start(ServerOptions::default().env("DISTILL_KEYS_FILE", keys.to_str().unwrap()));
    let key = create_key(&keys, "gauged", &["--concurrency", "1"]);
    let token = unique_token("slot");
    let scrape_page = |n: u32| {
        let (s, k) = (server.url().to_string(), key.clone());
        let body = json!({"url": site().url(&format!("/gate/{token}?n={n}")), "maxAge": 0, "timeout": 60000});
        tokio::spawn(async move { scrape_as(&s, &k, &body).await })
    };
    // The first holds the key's only slot until the gate opens.
    let first = scrape_page(0);
    gate_reached(&token, 1).await;
    let waiting = [scrape_page(1), scrape_page(2)];
    let gauge = "distill_key_concurrency_waiting";
    let named = r#"name="gauged""#;
    let text = metrics_until(&server, "two requests waiting", |t| {
        sample(t, gauge, &[named]) == Some(2.0)
    })
    .await;
    // Labelled by the key's id and name, never its secret.
    assert!(text.contains(r#"key="key_"#), "{text}");
    assert!(!text.contains(&key), "the secret is in /metrics");
    assert_eq!(
        site().gate_arrivals(&token),
        1,
        "the waiting requests fetched nothing"
    );
    site().open_gate(&token);
    assert_eq!(first.await.unwrap().status, 200);
    for w in waiting {
        let answer = w.await.unwrap();
        assert_eq!(answer.status, 200, "{}", answer.json);
        assert_eq!(answer.json["data"]["metadata"]["concurrencyLimited"], true);
    }
    metrics_until(&server, "the queue empty again", |t| {
        sample(t, gauge, &[named]) == Some(0.0)
    })
    .await;
}

#[tokio::test]
async fn metrics_show_the_job_queue_while_a_batch_runs_and_empty_after() {
    let server = TestServer::start(ServerOptions::default());
    let token = unique_token("jobs");
    let urls: Vec<String> = (0..4)
        .map(|n| site().url(&format!("/gate/{token}?n={n}")))
        .collect();
    let started = call(
        "POST",
        &server.endpoint("/v2/batch/scrape"),
        None,
        Some(&json!({"urls": urls, "maxAge": 0, "timeout": 60000})),
    )
    .await;
    assert_eq!(started.status, 200, "{}", started.json);
    let id = started.json["id"].as_str().unwrap().to_string();
    gate_reached(&token, 1).await;
    // Until the gate opens no page can finish: all four are queued or leased.
    let tasks = |t: &str| {
        let state = |s: &str| sample(t, "distill_job_tasks", &[&format!("state=\"{s}\"")]);
        state("queued").zip(state("leased"))
    };
    let text = metrics_until(&server, "a leased task", |t| {
        tasks(t).is_some_and(|(_, l)| l >= 1.0)
    })
    .await;
    let (queued, leased) = tasks(&text).unwrap();
    assert_eq!(queued + leased, 4.0, "{text}");
    site().open_gate(&token);
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let status = call(
            "GET",
            &server.endpoint(&format!("/v2/batch/scrape/{id}")),
            None,
            None,
        )
        .await;
        if status.json["status"] == "completed" {
            assert_eq!(status.json["completed"], 4, "{}", status.json);
            break;
        }
        assert!(Instant::now() < until, "{}", status.json);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let text = metrics_text(&server).await;
    assert_eq!(tasks(&text), Some((0.0, 0.0)), "{text}");
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
