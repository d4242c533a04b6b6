//! The server as a process: startup configurations, logging (one line per
//! request, error ids), the panic fault header, running without plugins.

use distill_e2e::server::TempDir;
use distill_e2e::{Plugins, ServerOptions, TestServer, get, post_raw, scrape, scrape_with_headers, site};
use serde_json::{Value, json};
use std::sync::OnceLock;
use std::time::Duration;

/// A text-log server with the fault header enabled.
fn fault_server() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER
        .get_or_init(|| TestServer::start(ServerOptions::default().env("DISTILL_ENABLE_TEST_FAULTS", "true")))
}

/// The id at the end of upstream's self-host UNKNOWN_ERROR message.
fn error_id(message: &str) -> String {
    let prefix = "An error occurred. Please check your logs for more details. Error ID: ";
    let id = message
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("unexpected UNKNOWN_ERROR message: {message:?}"));
    assert!(
        id.len() >= 8 && id.chars().all(|c| c.is_ascii_hexdigit() || c == '-'),
        "{id:?}"
    );
    id.to_string()
}

#[tokio::test]
async fn a_panicking_scrape_is_unknown_error_with_an_id_found_in_the_logs() {
    let server = fault_server();
    let r = scrape_with_headers(
        server.url(),
        &json!({ "url": site().url("/article.html") }),
        &[("x-distill-fault", "panic")],
    )
    .await;
    r.assert_error(500, "UNKNOWN_ERROR");
    let id = error_id(r.error());
    let (found, logs) = server.wait_for_logs(Duration::from_secs(5), |l| l.contains(&id));
    assert!(found, "error id {id} not in the server log:\n{logs}");
    let line = logs.lines().find(|l| l.contains(&id)).unwrap();
    assert!(
        line.contains("ERROR"),
        "the error id is not logged at ERROR level: {line}"
    );
    // The server survives the panic.
    scrape(server.url(), &json!({ "url": site().url("/article.html") }))
        .await
        .assert_ok();
    assert!(server.is_running());
}

#[tokio::test]
async fn text_logs_carry_no_terminal_colour_codes_when_not_on_a_terminal() {
    // stderr is a pipe here, as it is under systemd, docker or `2> file`:
    // escape sequences make `grep error_id=<id>` and log shippers fail.
    let server = fault_server();
    let r = get(&server.endpoint("/health")).await;
    assert_eq!(r.status, 200);
    let (_, logs) = server.wait_for_logs(Duration::from_secs(5), |l| l.contains("/health"));
    assert!(logs.contains("distill listening"), "{logs}");
    assert!(
        !logs.contains('\u{1b}'),
        "ANSI escape codes in non-terminal text logs:\n{}",
        logs.lines().take(3).collect::<Vec<_>>().join("\n").escape_debug()
    );
}

/// The access-log lines (one JSON object each) of a JSON-logging server.
fn access_lines(logs: &str) -> Vec<Value> {
    logs.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["target"].as_str().is_some_and(|t| t.ends_with("access_log")))
        .collect()
}

