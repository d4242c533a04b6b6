//! Where the document lives in the package: the main part named by the
//! package relationships (`word/document.xml` when they say nothing), and a
//! hint naming what a ZIP without a Word body probably is.

use distill_sdk::PluginError;
use distill_sdk::documents::archive::Archive;
use distill_sdk::documents::ooxml::{Rels, rels_name};

/// The main document part: the package's `officeDocument` relationship, else `word/document.xml`.
pub(crate) fn main_part(zip: &mut Archive) -> Result<String, PluginError> {
    let name = rels_name("");
    if let Some(text) = zip.read_string(&name)?
        && let Some(rel) = Rels::parse(&text, &name, "")
            .ok()
            .and_then(|r| r.of_kind("officeDocument").cloned())
    {
        return Ok(rel.part);
    }
    if zip.contains("word/document.xml") {
        return Ok("word/document.xml".into());
    }
    Err(PluginError::UnsupportedInput(format!(
        "not a Word document: no word/document.xml in the archive{}",
        kind_hint(zip)
    )))
}

/// " (it looks like an Excel workbook)" and the like, or "".
pub(crate) fn kind_hint(zip: &Archive) -> String {
    zip.kind_hint("a Word document")
}
