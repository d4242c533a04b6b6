//! `meta.xml`: the document title and, when the producer counted them, its pages.

use distill_sdk::documents::archive::Archive;
use distill_sdk::documents::xml;
use distill_sdk::{PluginError, json, serde_json};

/// The title of `meta.xml` (trimmed, when not empty); adds its page count as
/// `numPages` unless `meta` already has one. A missing or malformed `meta.xml`
/// gives nothing.
pub(crate) fn read_meta(
    zip: &mut Archive,
    meta: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<Option<String>, PluginError> {
    let Some(text) = zip.read_string("meta.xml")? else {
        return Ok(None);
    };
    let Ok(m) = xml::parse(&text, "meta.xml") else {
        return Ok(None);
    };
    if let Some(pages) = m
        .find("document-statistic")
        .and_then(|s| s.attr("meta:page-count"))
        .and_then(|p| p.parse::<u32>().ok())
    {
        meta.entry("numPages").or_insert(json!(pages));
    }
    Ok(m.find("title")
        .map(|t| t.text().trim().to_string())
        .filter(|t| !t.is_empty()))
}