#[tokio::test]
async fn json_logs_have_exactly_one_line_per_request() {
    let server = TestServer::start(
        ServerOptions {
            json_logs: true,
            ..ServerOptions::default()
        }
        .env("DISTILL_ENABLE_TEST_FAULTS", "true"),
    );
    let scrape_url = server.endpoint("/v2/scrape");
    let dns_host = format!("{}.com", "a".repeat(64));

    // (method, path, status, code) expected for each request, in order.
    let mut expected: Vec<(&str, &str, u16, &str)> = Vec::new();
    let ok = scrape(server.url(), &json!({ "url": site().url("/article.html") })).await;
    ok.assert_ok();
    expected.push(("POST", "/v2/scrape", 200, ""));
    scrape(server.url(), &json!({ "url": "ftp://127.0.0.1/" }))
        .await
        .assert_error(400, "BAD_REQUEST");
    expected.push(("POST", "/v2/scrape", 400, "BAD_REQUEST"));
    post_raw(&scrape_url, "{oops", &[])
        .await
        .assert_error(400, "BAD_REQUEST_INVALID_JSON");
    expected.push(("POST", "/v2/scrape", 400, "BAD_REQUEST_INVALID_JSON"));
    assert_eq!(get(&server.endpoint("/health")).await.status, 200);
    expected.push(("GET", "/health", 200, ""));
    get(&server.endpoint("/nope"))
        .await
        .assert_error(404, "NOT_FOUND");
    expected.push(("GET", "/nope", 404, "NOT_FOUND"));
    scrape(server.url(), &json!({ "url": site().url("/status/404") }))
        .await
        .assert_ok();
    expected.push(("POST", "/v2/scrape", 200, ""));
    let dns = scrape(server.url(), &json!({ "url": format!("http://{dns_host}/") })).await;
    assert_eq!(
        dns.code(),
        Some("SCRAPE_DNS_RESOLUTION_ERROR"),
        "{}",
        dns.pretty()
    );
    expected.push(("POST", "/v2/scrape", 200, "SCRAPE_DNS_RESOLUTION_ERROR"));
    scrape(
        server.url(),
        &json!({ "url": site().url("/slow?ms=4000"), "timeout": 1000 }),
    )
    .await
    .assert_error(408, "SCRAPE_TIMEOUT");
    expected.push(("POST", "/v2/scrape", 408, "SCRAPE_TIMEOUT"));
    let fault = scrape_with_headers(
        server.url(),
        &json!({ "url": site().url("/article.html") }),
        &[("x-distill-fault", "panic")],
    )
    .await;
    fault.assert_error(500, "UNKNOWN_ERROR");
    expected.push(("POST", "/v2/scrape", 500, "UNKNOWN_ERROR"));

    server.wait_for_logs(Duration::from_secs(10), |l| {
        access_lines(l).len() >= expected.len()
    });
    std::thread::sleep(Duration::from_millis(300)); // anything extra would show up now
    let logs = server.logs();
    let lines = access_lines(&logs);
    assert_eq!(lines.len(), expected.len(), "access log lines:\n{logs}");
    for (line, (method, path, status, code)) in lines.iter().zip(&expected) {
        let f = &line["fields"];
        assert_eq!(f["method"], *method, "{line}");
        assert_eq!(f["path"], *path, "{line}");
        assert_eq!(f["status"], *status, "{line}");
        if code.is_empty() {
            assert!(f["code"].as_str().unwrap_or("").is_empty(), "{line}");
            assert_eq!(line["level"], "INFO", "{line}");
        } else {
            assert_eq!(f["code"], *code, "{line}");
            let level = if *status >= 500 { "ERROR" } else { "WARN" };
            assert_eq!(line["level"], level, "{line}");
        }
        assert!(f["ms"].is_string() || f["ms"].is_number(), "no time in {line}");
        assert!(f["request"].is_string(), "no request id in {line}");
    }
    // The successful scrape's log line carries its scrapeId.
    assert_eq!(
        lines[0]["fields"]["request"],
        ok.metadata()["scrapeId"],
        "{}",
        lines[0]
    );
    // The UNKNOWN_ERROR id is logged as a field.
    let id = error_id(fault.error());
    assert!(
        logs.lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .any(|v| v["fields"]["error_id"] == id.as_str() && v["level"] == "ERROR"),
        "no ERROR line with error_id {id}:\n{logs}"
    );
}

#[tokio::test]
async fn json_logs_stay_json_when_a_scrape_panics() {
    let server = TestServer::start(
        ServerOptions {
            json_logs: true,
            ..ServerOptions::default()
        }
        .env("DISTILL_ENABLE_TEST_FAULTS", "true"),
    );
    let r = scrape_with_headers(
        server.url(),
        &json!({ "url": site().url("/article.html") }),
        &[("x-distill-fault", "panic")],
    )
    .await;
    r.assert_error(500, "UNKNOWN_ERROR");
    let id = error_id(r.error());
    let (found, logs) = server.wait_for_logs(Duration::from_secs(5), |l| l.contains(&id));
    assert!(found, "{logs}");
    std::thread::sleep(Duration::from_millis(200));
    let logs = server.logs();
    let stray: Vec<&str> = logs
        .lines()
        .filter(|l| !l.trim().is_empty() && serde_json::from_str::<Value>(l).is_err())
        .collect();
    assert!(
        stray.is_empty(),
        "non-JSON lines in DISTILL_LOG_FORMAT=json output:\n{}",
        stray.join("\n")
    );
}

