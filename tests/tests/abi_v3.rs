//! Plugin ABI 0.3 over HTTP: a format that consumes other formats gets them
//! rendered first and handed over (and one that reads only the cleaned HTML
//! gets no raw HTML); converter options from a request's
//! `parsers` entry reach the converter typed (and bad ones are refused with
//! 400 before it runs); a plugin waiting on the model gives its call slot back
//! so other formats keep rendering.

use axum::Router;
use axum::routing::post;
use distill_e2e::{
    Plugins, ServerOptions, TestServer, parse_upload, plugins_dir_with, read_document, scrape, site,
};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A server with the shipped plugins and the `consumer` test plugin (its
/// format `digest` consumes markdown and links, and reads only the cleaned HTML).
fn consumer_server() -> TestServer {
    TestServer::start(ServerOptions {
        plugins: Plugins::Dir(plugins_dir_with(&["consumer"])),
        ..ServerOptions::default()
    })
}

#[tokio::test]
async fn a_format_gets_the_markdown_and_links_it_consumes() {
    let server = consumer_server();
    let url = site().url("/article.html");
    // Only `digest` is requested: markdown and links are rendered for it but
    // not returned.
    let r = scrape(
        server.url(),
        &json!({ "url": url, "formats": [{ "type": "digest", "lines": 1 }] }),
    )
    .await;
    r.assert_ok();
    let digest = &r.data()["digest"];
    assert_eq!(digest["inputs"], json!(["markdown", "links"]), "{}", r.pretty());
    assert!(
        r.data().get("markdown").is_none() && r.data().get("links").is_none(),
        "{}",
        r.pretty()
    );

    // With markdown and links requested too, the digest saw exactly what the
    // response carries.
    let r = scrape(
        server.url(),
        &json!({ "url": url, "formats": ["markdown", "links", "digest"] }),
    )
    .await;
    r.assert_ok();
    let data = r.data();
    let markdown = data["markdown"].as_str().unwrap();
    let first_line = markdown.lines().find(|l| !l.trim().is_empty()).unwrap();
    assert_eq!(data["digest"]["firstLines"], json!([first_line]));
    assert_eq!(data["digest"]["markdownChars"], json!(markdown.chars().count()));
    assert_eq!(
        data["digest"]["links"],
        json!(data["links"].as_array().unwrap().len())
    );
    assert!(data["digest"]["links"].as_u64().unwrap() > 0, "{}", r.pretty());

    // Its own options are still checked by the plugin.
    let r = scrape(
        server.url(),
        &json!({ "url": url, "formats": [{ "type": "digest", "lines": 0 }] }),
    )
    .await;
    r.assert_error(400, "BAD_REQUEST");
}

#[tokio::test]
async fn a_format_that_reads_only_the_cleaned_html_gets_no_raw_html() {
    // `digest` declares `page:cleaned-html`: the host does not copy the raw
    // HTML into its call, and still returns `rawHtml` when asked for it.
    let server = consumer_server();
    let url = site().url("/article.html");
    let r = scrape(
        server.url(),
        &json!({ "url": url, "formats": ["digest", "html", "rawHtml"] }),
    )
    .await;
    r.assert_ok();
    let digest = &r.data()["digest"];
    assert_eq!(digest["rawHtmlChars"], json!(0), "{}", r.pretty());
    assert_eq!(
        digest["cleanedHtmlChars"],
        json!(r.data_str("html").chars().count()),
        "{}",
        r.pretty()
    );
    assert!(r.data_str("rawHtml").contains("<html"), "{}", r.pretty());

    // Beside a plugin that reads every part (`product` declares none), the
    // page carries the raw HTML and `digest` still gets none.
    let r = scrape(
        server.url(),
        &json!({ "url": url, "formats": ["digest", "product"] }),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.data()["digest"]["rawHtmlChars"], json!(0), "{}", r.pretty());

    // A body that is not HTML has no cleaned form: its raw text is passed.
    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/api/items"), "formats": ["digest", "rawHtml"] }),
    )
    .await;
    r.assert_ok();
    assert_eq!(
        r.data()["digest"]["rawHtmlChars"],
        json!(r.data_str("rawHtml").chars().count()),
        "{}",
        r.pretty()
    );
    assert!(r.data()["digest"]["rawHtmlChars"].as_u64().unwrap() > 0);
}

