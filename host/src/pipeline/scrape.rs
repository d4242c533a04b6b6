//! One `/v2/scrape` request from validated options to the response's `data`.

use super::errors::fetch_error;
use super::prepare::prepare;
use super::render::render_plugin_formats;
use super::response::{ScrapeOutput, build_data};
use crate::api::formats::HOST_FORMATS;
use crate::api::{ApiError, ScrapeRequest};
use crate::fetch::http::FetchRequest;
use crate::plugins::bindings::Page;
use crate::server::AppState;
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Scrapes `req.url` and returns the response's `data`.
pub async fn scrape(state: &AppState, req: &ScrapeRequest, scrape_id: &str) -> Result<Value, ApiError> {
    let opts = &req.options;
    let started = Instant::now();
    let deadline = started + Duration::from_millis(opts.timeout_ms);
    let registry = state.runtime.registry();
    for f in &opts.formats {
        let served = HOST_FORMATS.contains(&f.name.as_str()) || registry.format(&f.name).is_some();
        if !served && f.name != "screenshot" {
            return Err(ApiError::format_unavailable(&f.name));
        }
    }
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
    let unsupported = unsupported_features(req);
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
    let raw_html = distill_html::decode_html(&fetched.body, fetched.content_type.as_deref());
    let prepared = prepare(&raw_html, &fetched.final_url, opts).await?;

    let mut metadata = prepared.metadata;
    metadata.insert("sourceURL".into(), json!(req.url_as_sent));
    metadata.insert("url".into(), json!(fetched.final_url.as_str()));
    metadata.insert("statusCode".into(), json!(fetched.status));
    if let Some(ct) = &fetched.content_type {
        metadata.insert("contentType".into(), json!(ct));
    }
    metadata.insert("scrapeId".into(), json!(scrape_id));
    if !(200..300).contains(&fetched.status) {
        let reason = StatusCode::from_u16(fetched.status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("Error");
        metadata.insert("error".into(), json!(reason));
    }

    let page = Page {
        requested_url: req.url.to_string(),
        final_url: fetched.final_url.to_string(),
        status_code: fetched.status,
        content_type: fetched.content_type.clone(),
        raw_html,
        cleaned_html: prepared.cleaned_html,
        metadata: Value::Object(metadata.clone()).to_string(),
    };
    let rendered = render_plugin_formats(
        &state.runtime,
        &registry,
        &opts.formats,
        &page,
        scrape_id,
        deadline,
        opts.timeout_ms,
    )
    .await?;
    Ok(build_data(
        opts,
        ScrapeOutput {
            raw_html: page.raw_html,
            cleaned_html: page.cleaned_html,
            links: prepared.links,
            images: prepared.images,
            rendered,
            metadata,
            warnings,
        },
    ))
}

/// Requested features the HTTP engine cannot provide (reported as a warning,
/// as upstream does, rather than failing the scrape).
fn unsupported_features(req: &ScrapeRequest) -> Vec<&'static str> {
    let o = &req.options;
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
