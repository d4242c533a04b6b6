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

/// The Rust SDK's job calls: a crawl to the end (documents, status), its
/// errors, a batch scrape with the SDK's own options and its errors, a map,
/// and a crawl cancelled half way.
#[tokio::test]
async fn sdk_crawls_batch_scrapes_maps_and_cancels() {
    use distill_e2e::crawl_site::{CrawlSite, SiteShape};
    use firecrawl::{BatchScrapeOptions, CrawlOptions, JobStatus, MapOptions, SitemapMode};
    let crawl_site = CrawlSite::start(SiteShape::default());
    let c = client();
    let crawl = c
        .crawl(
            crawl_site.url("/"),
            CrawlOptions {
                limit: Some(5),
                sitemap: Some(SitemapMode::Skip),
                poll_interval: Some(100),
                ..Default::default()
            },
        )
        .await
        .expect("SDK crawl");
    assert_eq!(crawl.status, JobStatus::Completed);
    assert_eq!((crawl.completed, crawl.total), (5, 5));
    assert_eq!(crawl.data.len(), 5);
    assert!(
        crawl
            .data
            .iter()
            .all(|d| d.markdown.as_deref().is_some_and(|m| !m.is_empty()))
    );
    assert_eq!(crawl.credits_used, Some(5));

    let good = site().url("/article.html");
    let missing = site().url("/no-such-page-for-the-rust-sdk");
    let batch = c
        .batch_scrape(
            vec![good.clone(), missing.clone()],
            BatchScrapeOptions {
                options: Some(ScrapeOptions {
                    formats: Some(vec![Format::Markdown]),
                    ..Default::default()
                }),
                poll_interval: Some(100),
                ..Default::default()
            },
        )
        .await
        .expect("SDK batch scrape");
    assert_eq!(batch.status, JobStatus::Completed);
    assert_eq!((batch.completed, batch.total), (2, 2));
    let by_url = |u: &str| {
        batch
            .data
            .iter()
            .find(|d| d.metadata.as_ref().and_then(|m| m.source_url.as_deref()) == Some(u))
            .unwrap_or_else(|| panic!("no document for {u}: {:?}", batch.data))
    };
    assert!(
        by_url(&good)
            .markdown
            .as_deref()
            .unwrap()
            .contains("Lichens on Old Walls")
    );
    // A 404 page is a document with its status, as upstream stores it.
    assert_eq!(by_url(&missing).metadata.as_ref().unwrap().status_code, Some(404));

    let map = c
        .map(
            crawl_site.url("/"),
            MapOptions {
                sitemap: Some(SitemapMode::Skip),
                ..Default::default()
            },
        )
        .await
        .expect("SDK map");
    assert!(map.links.len() >= 5, "{:?}", map.links);
    assert!(
        map.links.iter().all(|l| l.url.starts_with(&crawl_site.url("/"))),
        "{:?}",
        map.links
    );

    // A slow crawl, cancelled: the SDK reads the answer, the status says so.
    let slow = c
        .start_crawl(
            crawl_site.url("/"),
            CrawlOptions {
                sitemap: Some(SitemapMode::Skip),
                delay: Some(1),
                ..Default::default()
            },
        )
        .await
        .expect("SDK start_crawl");
    let cancelled = c.cancel_crawl(&slow.id).await.expect("SDK cancel_crawl");
    assert_eq!(cancelled.status, "cancelled");
    let status = c.get_crawl_status(&slow.id).await.expect("SDK get_crawl_status");
    assert_eq!(status.status, JobStatus::Cancelled);
    let errors = c.get_crawl_errors(&slow.id).await.expect("SDK get_crawl_errors");
    assert!(errors.robots_blocked.is_empty(), "{errors:?}");
    let errors = c.get_batch_scrape_errors(&slow.id).await;
    assert!(errors.is_err(), "a crawl id is not a batch: {errors:?}");
}

/// The Rust SDK's upload calls: the formats list and a parsed HTML file.
#[tokio::test]
async fn sdk_lists_parse_formats_and_parses_an_upload() {
    use firecrawl::{ParseFile, ParseOptions};
    let c = client();
    let formats = c.get_parse_formats().await.expect("SDK get_parse_formats");
    let html = formats
        .iter()
        .find(|f| f.format == "html")
        .expect("html is listed");
    assert!(
        html.available && html.extensions.contains(&".html".to_string()),
        "{html:?}"
    );
    let page = b"<html><head><title>Upload</title></head><body><article><h1>Granite</h1>\
        <p>Granite is a coarse-grained igneous rock made mostly of quartz and feldspar.</p></article></body></html>";
    let doc = c
        .parse(
            ParseFile::from_bytes("rock.html", page.to_vec()),
            None::<ParseOptions>,
        )
        .await
        .expect("SDK parse");
    let markdown = doc.markdown.as_deref().expect("markdown");
    assert!(
        markdown.contains("# Granite") && markdown.contains("quartz and feldspar"),
        "{markdown}"
    );
    assert_eq!(
        doc.metadata.as_ref().and_then(|m| m.title.as_deref()),
        Some("Upload")
    );
}
