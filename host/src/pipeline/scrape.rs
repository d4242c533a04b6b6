//! One `/v2/scrape` request from validated options to the response's `data`:
//! checks, the page cache (`cached`), fetch, then either the HTML path or —
//! for a URL serving a document (by content type or extension) — the converter
//! path; then `changeTracking` (`track`). The whole is bounded by the
//! request's deadline ([`backstop`]).

use super::backstop::{self, Stage, Step};
use super::cached::{self, Source, StoredHit};
use super::document::convert;
use super::error::{Origin, PipelineError};
use super::media_formats::media_format;
use super::produce::{Content, produce};
use super::response::add_engine_data;
use super::track;
use crate::api::formats::HOST_FORMATS;
use crate::api::parse_request::extension_of;
use crate::api::{ScrapeOptions, ScrapeRequest};
use crate::cache::escaped::Escaped;
use crate::cache::policy::{self, Decision};
use crate::cache::store::now_ms;
use crate::fetch::browser::branding::SNAPSHOT;
use crate::fetch::{ENGINE_FALLBACK, ENGINE_USED, ENGINE_WARNING, FetchedPage, PROXY_USED};
use crate::plugins::bindings::FileInput;
use crate::plugins::log_privacy;
use crate::plugins::{LoadedPlugin, Registry};
use crate::services::Services;
use distill_html::PageText;
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A scrape's `data`: built by this request, or a stored response (a cache
/// hit, served without parsing it).
#[derive(Debug)]
pub enum Data {
    Built(Value),
    /// Built by this request and stored: its long strings, escaped for the
    /// stored copy, are written into the response as they are.
    Escaped(Value, Escaped),
    Stored(StoredHit),
}

impl Data {
    /// As a JSON value (parses a stored response).
    pub fn into_value(self) -> Result<Value, PipelineError> {
        Ok(self.into_parts()?.0)
    }

    /// As a JSON value, with the escapes of its strings if it has them.
    pub fn into_parts(self) -> Result<(Value, Option<Escaped>), PipelineError> {
        match self {
            Data::Built(v) => Ok((v, None)),
            Data::Escaped(v, escaped) => Ok((v, Some(escaped))),
            Data::Stored(hit) => Ok((hit.into_value()?, None)),
        }
    }
}

impl From<Value> for Data {
    fn from(v: Value) -> Self {
        Data::Built(v)
    }
}

/// [`scrape_data`] as a JSON value.
pub async fn scrape(
    services: &Services,
    req: &ScrapeRequest,
    scrape_id: &str,
) -> Result<Value, PipelineError> {
    scrape_data(services, req, scrape_id).await?.into_value()
}

/// Scrapes `req.url` and returns the response's `data`: from the page cache
/// when it may answer (a stored response, or a stored page rendered again),
/// else from a live fetch (coalesced with identical concurrent requests),
/// which is then stored as far as the privacy rules allow. The request's
/// `timeout` counts from now.
pub async fn scrape_data(
    services: &Services,
    req: &ScrapeRequest,
    scrape_id: &str,
) -> Result<Data, PipelineError> {
    let deadline = Instant::now() + Duration::from_millis(req.options.timeout_ms);
    scrape_data_until(services, req, scrape_id, deadline).await
}

/// [`scrape_data`] by `deadline` (the route's: its wait for a concurrency
/// slot counts), ended by the [`backstop`] if some wait outlives it.
pub async fn scrape_data_until(
    services: &Services,
    req: &ScrapeRequest,
    scrape_id: &str,
    deadline: Instant,
) -> Result<Data, PipelineError> {
    let private = !policy::may_log_url(&req.options);
    let stage = Stage::default();
    // Boxed: the backstop and the log scope then move a pointer, not the
    // pipeline's state machine (several KB, copied at every move).
    let work = Box::pin(scrape_inner(services, req, scrape_id, deadline, &stage));
    let bounded = backstop::within("scrape", deadline, req.options.timeout_ms, &stage, work);
    log_privacy::private(private, bounded).await
}

async fn scrape_inner(
    services: &Services,
    req: &ScrapeRequest,
    scrape_id: &str,
    deadline: Instant,
    stage: &Stage,
) -> Result<Data, PipelineError> {
    let opts = &req.options;
    let registry = services.plugins.registry();
    check_formats(&registry, opts)?;
    let selected = services.engines.select(opts).map_err(PipelineError::NoEngine)?;
    let warnings: Vec<String> = selected.warning.into_iter().collect();
    stage.at(Step::CacheLookup);
    let (source, keys) = cached::lookup(services, req, scrape_id).await?;
    let (fetched, decision, fetched_at) = match source {
        Source::Document(hit) => return Ok(Data::Stored(hit)),
        Source::Page(page, decision) => {
            let Decision::Serve { stored_at_ms } = decision else {
                return Err(PipelineError::internal("a stored page without a hit decision"));
            };
            (Arc::from(page), decision, stored_at_ms)
        }
        Source::Fetch(decision) => {
            stage.at(Step::Fetching);
            let (page, fetched_at) =
                cached::fetch(services, &selected.engine, req, keys.as_ref(), deadline).await?;
            (page, decision, fetched_at)
        }
    };
    let steps = (deadline, stage);
    let mut data = render_fetched(services, &registry, req, &fetched, scrape_id, steps, warnings).await?;
    stage.at(Step::Storing);
    let escaped = cached::save_result(services, req, keys.as_ref(), &data, fetched_at).await;
    policy::annotate(&mut data, &decision);
    stage.at(Step::Tracking);
    track::track(services, req, &mut data, now_ms(), deadline).await;
    Ok(match escaped {
        Some(escaped) => Data::Escaped(data, escaped),
        None => Data::Built(data),
    })
}

