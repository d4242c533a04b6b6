//! Distill converter plugin `docx`: Word (OOXML) documents → HTML.
//!
//! Order of the output: page headers, body, footnotes, endnotes, page footers.
//! Handles headings (paragraph styles Title / Heading 1-6 / outline levels),
//! numbered and bulleted lists with nesting, tables (colspan/rowspan), hyperlinks
//! (relationship targets, anchors, HYPERLINK fields), bold/italic/strike/sub/sup,
//! line breaks, content controls, tracked insertions (deletions dropped),
//! footnotes and endnotes. Metadata: title/author from docProps/core.xml, numPages
//! from docProps/app.xml.
//!
//! Modules, one idea each: `package` (main part), `styles` (headings),
//! `numbering` (lists), `blocks` (paragraphs in order), `runs` (inline text and
//! formatting), `fields` (complex fields, HYPERLINK), `tables`, `parts` (headers,
//! footers, notes), `metadata`.

mod blocks;
mod fields;
mod metadata;
mod numbering;
mod package;
mod parts;
mod runs;
mod styles;
mod tables;

use distill_sdk::documents::archive::{Archive, resolve};
use distill_sdk::documents::ooxml::{self, Rels};
use distill_sdk::documents::{html, xml};
use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value};
use numbering::Numbering;
use std::collections::HashMap;
use styles::Style;

/// The plugin.
pub struct Docx;

impl ConverterPlugin for Docx {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Word documents (.docx, .docm) to HTML: headings, lists, tables, links, notes, headers and footers.")
            .extension("docx")
            .extension("docm")
            .content_type("application/vnd.openxmlformats-officedocument.wordprocessingml.document")
            .content_type("application/vnd.ms-word.document.macroenabled.12")
            .memory_limit_mib(512)
    }

    fn convert(file: &FileInput, _options: &Value) -> Result<Document, PluginError> {
        convert_bytes(&file.bytes)
    }
}

distill_sdk::export_plugin!(converter: Docx);

/// What rendering reads of the package, and what it collects on the way.
pub(crate) struct Ctx<'a> {
    pub(crate) rels: &'a Rels,
    pub(crate) styles: &'a HashMap<String, Style>,
    pub(crate) numbering: &'a Numbering,
    /// Note ids in the order the text first cites them.
    pub(crate) footnote_refs: Vec<String>,
    pub(crate) endnote_refs: Vec<String>,
    pub(crate) first_heading: Option<String>,
}

/// Converts DOCX bytes into a [`Document`].
pub fn convert_bytes(bytes: &[u8]) -> Result<Document, PluginError> {
    let mut zip = Archive::open(bytes, "DOCX")?;
    let main = package::main_part(&mut zip)?;
    let doc_xml = zip.read_string(&main)?.ok_or_else(|| {
        PluginError::UnsupportedInput(format!(
            "not a Word document: the archive has no {main} (is the extension right?)"
        ))
    })?;
    let doc = xml::parse(&doc_xml, &main)?;
    drop(doc_xml);
    let body = doc.path(&["document", "body"]).ok_or_else(|| {
        PluginError::UnsupportedInput(format!(
            "not a Word document: {main} has no w:document/w:body{}",
            package::kind_hint(&zip)
        ))
    })?;

    let rels = ooxml::read_rels(&mut zip, &main)?;
    let styles = styles::read_styles(&mut zip, &resolve(&main, "styles.xml"))?;
    let numbering = numbering::read_numbering(&mut zip, &resolve(&main, "numbering.xml"))?;
    let mut warnings = Vec::new();

    let mut ctx = Ctx {
        rels: &rels,
        styles: &styles,
        numbering: &numbering,
        footnote_refs: Vec::new(),
        endnote_refs: Vec::new(),
        first_heading: None,
    };

    let (header_ids, footer_ids) = parts::section_references(body);
    let mut out = String::new();
    parts::write_headers_footers(&mut zip, &header_ids, "header", &mut ctx, &mut out)?;
    out.push_str("<div data-part=\"body\">\n");
    blocks::render_blocks(body, &mut ctx, &mut out, false);
    out.push_str("</div>\n");
    parts::write_notes(&mut zip, &main, &mut ctx, &mut out, &mut warnings)?;
    parts::write_headers_footers(&mut zip, &footer_ids, "footer", &mut ctx, &mut out)?;

    let (title, meta) = metadata::metadata(&mut zip, ctx.first_heading.clone())?;
    let mut document = Document::html(html::page(title.as_deref(), &out)).with_metadata(Value::Object(meta));
    for w in warnings {
        document = document.with_warning(w);
    }
    Ok(document)
}

#[cfg(test)]
mod tests;
