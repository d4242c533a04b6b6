//! PDF through `POST /v2/parse` and scrape: `parsers` (default, `maxPages`,
//! modes fast/auto/ocr, `[]` = base64), page counts, GFM tables, and OCR run
//! locally by the host (tesseract + poppler, installed by `make setup`).

use base64::Engine;
use distill_e2e::{Plugins, ServerOptions, TestServer, parse_upload, read_document, shared};
use serde_json::{Value, json};

async fn parse_pdf(server: &str, name: &str, options: Option<Value>) -> distill_e2e::Reply {
    parse_upload(server, name, None, read_document(name), options.as_ref()).await
}

#[tokio::test]
async fn default_parser_converts_text_pdfs_with_tables_and_page_counts() {
    let r = parse_pdf(shared().url(), "report.pdf", None).await;
    r.assert_ok();
    let md = r.markdown();
    assert!(md.starts_with("# Quarterly Report"), "{}", r.pretty());
    assert!(
        md.contains("|North|Apples|1200|") && md.contains("|---|"),
        "no GFM table: {md}"
    );
    assert!(md.contains("## Outlook") && md.contains("## Appendix"), "{md}");
    assert_eq!(r.metadata()["numPages"], 3);
    assert_eq!(r.metadata()["totalPages"], 3);
    assert_eq!(r.metadata()["title"], "Quarterly Report");
    assert_eq!(r.metadata()["contentType"], "application/pdf");
    // The string form of a parser is accepted too.
    let r = parse_pdf(shared().url(), "report.pdf", Some(json!({"parsers": ["pdf"]}))).await;
    r.assert_ok();
    assert_eq!(r.metadata()["numPages"], 3);
}

#[tokio::test]
async fn max_pages_limits_the_pages_processed_and_reports_the_real_count() {
    let r = parse_pdf(
        shared().url(),
        "long-16p.pdf",
        Some(json!({"parsers": [{"type": "pdf", "maxPages": 2}]})),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.metadata()["numPages"], 2, "{}", r.pretty());
    assert_eq!(r.metadata()["totalPages"], 16);
    assert!(
        r.markdown().contains("# Chapter 2") && !r.markdown().contains("# Chapter 3"),
        "{}",
        r.pretty()
    );
    assert!(
        r.data()["warning"]
            .as_str()
            .unwrap_or("")
            .contains("first 2 of 16 pages"),
        "{}",
        r.pretty()
    );

    let r = parse_pdf(shared().url(), "long-16p.pdf", None).await;
    r.assert_ok();
    assert_eq!(r.metadata()["numPages"], 16);
    assert!(r.markdown().contains("# Chapter 12"));

    for bad in [json!(0), json!(10_001), json!("2")] {
        let r = parse_pdf(
            shared().url(),
            "report.pdf",
            Some(json!({"parsers": [{"type": "pdf", "maxPages": bad}]})),
        )
        .await;
        r.assert_error(400, "BAD_REQUEST");
    }
}

#[tokio::test]
async fn an_empty_parsers_list_returns_the_pdf_base64_encoded() {
    let bytes = read_document("report.pdf");
    let r = parse_upload(
        shared().url(),
        "report.pdf",
        None,
        bytes.clone(),
        Some(&json!({"parsers": []})),
    )
    .await;
    r.assert_ok();
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(r.markdown())
        .expect("markdown is base64");
    assert_eq!(decoded, bytes);
}

#[tokio::test]
async fn scanned_pages_are_read_by_ocr_in_auto_mode_and_skipped_in_fast_mode() {
    let server = shared().url();
    let r = parse_pdf(server, "scanned.pdf", None).await;
    r.assert_ok();
    assert!(
        r.markdown().contains("ACME Corporation"),
        "OCR text missing: {}",
        r.pretty()
    );
    assert!(r.markdown().contains("1,250.00"), "{}", r.pretty());
    assert_eq!(r.metadata()["ocrPages"], json!([1]));

    // A text page, a scanned page, a text page: only page 2 goes to OCR, in place.
    let r = parse_pdf(server, "mixed-scanned-page2.pdf", None).await;
    r.assert_ok();
    let md = r.markdown();
    let (a, b, c) = (
        md.find("Quarterly Report"),
        md.find("ACME Corporation"),
        md.find("## Appendix"),
    );
    assert!(a < b && b < c && a.is_some(), "page order lost: {md}");
    assert_eq!(r.metadata()["ocrPages"], json!([2]));

    let r = parse_pdf(
        server,
        "mixed-scanned-page2.pdf",
        Some(json!({"parsers": [{"type": "pdf", "mode": "fast"}]})),
    )
    .await;
    r.assert_ok();
    assert!(
        !r.markdown().contains("ACME"),
        "fast mode ran OCR: {}",
        r.pretty()
    );
    assert!(
        r.data()["warning"]
            .as_str()
            .unwrap_or("")
            .contains("no text layer"),
        "{}",
        r.pretty()
    );

    // mode ocr: every processed page is read from its image.
    let opts = json!({"parsers": [{"type": "pdf", "mode": "ocr", "maxPages": 1}]});
    let r = parse_pdf(server, "report.pdf", Some(opts)).await;
    r.assert_ok();
    assert_eq!(r.metadata()["ocrPages"], json!([1]), "{}", r.pretty());
    assert!(r.markdown().contains("third quarter"), "{}", r.pretty());
    assert!(
        !r.markdown().contains("**third quarter**"),
        "text layer used in ocr mode: {}",
        r.pretty()
    );
}

#[tokio::test]
async fn without_ocr_tools_the_response_says_so() {
    // No tesseract/pdftoppm on PATH: the server starts, converts the text it has and warns.
    let server = TestServer::start(
        ServerOptions {
            plugins: Plugins::Shipped,
            ..ServerOptions::default()
        }
        .env("PATH", "/nonexistent"),
    );
    let r = parse_pdf(server.url(), "scanned.pdf", None).await;
    r.assert_ok();
    let warning = r.data()["warning"].as_str().unwrap_or("");
    assert!(warning.contains("OCR is not available"), "{}", r.pretty());
    let r = parse_pdf(server.url(), "report.pdf", None).await;
    r.assert_ok();
    assert!(r.data()["warning"].is_null(), "{}", r.pretty());
}
