//! Documents (PDF, DOCX, ...): picking the converter, calling it sandboxed,
//! OCR for PDF pages without text, and the special case `parsers: []` (the PDF
//! itself, base64-encoded). The result feeds [`super::produce`].

use crate::api::scrape_request::parsers_json;
use crate::api::{ApiError, ScrapeOptions};
use crate::plugins::bindings::{DocumentKind, FileInput, PluginError};
use crate::plugins::{LoadedPlugin, PluginCallError, PluginCallErrorKind};
use crate::server::AppState;
use axum::http::StatusCode;
use base64::Engine as _;
use serde_json::{Map, Value, json};
use std::time::Instant;

/// Where the document came from: an upload (errors are the client's: 400) or
/// a scraped URL (errors are the site's: 500).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Upload,
    Scrape,
}

/// A converted document.
pub struct Converted {
    pub html: String,
    pub markdown: Option<String>,
    pub metadata: Map<String, Value>,
    pub warnings: Vec<String>,
}

/// Marker a converter leaves where an OCR'd page's text belongs.
fn ocr_marker(page: u32) -> String {
    format!("<!-- distill:ocr-page {page} -->")
}

/// Converts `file` with `plugin` (or returns the PDF base64-encoded when
/// `parsers` is empty).
pub async fn convert(
    state: &AppState,
    plugin: &LoadedPlugin,
    file: FileInput,
    opts: &ScrapeOptions,
    scrape_id: &str,
    deadline: Instant,
    origin: Origin,
) -> Result<Converted, ApiError> {
    let is_pdf = plugin.manifest.extensions.iter().any(|e| e == "pdf");
    if is_pdf && opts.parsers.is_empty() {
        let encoded = base64::engine::general_purpose::STANDARD.encode(&file.bytes);
        return Ok(Converted {
            html: encoded.clone(),
            markdown: Some(encoded),
            metadata: Map::new(),
            warnings: Vec::new(),
        });
    }
    let options = json!({ "parsers": parsers_json(&opts.parsers) }).to_string();
    let doc = state
        .runtime
        .convert(plugin, &file, &options, scrape_id, deadline)
        .await
        .map_err(|e| conversion_error(e, &file.name, origin, opts.timeout_ms))?;
    let mut metadata = match serde_json::from_str::<Value>(&doc.metadata) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let mut warnings = doc.warnings;
    let (mut html, mut markdown) = match doc.kind {
        DocumentKind::Html => (doc.content, None),
        DocumentKind::Markdown => (markdown_to_html(&doc.content), Some(doc.content)),
    };
    if let Some(Value::Array(pages)) = metadata.remove("pagesNeedingOcr") {
        let pages: Vec<u32> = pages
            .iter()
            .filter_map(|p| p.as_u64())
            .map(|p| p as u32)
            .collect();
        let mode = opts.parsers.first().map(|p| p.mode.as_str()).unwrap_or("auto");
        if !pages.is_empty() && mode != "fast" {
            match ocr_pages(state, &file.bytes, &pages, deadline).await {
                Ok(texts) => {
                    let blank: Vec<u32> = texts
                        .iter()
                        .filter(|(_, t)| t.trim().is_empty())
                        .map(|(p, _)| *p)
                        .collect();
                    if !blank.is_empty() {
                        warnings.push(format!("OCR found no text on page(s) {blank:?}"));
                    }
                    for (page, text) in texts {
                        let marker = ocr_marker(page);
                        let escaped = escape_html(&text);
                        let block_html = format!("<p>{}</p>", escaped.replace("\n\n", "</p><p>"));
                        html = replace_or_append(&html, &marker, &block_html);
                        if let Some(md) = markdown.as_mut() {
                            *md = replace_or_append(md, &marker, &text);
                        }
                    }
                    metadata.insert("ocrPages".into(), json!(pages));
                }
                Err(why) => warnings.push(format!("OCR was needed for page(s) {pages:?} but failed: {why}")),
            }
        } else if !pages.is_empty() {
            warnings.push(format!(
                "Page(s) {pages:?} have no text layer; mode \"fast\" skips OCR (use mode \"auto\" or \"ocr\")."
            ));
        }
    }
    Ok(Converted {
        html,
        markdown,
        metadata,
        warnings,
    })
}