#[tokio::test]
async fn starts_with_a_relative_data_dir() {
    // The documented default data dir ("distill-data") is relative too.
    let cwd = TempDir::new();
    let server = TestServer::start(ServerOptions {
        data_dir: Some("relative-data".into()),
        cwd: Some(cwd.path().to_path_buf()),
        ..ServerOptions::default()
    });
    let r = scrape(server.url(), &json!({ "url": site().url("/article.html") })).await;
    r.assert_ok();
    assert!(
        cwd.path().join("relative-data").is_dir(),
        "data dir not created under the working directory"
    );
}

#[tokio::test]
async fn without_plugins_markdown_is_unavailable_but_host_formats_work() {
    let server = TestServer::start(ServerOptions {
        plugins: Plugins::Empty,
        ..ServerOptions::default()
    });
    let r = scrape(server.url(), &json!({ "url": site().url("/article.html") })).await;
    r.assert_error(400, "FORMAT_NOT_AVAILABLE");
    assert!(r.error().contains("'markdown'"), "{}", r.pretty());
    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/article.html"), "formats": ["html", "links"] }),
    )
    .await;
    r.assert_ok();
    assert!(r.data_str("html").contains("Lichens on Old Walls"));
    let health = get(&server.endpoint("/health")).await;
    assert_eq!(health.json["plugins"], json!([]), "{}", health.pretty());
    let (found, logs) = server.wait_for_logs(Duration::from_secs(2), |l| l.contains("no plugins loaded"));
    assert!(found, "no warning about the empty plugins dir:\n{logs}");
}

#[tokio::test]
async fn plugins_are_listed_by_health_and_logged_at_load() {
    let server = TestServer::start(ServerOptions {
        plugins: Plugins::ShippedAnd(&["misbehave"]),
        ..ServerOptions::default()
    });
    let health = get(&server.endpoint("/health")).await;
    let mut names: Vec<&str> = health.json["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    names.sort();
    let mut expected: Vec<String> = std::fs::read_dir(distill_e2e::shipped_plugins_dir())
        .unwrap()
        .filter_map(|e| {
            e.unwrap()
                .file_name()
                .to_str()?
                .strip_suffix(".wasm")
                .map(str::to_string)
        })
        .chain(["misbehave".to_string()])
        .collect();
    expected.sort();
    assert!(expected.len() >= 12, "shipped plugins: {expected:?}");
    assert_eq!(names, expected, "{}", health.pretty());
    let kinds = |kind: &str| {
        health.json["plugins"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["kind"] == kind)
            .count()
    };
    assert_eq!(kinds("converter"), 10, "{}", health.pretty());
    let logs = server.logs();
    assert!(logs.contains("plugin loaded"), "{logs}");
    assert!(
        logs.contains("markdown.wasm") && logs.contains("misbehave.wasm"),
        "{logs}"
    );
}

#[tokio::test]
async fn pages_over_the_size_cap_are_refused() {
    let server = TestServer::start(ServerOptions::default().env("DISTILL_MAX_PAGE_BYTES", "100000"));
    let r = scrape(server.url(), &json!({ "url": site().url("/big?kb=300") })).await;
    r.assert_error(413, "SCRAPE_CONTENT_TOO_LARGE");
    assert!(r.error().contains("100000"), "{}", r.pretty());
    // Below the cap is fine.
    scrape(server.url(), &json!({ "url": site().url("/big?kb=50") }))
        .await
        .assert_ok();
}
