//! Distill converter plugin `rtf`: Rich Text Format to HTML.
//!
//! A small, bounded reader: paragraphs, bold/italic/underline, headings
//! (`\outlinelevelN` or a "heading N" style), lists (`\lsN` / `\pntext`),
//! hyperlinks (`HYPERLINK` fields), tables (`\intbl` / `\cell` / `\row`), page
//! headers and footers, footnotes, and text in any code page: `\ansicpgN`, the
//! fonts' `\fcharsetN`, double-byte pages (Shift-JIS, GBK, Korean, Big5) and
//! `\uN` with `\ucN`.
//!
//! Modules: `lexer` (tokens), `charset` (code pages), `convert` (groups and
//! destinations), `story` (paragraphs and tables of one flow), `render` (HTML).

mod charset;
mod convert;
mod lexer;
mod render;
mod story;

use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value, json, serde_json};

pub struct Rtf;

impl ConverterPlugin for Rtf {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description(
                "Rich Text Format (.rtf) to HTML: paragraphs, emphasis, headings, lists, links, tables, headers, footers, footnotes.",
            )
            .extension("rtf")
            .content_type("application/rtf")
            .content_type("text/rtf")
    }

    fn convert(file: &FileInput, _options: &Value) -> Result<Document, PluginError> {
        let start = file
            .bytes
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(0);
        if !file.bytes[start..].starts_with(b"{\\rtf") {
            return Err(PluginError::UnsupportedInput(
                "the file is not RTF (no {\\rtf header)".into(),
            ));
        }
        let out = convert::convert(&file.bytes[start..]);
        let mut doc = Document::html(out.html);
        let mut meta = serde_json::Map::new();
        if let Some(t) = out.title.filter(|t| !t.trim().is_empty()) {
            meta.insert("title".into(), json!(t.trim()));
        }
        if let Some(a) = out.author.filter(|t| !t.trim().is_empty()) {
            meta.insert("author".into(), json!(a.trim()));
        }
        doc = doc.with_metadata(Value::Object(meta));
        if out.unbalanced {
            doc = doc.with_warning("the RTF file is truncated or its groups are unbalanced");
        }
        if out.truncated {
            doc = doc.with_warning("the RTF text was too long and was truncated");
        }
        Ok(doc)
    }
}

distill_sdk::export_plugin!(converter: Rtf);

/// The HTML of an RTF document (for tools and benchmarks).
pub fn html_of(bytes: &[u8]) -> String {
    convert::convert(bytes).html
}

#[cfg(test)]
mod tests;