async fn ocr_pages(
    state: &AppState,
    pdf: &[u8],
    pages: &[u32],
    deadline: Instant,
) -> Result<Vec<(u32, String)>, String> {
    let Some(ocr) = state.ocr.clone() else {
        return Err(
            "OCR is not available on this server (install tesseract-ocr and poppler-utils)".to_string(),
        );
    };
    let (pdf, pages) = (pdf.to_vec(), pages.to_vec());
    tokio::task::spawn_blocking(move || ocr.pages(&pdf, &pages, deadline))
        .await
        .map_err(|e| format!("OCR task failed: {e}"))?
}

fn replace_or_append(text: &str, marker: &str, replacement: &str) -> String {
    if text.contains(marker) {
        text.replacen(marker, replacement, 1)
    } else {
        format!("{text}\n\n{replacement}")
    }
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Markdown from a converter, as HTML for the `html` format, links and images.
pub fn markdown_to_html(md: &str) -> String {
    let mut options = pulldown_cmark::Options::empty();
    options.insert(pulldown_cmark::Options::ENABLE_TABLES);
    options.insert(pulldown_cmark::Options::ENABLE_STRIKETHROUGH);
    let parser = pulldown_cmark::Parser::new_ext(md, options);
    let mut html = String::with_capacity(md.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, parser);
    html
}

/// Maps a converter failure. Input the converter refuses (corrupt, encrypted,
/// a bomb, a lying extension) is a 4xx for uploads.
fn conversion_error(err: PluginCallError, name: &str, origin: Origin, timeout_ms: u64) -> ApiError {
    let (status, code) = match origin {
        Origin::Upload => (StatusCode::BAD_REQUEST, "PARSE_DOCUMENT_ERROR"),
        Origin::Scrape => (StatusCode::INTERNAL_SERVER_ERROR, "SCRAPE_DOCUMENT_ERROR"),
    };
    match &err.kind {
        PluginCallErrorKind::RequestTimeout => ApiError::timeout(timeout_ms, &format!("converting {name}")),
        PluginCallErrorKind::Rejected(PluginError::UnsupportedInput(why)) => {
            ApiError::new(status, code, format!("Could not convert {name}: {why}"))
        }
        PluginCallErrorKind::OutOfMemory { .. } | PluginCallErrorKind::PluginTimeout { .. } => ApiError::new(
            status,
            code,
            format!(
                "Could not convert {name}: the document is too large or too complex to convert within limits ({err})"
            ),
        ),
        PluginCallErrorKind::Rejected(PluginError::InvalidOptions(_)) => {
            ApiError::bad_request(format!("Invalid converter options for {name}: {err}"))
        }
        // A converter that crashes on a file is a bug to fix, but for the user the
        // file could not be converted: say so with the document error (the trap
        // itself is in the log line of the call).
        PluginCallErrorKind::Trap(_) | PluginCallErrorKind::Rejected(PluginError::Failed(_)) => {
            ApiError::new(
                status,
                code,
                format!("Could not convert {name}: the converter failed on this file ({err})"),
            )
        }
        _ => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "PLUGIN_ERROR",
            format!("Failed while converting {name}: {err}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_renders_tables() {
        let html = markdown_to_html("# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert!(html.contains("<h1>T</h1>") && html.contains("<table>"), "{html}");
    }

    #[test]
    fn ocr_text_replaces_its_marker() {
        assert_eq!(
            replace_or_append("a <!-- distill:ocr-page 2 --> b", &ocr_marker(2), "X"),
            "a X b"
        );
        assert_eq!(replace_or_append("a", &ocr_marker(3), "X"), "a\n\nX");
    }
}
