//! From content to the response's `data`: the step shared by web pages,
//! uploads and converted documents — prepare the HTML (metadata, cleaning,
//! links, images), add the engine's metadata, run the format plugins, assemble.

use super::clean_content;
use super::error::PipelineError;
use super::prepare::{Wanted, prepare};
use super::redact;
use super::render::{plan, render_plugin_formats};
use super::response::{ScrapeOutput, build_data};
use crate::api::{FormatRequest, ScrapeOptions};
use crate::plugins::Registry;
use crate::plugins::bindings::{Page, PageTokens};
use crate::plugins::page_parts;
use crate::services::Services;
use distill_html::PageText;
use http::StatusCode;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::time::Instant;
use url::Url;

/// Content ready for the pipeline.
pub struct Content {
    /// The HTML to work from (a page as received, or a converter's HTML), in
    /// the buffer the parse reads (no copy of it before the parse).
    pub html: PageText,
    /// Markdown that is already final (a converter that produced markdown).
    pub markdown: Option<String>,
    /// The URL as requested (scheme-normalised), for plugins.
    pub requested_url: String,
    /// The URL links resolve against and `metadata.url` reports.
    pub final_url: Url,
    /// `metadata.sourceURL`: the URL as sent, or the uploaded file's name.
    pub source_url: String,
    pub status: u16,
    pub content_type: Option<String>,
    /// Metadata from a converter (title, numPages, ...); wins over the HTML's.
    pub extra_metadata: Map<String, Value>,
    /// True for documents: they have no page chrome, so `onlyMainContent` does
    /// not apply (include/exclude tags still do).
    pub is_document: bool,
    /// Engine data that plugins consume as inputs (the browser's branding
    /// snapshot), by input name.
    pub engine_inputs: Map<String, Value>,
}

