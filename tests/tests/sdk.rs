//! The official Firecrawl Rust SDK (`firecrawl` 2.21.8) against Distill:
//! self-hosted client without an API key, typed scrape options, metadata
//! deserialization, and how the SDK surfaces Distill's errors
//! (compat notes §12).

use distill_e2e::{shared, site};
use firecrawl::{Client, FirecrawlAPIError, FirecrawlError, Format, ProxyType, ScrapeOptions};
use std::collections::HashMap;

fn client() -> Client {
    Client::new_selfhosted(shared().url(), None::<&str>).expect("self-hosted client without a key")
}

/// The API error inside an SDK error, or a panic describing what came instead.
fn api_error(result: Result<firecrawl::Document, FirecrawlError>) -> FirecrawlAPIError {
    match result {
        Err(FirecrawlError::APIError(action, e)) => {
            assert_eq!(action, "scrape");
            assert!(!e.success);
            e
        }
        Err(other) => panic!("expected FirecrawlError::APIError, got {other:?}"),
        Ok(doc) => panic!("expected an error, got a document: {doc:?}"),
    }
}

#[tokio::test]
async fn sdk_scrapes_markdown_html_and_links_with_metadata() {
    let url = site().url("/article.html");
    let doc = client()
        .scrape(
            &url,
            ScrapeOptions {
                formats: Some(vec![Format::Markdown, Format::Html, Format::Links]),
                only_main_content: Some(true),
                ..Default::default()
            },
        )
        .await
        .expect("SDK scrape");
    let markdown = doc.markdown.as_deref().expect("markdown");
    assert!(markdown.contains("# Lichens on Old Walls"), "{markdown}");
    assert!(!markdown.contains("FOOTERMARKER"), "{markdown}");
    let html = doc.html.as_deref().expect("html");
    assert!(
        html.contains("<h1>Lichens on Old Walls</h1>") && !html.contains("<script"),
        "{html}"
    );
    let links = doc.links.as_ref().expect("links");
    assert!(links.contains(&site().url("/notes/appendix.html")), "{links:?}");
    assert!(
        doc.raw_html.is_none() && doc.images.is_none(),
        "only requested formats come back"
    );

    let m = doc.metadata.as_ref().expect("metadata");
    assert_eq!(m.title.as_deref(), Some("Field Notes on Lichens"));
    assert_eq!(
        m.description.as_deref(),
        Some("A short article about lichens on old stone walls.")
    );
    assert_eq!(m.language.as_deref(), Some("en-GB"));
    assert_eq!(m.og_title.as_deref(), Some("Lichens: Field Notes"));
    assert_eq!(
        m.og_locale_alternate.as_deref(),
        Some(&["fr_FR".to_string(), "de_DE".to_string()][..])
    );
    assert_eq!(m.source_url.as_deref(), Some(url.as_str()));
    assert_eq!(m.status_code, Some(200));
    assert_eq!(m.content_type.as_deref(), Some("text/html; charset=utf-8"));
    assert!(
        m.scrape_id.as_deref().is_some_and(|id| id.len() == 36),
        "{:?}",
        m.scrape_id
    );
    assert!(m.error.is_none());
}

#[tokio::test]
async fn sdk_default_scrape_returns_markdown() {
    let doc = client()
        .scrape(site().url("/layout.html"), None)
        .await
        .expect("SDK scrape");
    let markdown = doc.markdown.expect("markdown is the default format");
    assert!(markdown.contains("# Main Story"), "{markdown}");
    assert!(doc.html.is_none());
}