/// Turns a fetched (or stored) page into `data`: the converter path for a
/// document, else the HTML path.
async fn render_fetched(
    services: &Services,
    registry: &Registry,
    req: &ScrapeRequest,
    fetched: &FetchedPage,
    scrape_id: &str,
    (deadline, stage): (Instant, &Stage),
    mut warnings: Vec<String>,
) -> Result<Value, PipelineError> {
    let opts = &req.options;
    let mut content = Content {
        html: PageText::default(),
        markdown: None,
        requested_url: req.url.to_string(),
        final_url: fetched.final_url.clone(),
        source_url: req.url_as_sent.clone(),
        status: fetched.status,
        content_type: fetched.content_type.clone(),
        extra_metadata: Map::new(),
        is_document: false,
        engine_inputs: Map::new(),
    };
    // Engine data a plugin consumes (the branding snapshot) is its input,
    // not a response field.
    let mut engine_data = fetched.engine_data.clone();
    if let Some(snapshot) = engine_data.remove(SNAPSHOT) {
        content.engine_inputs.insert(SNAPSHOT.into(), snapshot);
    }
    // The proxy tier is metadata (engines without proxies fetch directly: "basic").
    let proxy_used = engine_data.remove(PROXY_USED).unwrap_or_else(|| "basic".into());
    // So are the engine that served the page and why the browser took over
    // (absent from pages stored before engines were recorded).
    let engine_fields: Vec<(&str, Value)> = [ENGINE_USED, ENGINE_FALLBACK]
        .into_iter()
        .filter_map(|key| Some((key, engine_data.remove(key)?)))
        .collect();
    if let Some(Value::String(warning)) = engine_data.remove(ENGINE_WARNING) {
        warnings.push(warning);
    }
    match document_converter(registry, fetched) {
        Some(plugin) if (200..300).contains(&fetched.status) => {
            let file = FileInput {
                name: file_name(fetched),
                content_type: fetched.content_type.clone(),
                bytes: fetched.body.to_vec(),
            };
            stage.at(Step::Converting);
            let converted =
                convert(services, &plugin, file, opts, scrape_id, deadline, Origin::Scrape).await?;
            content.html = PageText::from(converted.html);
            content.markdown = converted.markdown;
            content.extra_metadata = converted.metadata;
            content.is_document = true;
            warnings.extend(converted.warnings);
        }
        _ => content.html = PageText::decode(&fetched.body, fetched.content_type.as_deref()),
    }
    stage.at(Step::Producing);
    let mut data = produce(services, registry, content, opts, scrape_id, deadline, warnings).await?;
    if let Some(Value::Object(metadata)) = data.get_mut("metadata") {
        metadata.insert(PROXY_USED.into(), proxy_used);
        for (key, value) in engine_fields {
            metadata.insert(key.into(), value);
        }
    }
    Ok(add_engine_data(data, engine_data))
}

/// Every requested format must be served by the host or a loaded plugin.
pub fn check_formats(registry: &Registry, opts: &ScrapeOptions) -> Result<(), PipelineError> {
    for f in &opts.formats {
        let served = HOST_FORMATS.contains(&f.name.as_str())
            || f.name == "changeTracking"
            || registry.format(&f.name).is_some();
        if !served && f.name != "screenshot" {
            return Err(PipelineError::FormatUnavailable {
                format: f.name.clone(),
            });
        }
    }
    if opts.zero_data_retention
        && let Some(format) = media_format(registry, opts)
    {
        return Err(PipelineError::StoresMedia { format });
    }
    Ok(())
}

/// The converter for a fetched response that is a document: by its MIME type
/// (unless it is HTML or plain text), else by the URL path's extension.
fn document_converter(registry: &Registry, page: &FetchedPage) -> Option<Arc<LoadedPlugin>> {
    let mime = page
        .content_type
        .as_deref()
        .and_then(|ct| ct.split(';').next())
        .map(|m| m.trim().to_ascii_lowercase())
        .unwrap_or_default();
    if mime.contains("html") || mime == "text/plain" || mime == "application/json" {
        return None;
    }
    if let Some(plugin) = registry.converter_for_content_type(&mime) {
        return Some(plugin.clone());
    }
    let ext = extension_of(page.final_url.path())?;
    registry.converter_for_extension(&ext).cloned()
}