/// Runs the shared steps and returns `data`.
pub async fn produce(
    services: &Services,
    registry: &Registry,
    mut content: Content,
    opts: &ScrapeOptions,
    scrape_id: &str,
    deadline: Instant,
    warnings: Vec<String>,
) -> Result<Value, PipelineError> {
    // Final markdown from a converter replaces the markdown plugin, also as an input.
    let final_markdown = content.markdown.is_some();
    let mut warnings = warnings;
    let mut plugin_formats: Vec<FormatRequest> = opts
        .formats
        .iter()
        .filter(|f| !(final_markdown && f.name == "markdown"))
        .cloned()
        .collect();
    if clean_content::wanted(opts, registry, &mut warnings) {
        clean_content::add_format(&mut plugin_formats);
    }
    let consumes_of = |name: &str| {
        if final_markdown && name == "markdown" {
            return None;
        }
        registry.format(name).map(|p| p.manifest.consumes.clone())
    };
    let plan = plan(&plugin_formats, &consumes_of)?;
    // The cleaned page goes to the plugins as HTML or as tokens (ABI 0.4),
    // as each reads it (page_parts); the HTML is serialised only when the
    // response or some plugin needs it.
    let body_is_html = page_parts::body_is_html(content.content_type.as_deref(), content.is_document);
    let plan_reads = |f: &dyn Fn(&page_parts::PageParts) -> bool| {
        plan.waves
            .iter()
            .flatten()
            .any(|(name, _)| registry.format(name).is_some_and(|p| f(&p.manifest.reads)))
    };
    // The raw HTML goes into the plugins' page only when a plugin of the plan
    // reads it (page_parts); it is made as a `String` only for that, for
    // `rawHtml`, or for a plugin that consumes `rawHtml`.
    let raw_read = plan_reads(&|r| r.gets_raw_html(body_is_html));
    let wanted = Wanted {
        raw: raw_read || opts.wants("rawHtml") || plan.host_inputs.contains("rawHtml"),
        links: opts.wants("links") || plan.host_inputs.contains("links"),
        images: opts.wants("images") || plan.host_inputs.contains("images"),
        html: opts.wants("html")
            || plan.host_inputs.contains("html")
            || plan_reads(&|r| r.gets_cleaned_html(body_is_html)),
        tokens: plan_reads(&|r| r.gets_tokens(body_is_html)),
    };
    let html = std::mem::take(&mut content.html);
    let mut prepared = if content.is_document {
        let mut doc_opts = opts.clone();
        doc_opts.only_main_content = false;
        prepare(html, &content.final_url, &doc_opts, wanted, deadline).await?
    } else {
        prepare(html, &content.final_url, opts, wanted, deadline).await?
    };
    let mut metadata = prepared.metadata;
    for (k, v) in content.extra_metadata {
        metadata.insert(k, v);
    }
    metadata.insert("sourceURL".into(), json!(content.source_url));
    metadata.insert("url".into(), json!(content.final_url.as_str()));
    metadata.insert("statusCode".into(), json!(content.status));
    if let Some(ct) = &content.content_type {
        metadata.insert("contentType".into(), json!(ct));
    }
    metadata.insert("scrapeId".into(), json!(scrape_id));
    if !(200..300).contains(&content.status) {
        let reason = StatusCode::from_u16(content.status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("Error");
        metadata.insert("error".into(), json!(reason));
    }

    // Read by a plugin: in its page; else kept here, for `rawHtml`.
    let raw_html = prepared.raw_html.take().unwrap_or_default();
    let (page_raw, kept_raw) = if raw_read {
        (raw_html, None)
    } else {
        (String::new(), Some(raw_html))
    };
    let page = Page {
        requested_url: content.requested_url,
        final_url: content.final_url.to_string(),
        status_code: content.status,
        content_type: content.content_type,
        raw_html: page_raw,
        cleaned_html: prepared.cleaned_html,
        cleaned_tokens: match prepared.cleaned_tokens {
            Some((ops, text)) => PageTokens { ops, text },
            None => PageTokens {
                ops: Vec::new(),
                text: String::new(),
            },
        },
        // The map as JSON text, without copying it into a `Value` first.
        metadata: serde_json::to_string(&metadata).unwrap_or_default(),
        inputs: Vec::new(),
    };
    let pii = redact::options(opts);
    let pii = pii.as_ref();
    let mut host_values: HashMap<String, Value> = HashMap::new();
    for name in &plan.host_inputs {
        let value = match name.as_str() {
            "links" => redact::value(json!(prepared.links), pii),
            "images" => redact::value(json!(prepared.images), pii),
            "html" => json!(redact::html(page.cleaned_html.clone(), pii)),
            "rawHtml" => json!(redact::html(
                kept_raw.as_ref().unwrap_or(&page.raw_html).clone(),
                pii
            )),
            "markdown" => redact::value(json!(content.markdown), pii),
            other => match content.engine_inputs.get(other) {
                Some(v) => v.clone(),
                None => continue,
            },
        };
        host_values.insert(name.clone(), value);
    }
    let output = render_plugin_formats(
        &services.plugins,
        registry,
        &plan,
        &plugin_formats,
        &page,
        &host_values,
        body_is_html,
        scrape_id,
        deadline,
        opts.timeout_ms,
        opts.zero_data_retention.then_some(clean_content::ZDR_NO_MODEL),
        pii,
    )
    .await?;
    let mut rendered = output.values;
    warnings.extend(output.warnings);
    if let (Some(md), true) = (content.markdown, opts.wants("markdown")) {
        rendered.insert(0, ("markdown".to_string(), redact::value(Value::String(md), pii)));
    }
    clean_content::apply(&mut rendered, opts);
    Ok(build_data(
        opts,
        ScrapeOutput {
            raw_html: kept_raw.unwrap_or(page.raw_html),
            cleaned_html: page.cleaned_html,
            links: prepared.links.filter(|_| opts.wants("links")),
            images: prepared.images.filter(|_| opts.wants("images")),
            rendered,
            metadata,
            warnings,
        },
    ))
}
