//! One `/v2/scrape` request from validated options to the response's `data`:
//! checks, fetch, then either the HTML path or — for a URL serving a document
//! (by content type or extension) — the converter path.

use super::document::{Origin, convert};
use super::errors::fetch_error;
use super::produce::{Content, produce};
use crate::api::formats::HOST_FORMATS;
use crate::api::parse_request::extension_of;
use crate::api::{ApiError, ScrapeOptions, ScrapeRequest};
use crate::fetch::FetchedPage;
use crate::fetch::http::FetchRequest;
use crate::plugins::bindings::FileInput;
use crate::plugins::{LoadedPlugin, Registry};
use crate::server::AppState;
use axum::http::StatusCode;
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Scrapes `req.url` and returns the response's `data`.
pub async fn scrape(state: &AppState, req: &ScrapeRequest, scrape_id: &str) -> Result<Value, ApiError> {
    let opts = &req.options;
    let deadline = Instant::now() + Duration::from_millis(opts.timeout_ms);
    let registry = state.runtime.registry();
    check_formats(&registry, opts)?;
    if !opts.actions.is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "SCRAPE_ACTIONS_NOT_SUPPORTED",
            "Actions are not supported by any available engines. Actions need the browser engine, \
             which this server does not have yet.",
        ));
    }
    // There is no page cache yet: cache-only requests can never be answered.
    if opts.lockdown {
        return Err(ApiError::lockdown_miss());
    }
    if opts.min_age_ms.is_some() {
        return Err(ApiError::no_cached_data());
    }
    let mut warnings = Vec::new();
    let unsupported = unsupported_features(opts);
    if !unsupported.is_empty() {
        warnings.push(format!(
            "The engine used does not support the following features: {} -- your scrape may be partial.",
            unsupported.join(", ")
        ));
    }

    let fetched = state
        .fetcher
        .fetch(FetchRequest {
            url: &req.url,
            headers: &opts.headers,
            skip_tls_verification: opts.skip_tls_verification,
            deadline,
        })
        .await
        .map_err(|e| fetch_error(e, opts.timeout_ms))?;

    let mut content = Content {
        html: String::new(),
        markdown: None,
        requested_url: req.url.to_string(),
        final_url: fetched.final_url.clone(),
        source_url: req.url_as_sent.clone(),
        status: fetched.status,
        content_type: fetched.content_type.clone(),
        extra_metadata: Map::new(),
        is_document: false,
    };
    match document_converter(&registry, &fetched) {
        Some(plugin) if (200..300).contains(&fetched.status) => {
            let file = FileInput {
                name: file_name(&fetched),
                content_type: fetched.content_type.clone(),
                bytes: fetched.body.to_vec(),
            };
            let converted = convert(state, &plugin, file, opts, scrape_id, deadline, Origin::Scrape).await?;
            content.html = converted.html;
            content.markdown = converted.markdown;
            content.extra_metadata = converted.metadata;
            content.is_document = true;
            warnings.extend(converted.warnings);
        }
        _ => content.html = distill_html::decode_html(&fetched.body, fetched.content_type.as_deref()),
    }
    produce(state, &registry, content, opts, scrape_id, deadline, warnings).await
}

/// Every requested format must be served by the host or a loaded plugin.
pub fn check_formats(registry: &Registry, opts: &ScrapeOptions) -> Result<(), ApiError> {
    for f in &opts.formats {
        let served = HOST_FORMATS.contains(&f.name.as_str()) || registry.format(&f.name).is_some();
        if !served && f.name != "screenshot" {
            return Err(ApiError::format_unavailable(&f.name));
        }
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

/// Requested features the HTTP engine cannot provide (reported as a warning,
/// as upstream does, rather than failing the scrape).
fn unsupported_features(o: &ScrapeOptions) -> Vec<&'static str> {
    let mut out = Vec::new();
    if o.wants("screenshot") {
        out.push("screenshot");
    }
    if o.wait_for_ms > 0 {
        out.push("waitFor");
    }
    if o.mobile {
        out.push("mobile");
    }
    if o.location.is_some() {
        out.push("location");
    }
    if o.proxy == "enhanced" {
        out.push("stealthProxy");
    }
    out
}