#[tokio::test]
async fn sdk_typed_options_pass_strict_validation() {
    let headers = HashMap::from([("X-Sdk-Test".to_string(), "yes".to_string())]);
    let doc = client()
        .scrape(
            site().url("/echo-headers"),
            ScrapeOptions {
                formats: Some(vec![Format::RawHtml, Format::Images, Format::Markdown]),
                headers: Some(headers),
                include_tags: Some(vec!["main".into()]),
                exclude_tags: Some(vec!["h1".into()]),
                only_main_content: Some(false),
                timeout: Some(30_000),
                wait_for: Some(0),
                mobile: Some(false),
                skip_tls_verification: Some(true),
                remove_base64_images: Some(true),
                block_ads: Some(true),
                proxy: Some(ProxyType::Basic),
                store_in_cache: Some(false),
                integration: Some("distill-e2e".into()),
                ..Default::default()
            },
        )
        .await
        .expect("SDK scrape with many options");
    let raw = doc.raw_html.as_deref().expect("rawHtml");
    assert!(raw.contains("<li id=\"h-x-sdk-test\">yes</li>"), "{raw}");
    let markdown = doc.markdown.as_deref().expect("markdown");
    assert!(
        !markdown.contains("Request headers"),
        "excludeTags h1 ignored: {markdown}"
    );
    assert!(doc.images.is_some());
}

#[tokio::test]
async fn sdk_fast_mode_and_stealth_proxy_are_accepted() {
    // Both are typed SDK options and part of upstream's strict v2 schema
    // (`fastMode: z.boolean()`, `proxy: z.enum(["basic","stealth","enhanced","auto"])`).
    let doc = client()
        .scrape(
            site().url("/article.html"),
            ScrapeOptions {
                fast_mode: Some(true),
                proxy: Some(ProxyType::Stealth),
                ..Default::default()
            },
        )
        .await
        .expect("upstream accepts fastMode and proxy=stealth");
    assert!(doc.markdown.is_some());
}

#[tokio::test]
async fn sdk_surfaces_validation_errors_as_api_errors() {
    let e = api_error(client().scrape("ftp://127.0.0.1/file.txt", None).await);
    assert_eq!(e.code.as_deref(), Some("BAD_REQUEST"));
    assert_eq!(e.error, "URL uses unsupported protocol");
    let details = e.details.expect("zod-like details");
    assert_eq!(details[0]["path"], serde_json::json!(["url"]), "{details}");
}

#[tokio::test]
async fn sdk_sees_a_404_target_as_a_document_with_status() {
    let doc = client()
        .scrape(site().url("/status/404"), None)
        .await
        .expect("a 404 page is a successful scrape");
    let m = doc.metadata.expect("metadata");
    assert_eq!(m.status_code, Some(404));
    assert_eq!(m.error.as_deref(), Some("Not Found"));
    assert!(doc.markdown.unwrap_or_default().contains("Nothing lives here"));
}

#[tokio::test]
async fn sdk_surfaces_timeouts_dns_failures_and_unavailable_formats() {
    let c = client();
    let e = api_error(
        c.scrape(
            site().url("/slow?ms=5000"),
            ScrapeOptions {
                timeout: Some(1000),
                ..Default::default()
            },
        )
        .await,
    );
    assert_eq!(e.code.as_deref(), Some("SCRAPE_TIMEOUT"), "{e}");

    // HTTP 200 with success:false is still an error for the SDK.
    let host = format!("{}.com", "a".repeat(64));
    let e = api_error(c.scrape(format!("http://{host}/"), None).await);
    assert_eq!(e.code.as_deref(), Some("SCRAPE_DNS_RESOLUTION_ERROR"), "{e}");
    assert!(e.error.contains(&host), "{e}");

    // A server without the branding plugin.
    let without = distill_e2e::TestServer::start(distill_e2e::ServerOptions {
        plugins: distill_e2e::Plugins::Dir(distill_e2e::plugins_dir_without(&["branding"])),
        ..Default::default()
    });
    let c = Client::new_selfhosted(without.url(), None::<&str>).expect("client");
    let e = api_error(
        c.scrape(
            site().url("/article.html"),
            ScrapeOptions {
                formats: Some(vec![Format::Markdown, Format::Branding]),
                ..Default::default()
            },
        )
        .await,
    );
    assert_eq!(e.code.as_deref(), Some("FORMAT_NOT_AVAILABLE"), "{e}");
    assert!(e.error.contains("'branding'"), "{e}");
}
