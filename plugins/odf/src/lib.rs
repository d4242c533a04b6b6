//! Distill converter plugin `odf`: OpenDocument text (.odt) and presentations
//! (.odp) → HTML. (Spreadsheets, .ods, are served by the `spreadsheet` plugin.)
//!
//! ODT: page header, body (text:h headings, text:p, nested text:list ordered or
//! bulleted by list style, table:table, sections, frames/text boxes, links,
//! bold/italic from automatic styles), footnotes/endnotes, page footer.
//! ODP: one section per draw:page, `<h2>Slide N: title</h2>`, frames in document
//! order, tables, speaker notes under `<h3>Notes</h3>`.
//! Metadata: title from meta.xml (else the first heading / slide title),
//! numPages for presentations (slides) and when meta.xml has a page count.
//!
//! Modules: `styles`, `text` (ODT body, headers, footers, notes), `presentation`
//! (ODP slides), `drawing` (frames and shapes), `lists`, `tables`, `inline`, `meta`.

mod drawing;
mod inline;
mod lists;
mod meta;
mod presentation;
mod styles;
mod tables;
mod text;

use distill_sdk::documents::archive::Archive;
use distill_sdk::documents::{html, xml};
use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value, json, serde_json};
use std::collections::HashMap;
use styles::Style;

/// The plugin.
pub struct Odf;

impl ConverterPlugin for Odf {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("OpenDocument text and presentations (.odt, .odp) to HTML.")
            .extension("odt")
            .extension("odp")
            .content_type("application/vnd.oasis.opendocument.text")
            .content_type("application/vnd.oasis.opendocument.presentation")
            .memory_limit_mib(512)
    }

    fn convert(file: &FileInput, _options: &Value) -> Result<Document, PluginError> {
        convert_bytes(&file.bytes)
    }
}

distill_sdk::export_plugin!(converter: Odf);

fn unsupported(msg: impl Into<String>) -> PluginError {
    PluginError::UnsupportedInput(msg.into())
}

/// Styles read once, and what rendering collects on the way.
pub(crate) struct Ctx {
    pub(crate) styles: HashMap<String, Style>,
    /// list style name → per level (1-based) ordered?
    pub(crate) list_styles: HashMap<String, HashMap<u32, bool>>,
    pub(crate) notes: Vec<(bool, String)>, // (endnote?, html)
    pub(crate) first_heading: Option<String>,
}

/// Converts ODT/ODP bytes.
pub fn convert_bytes(bytes: &[u8]) -> Result<Document, PluginError> {
    let mut zip = Archive::open(bytes, "OpenDocument")?;
    let mimetype = zip.read_string("mimetype")?.unwrap_or_default();
    let Some(content) = zip.read_string("content.xml")? else {
        let mut hint = zip.kind_hint("an OpenDocument file");
        if hint.is_empty() && zip.contains("META-INF/encryption.xml") {
            hint = " (it is encrypted)".into();
        }
        return Err(unsupported(format!(
            "not an OpenDocument file: no content.xml{hint}"
        )));
    };
    if zip
        .read_string("META-INF/manifest.xml")?
        .is_some_and(|m| m.contains("encryption-data"))
    {
        return Err(unsupported("the OpenDocument file is password-protected"));
    }
    let content = xml::parse(&content, "content.xml")?;
    let styles_root = match zip.read_string("styles.xml")? {
        Some(s) => Some(xml::parse(&s, "styles.xml")?),
        None => None,
    };
    let mut ctx = Ctx {
        styles: HashMap::new(),
        list_styles: HashMap::new(),
        notes: Vec::new(),
        first_heading: None,
    };
    if let Some(s) = &styles_root {
        styles::collect_styles(s, &mut ctx);
    }
    styles::collect_styles(&content, &mut ctx);

    let body = content
        .find("body")
        .ok_or_else(|| unsupported("content.xml has no office:body"))?;
    let mut out = String::new();
    let mut meta = serde_json::Map::new();
    let first_title = if let Some(text) = body.child("text") {
        text::render_text(text, styles_root.as_ref(), &mut ctx, &mut out);
        ctx.first_heading.clone()
    } else if let Some(pres) = body.child("presentation") {
        let (pages, title) = presentation::render_presentation(pres, &mut ctx, &mut out);
        meta.insert("numPages".into(), json!(pages));
        title
    } else if body.child("spreadsheet").is_some() {
        return Err(unsupported(
            "this is an OpenDocument spreadsheet (.ods); the spreadsheet converter handles it",
        ));
    } else {
        return Err(unsupported(format!("unsupported OpenDocument type {mimetype:?}")));
    };

    let title = meta::read_meta(&mut zip, &mut meta)?.or(first_title);
    if let Some(t) = &title {
        meta.insert("title".into(), json!(t));
    }
    Ok(Document::html(html::page(title.as_deref(), &out)).with_metadata(Value::Object(meta)))
}

#[cfg(test)]
mod tests;