#[tokio::test]
async fn converter_options_from_parsers_reach_the_converter_typed() {
    let server = distill_e2e::shared();
    let options = json!({ "parsers": [{ "type": "spreadsheet", "maxRowsPerSheet": 2 }] });
    let r = parse_upload(
        server.url(),
        "workbook.xlsx",
        None,
        read_document("workbook.xlsx"),
        Some(&options),
    )
    .await;
    r.assert_ok();
    let warning = r.data()["warning"].as_str().unwrap_or_default();
    assert!(
        warning.contains("only the first 2 rows are included (maxRowsPerSheet 2)"),
        "{}",
        r.pretty()
    );
    assert!(
        r.markdown().contains("| Region | Date | Amount | Ratio |"),
        "{}",
        r.pretty()
    );
    assert!(
        !r.markdown().contains("| East & \\<West> |"),
        "the third row is cut: {}",
        r.pretty()
    );

    // Out of the declared bounds, of the wrong type, or unknown: 400 naming it.
    for (bad, says) in [
        (
            json!({ "type": "spreadsheet", "maxRowsPerSheet": 0 }),
            "from 1 to 100000",
        ),
        (
            json!({ "type": "spreadsheet", "maxRowsPerSheet": "two" }),
            "must be an integer",
        ),
        (
            json!({ "type": "spreadsheet", "colour": "red" }),
            "has no option 'colour'",
        ),
    ] {
        let options = json!({ "parsers": [bad] });
        let r = parse_upload(
            server.url(),
            "workbook.xlsx",
            None,
            read_document("workbook.xlsx"),
            Some(&options),
        )
        .await;
        r.assert_error(400, "BAD_REQUEST");
        assert!(r.json["error"].as_str().unwrap().contains(says), "{}", r.pretty());
    }

    // A parser type nothing declares is refused by validation, as upstream does.
    let options = json!({ "parsers": [{ "type": "nonesuch" }] });
    let r = parse_upload(
        server.url(),
        "workbook.xlsx",
        None,
        read_document("workbook.xlsx"),
        Some(&options),
    )
    .await;
    r.assert_error(400, "BAD_REQUEST");
}

#[tokio::test]
async fn a_pdf_with_an_explicit_parser_list_without_pdf_comes_back_base64() {
    let server = distill_e2e::shared();
    // Naming only the spreadsheet parser switches the PDF parser off (upstream's rule).
    let options = json!({ "parsers": [{ "type": "spreadsheet" }] });
    let r = parse_upload(
        server.url(),
        "report.pdf",
        None,
        read_document("report.pdf"),
        Some(&options),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().starts_with("JVBERi0"), "{}", r.pretty());
}

/// An OpenAI-compatible endpoint on loopback that answers after `delay`;
/// the flag turns true just before it answers.
async fn slow_model(delay: Duration) -> (String, Arc<AtomicBool>) {
    let answered = Arc::new(AtomicBool::new(false));
    let flag = answered.clone();
    let app = Router::new().route(
        "/v1/chat/completions",
        post(move || {
            let flag = flag.clone();
            async move {
                tokio::time::sleep(delay).await;
                flag.store(true, Ordering::SeqCst);
                let body =
                    json!({ "choices": [{ "message": { "role": "assistant", "content": "slow answer" } }] });
                ([("content-type", "application/json")], body.to_string())
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/v1"), answered)
}

#[tokio::test]
async fn a_plugin_waiting_on_the_model_does_not_hold_the_only_call_slot() {
    let (model, answered) = slow_model(Duration::from_secs(4)).await;
    let server = TestServer::start(
        ServerOptions {
            plugins: Plugins::Dir(plugins_dir_with(&["misbehave"])),
            ..ServerOptions::default()
        }
        .env("DISTILL_PLUGIN_CONCURRENCY", "1")
        .env("DISTILL_LLM_BASE_URL", &model)
        .env("DISTILL_LLM_MODEL", "test-model"),
    );
    let url = site().url("/article.html");
    let slow_body =
        json!({ "url": url, "formats": [{ "type": "misbehave", "mode": "llm" }], "timeout": 30000 });
    let base = server.url().to_string();
    let slow = tokio::spawn(async move { scrape(&base, &slow_body).await });
    // Let the slow call take the only slot and reach the model.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert!(!answered.load(Ordering::SeqCst));

    // Markdown needs the same (only) slot: it is served while the model call
    // waits. Were the slot held, it could only run after the model answered.
    let r = scrape(server.url(), &json!({ "url": url, "formats": ["markdown"] })).await;
    r.assert_ok();
    assert!(
        !answered.load(Ordering::SeqCst),
        "markdown had to wait for the model call to finish"
    );

    let r = slow.await.unwrap();
    r.assert_ok();
    assert_eq!(
        r.data()["misbehave"],
        json!({ "ok": "slow answer" }),
        "{}",
        r.pretty()
    );
}