/// A file name for a fetched document: the last path segment, decoded.
fn file_name(page: &FetchedPage) -> String {
    let segment = page
        .final_url
        .path_segments()
        .and_then(|mut s| s.next_back())
        .filter(|s| !s.is_empty())
        .unwrap_or("document");
    percent_decode(segment)
}

fn percent_decode(s: &str) -> String {
    url::form_urlencoded::parse(format!("x={}", s.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| s.to_string())
}

#[cfg(test)]
mod tests {
    //! The pipeline run directly on `Services`, with no HTTP server of ours:
    //! a loopback origin serves one page.
    use super::*;
    use crate::config::{Cli, Config};
    use clap::Parser;
    use serde_json::json;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    const PAGE: &str = "<html><head><title>Seams</title></head><body><nav><a href='/home'>Home</a></nav>\
        <article><h1>Pipelines without servers</h1><p>The pipeline depends on services, \
        not on the HTTP server, so a worker can call it. <a href='/more'>More</a></p></article></body></html>";

    /// Serves `PAGE` to every connection on a loopback port.
    async fn origin() -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let mut buf = [0u8; 4096];
                let _ = socket.read(&mut buf).await;
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    PAGE.len()
                );
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(PAGE.as_bytes()).await;
            }
        });
        format!("http://{addr}/page")
    }

    async fn services(dir: &std::path::Path) -> Services {
        let plugins = dir.join("plugins");
        std::fs::create_dir_all(&plugins).unwrap();
        let cli = Cli::parse_from([
            "distill",
            "--plugins-dir",
            plugins.to_str().unwrap(),
            "--data-dir",
            dir.join("data").to_str().unwrap(),
            "--allow-private-targets",
            "--watch-plugins",
            "false",
        ]);
        Services::start(&Config::from_cli(cli).unwrap()).await.unwrap()
    }

    fn request(body: serde_json::Value) -> ScrapeRequest {
        ScrapeRequest::from_json(&body, &|_: &str| false).unwrap()
    }

    #[tokio::test]
    async fn scrapes_a_page_with_services_alone() {
        let dir = std::env::temp_dir().join(format!("distill-pipeline-{}", uuid::Uuid::now_v7()));
        let services = services(&dir).await;
        let url = origin().await;

        let req = request(json!({ "url": url, "formats": ["html", "links", "rawHtml"] }));
        let data = scrape(&services, &req, "test-1").await.unwrap();
        assert_eq!(data["metadata"]["statusCode"], json!(200));
        assert_eq!(data["metadata"]["title"], json!("Seams"));
        assert_eq!(data["rawHtml"], json!(PAGE));
        let html = data["html"].as_str().unwrap();
        assert!(
            html.contains("Pipelines without servers") && !html.contains("<nav"),
            "{html}"
        );
        let links = data["links"].as_array().unwrap();
        assert!(
            links.iter().any(|l| l.as_str().unwrap().ends_with("/more")),
            "{links:?}"
        );
        assert!(data.get("warning").is_none());
        assert_eq!(data["metadata"]["cacheState"], json!("miss"));

        // The same request again: the stored response, with this request's id.
        let again = scrape(&services, &req, "test-1b").await.unwrap();
        assert_eq!(again["metadata"]["cacheState"], json!("hit"));
        assert_eq!(again["metadata"]["scrapeId"], json!("test-1b"));
        assert!(again["metadata"]["cachedAt"].is_string(), "{again}");
        assert_eq!(again["html"], data["html"]);

        // A feature no engine honours: the page still comes (over HTTP), with upstream's warning.
        let req = request(json!({ "url": url, "formats": ["html"], "proxy": "enhanced" }));
        let data = scrape(&services, &req, "test-2").await.unwrap();
        assert!(
            data["warning"]
                .as_str()
                .unwrap()
                .contains("following features: stealthProxy"),
            "{data}"
        );

        // Failures are the pipeline's own, not HTTP responses.
        let req = request(json!({ "url": url, "formats": ["markdown"] }));
        assert!(matches!(
            scrape(&services, &req, "t").await,
            Err(PipelineError::FormatUnavailable { format }) if format == "markdown"
        ));
        // (Actions now have the browser engine; their refusal is fetch/select's test.)
        // Lockdown: a page never fetched is a miss; the page fetched above is a hit.
        let never = format!("{url}?never-fetched");
        let req = request(json!({ "url": never, "formats": ["html"], "lockdown": true }));
        assert!(matches!(
            scrape(&services, &req, "t").await,
            Err(PipelineError::LockdownCacheMiss)
        ));
        let req = request(json!({ "url": url, "formats": ["html"], "lockdown": true }));
        let data = scrape(&services, &req, "t").await.unwrap();
        assert_eq!(data["metadata"]["cacheState"], json!("hit"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
