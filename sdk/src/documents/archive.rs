//! Defensive ZIP access for the OOXML/ODF/EPUB converters.
//!
//! Limits: entry count, per-entry and total uncompressed size (declared *and*
//! actually produced, so a lying header cannot bypass them), compression ratio.

use crate::PluginError;
use std::io::{Cursor, Read};

/// Most entries an archive may have.
pub const MAX_ENTRIES: usize = 10_000;
/// Largest single entry we decompress.
pub const MAX_ENTRY_BYTES: u64 = 64 * 1024 * 1024;
/// Most bytes we decompress in total for one document.
pub const MAX_TOTAL_BYTES: u64 = 200 * 1024 * 1024;
/// Largest uncompressed/compressed ratio accepted for entries above 1 MiB.
pub const MAX_RATIO: u64 = 200;

/// A ZIP archive opened for reading with limits.
pub struct Archive<'a> {
    zip: zip::ZipArchive<Cursor<&'a [u8]>>,
    budget: u64,
    what: &'static str,
}

fn unsupported(msg: impl Into<String>) -> PluginError {
    PluginError::UnsupportedInput(msg.into())
}

/// "a" or "an" before a format name ("an EPUB", "an OpenDocument", "a DOCX").
fn article(what: &str) -> &'static str {
    if what.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// Says what a non-ZIP file probably is, for a clear error message.
pub fn sniff(bytes: &[u8]) -> &'static str {
    if bytes.starts_with(b"%PDF") {
        "a PDF file"
    } else if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        "an OLE compound file (a password-protected Office document or a legacy binary .doc/.xls/.ppt)"
    } else if bytes.starts_with(b"{\\rtf") {
        "an RTF file"
    } else if bytes.is_empty() {
        "empty"
    } else {
        let head = &bytes[..bytes.len().min(512)];
        let text = String::from_utf8_lossy(head).to_ascii_lowercase();
        if text.contains("<html") || text.contains("<!doctype") {
            "an HTML page"
        } else {
            "not a ZIP archive"
        }
    }
}

impl<'a> Archive<'a> {
    /// Opens `bytes` as a ZIP archive holding a document of kind `what` (e.g. "DOCX").
    pub fn open(bytes: &'a [u8], what: &'static str) -> Result<Self, PluginError> {
        if !bytes.starts_with(b"PK\x03\x04") {
            return Err(unsupported(format!(
                "not {} {what} file: the content is {}",
                article(what),
                sniff(bytes)
            )));
        }
        let zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| {
            unsupported(format!(
                "not a readable {what} file (truncated or corrupt ZIP: {e})"
            ))
        })?;
        if zip.len() > MAX_ENTRIES {
            return Err(unsupported(format!(
                "{what} archive has {} entries (limit {MAX_ENTRIES})",
                zip.len()
            )));
        }
        let mut archive = Archive {
            zip,
            budget: MAX_TOTAL_BYTES,
            what,
        };
        // Declared sizes: reject obvious bombs before decompressing anything.
        let mut declared: u64 = 0;
        for i in 0..archive.zip.len() {
            let f = archive
                .zip
                .by_index_raw(i)
                .map_err(|e| unsupported(format!("corrupt {what} archive: {e}")))?;
            if f.encrypted() {
                return Err(unsupported(format!("{what} file is encrypted")));
            }
            declared = declared.saturating_add(f.size());
            let name = f.name().map(|n| n.into_owned()).unwrap_or_default();
            check_ratio(&name, f.size(), f.compressed_size(), what)?;
        }
        if declared > MAX_TOTAL_BYTES {
            return Err(unsupported(format!(
                "{what} archive would decompress to {} MB (limit {} MB)",
                declared / 1_000_000,
                MAX_TOTAL_BYTES / 1_000_000
            )));
        }
        Ok(archive)
    }

    /// Entry names in archive order.
    pub fn names(&self) -> Vec<String> {
        self.zip
            .file_names()
            .filter_map(|s| s.ok().map(|s| s.into_owned()))
            .collect()
    }

    /// True if the archive has an entry `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.zip.index_for_name(name.trim_start_matches('/')).is_some()
    }

    /// Reads entry `name` (leading '/' ignored). `Ok(None)` if it does not exist.
    pub fn read(&mut self, name: &str) -> Result<Option<Vec<u8>>, PluginError> {
        let name = name.trim_start_matches('/');
        let what = self.what;
        let Some(index) = self.zip.index_for_name(name) else {
            return Ok(None);
        };
        let file = self
            .zip
            .by_index(index)
            .map_err(|e| unsupported(format!("cannot read {name} from the {what} archive: {e}")))?;
        let compressed = file.compressed_size();
        let limit = MAX_ENTRY_BYTES.min(self.budget);
        let mut out = Vec::with_capacity(file.size().min(limit).min(16 << 20) as usize);
        let read = file
            .take(limit + 1)
            .read_to_end(&mut out)
            .map_err(|e| unsupported(format!("corrupt entry {name} in the {what} archive: {e}")))?;
        if read as u64 > limit {
            return Err(unsupported(format!(
                "entry {name} of the {what} archive is larger than the limit ({} MB)",
                limit / 1_000_000
            )));
        }
        check_ratio(name, read as u64, compressed, what)?;
        self.budget -= read as u64;
        Ok(Some(out))
    }

    /// What the entries say the package is, for error messages, in this order:
    /// "a Word document" (`word/`), "a PowerPoint presentation" (`ppt/`), "an
    /// Excel workbook" (`xl/`), "an OpenDocument file" (`content.xml`).
    pub fn package_kinds(&self) -> Vec<&'static str> {
        let names = self.names();
        let has_folder = |f: &str| names.iter().any(|n| n.starts_with(f));
        [
            (has_folder("word/"), "a Word document"),
            (has_folder("ppt/"), "a PowerPoint presentation"),
            (has_folder("xl/"), "an Excel workbook"),
            (names.iter().any(|n| n == "content.xml"), "an OpenDocument file"),
        ]
        .into_iter()
        .filter_map(|(present, kind)| present.then_some(kind))
        .collect()
    }

    /// " (it looks like an Excel workbook)" for the first of
    /// [`Archive::package_kinds`] that is not `own` (e.g. "a Word document"), else "".
    pub fn kind_hint(&self, own: &str) -> String {
        match self.package_kinds().into_iter().find(|&k| k != own) {
            Some(kind) => format!(" (it looks like {kind})"),
            None => String::new(),
        }
    }

    /// Reads entry `name` as (lossy) UTF-8 text.
    pub fn read_string(&mut self, name: &str) -> Result<Option<String>, PluginError> {
        Ok(self.read(name)?.map(|b| match String::from_utf8(b) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }))
    }
}

fn check_ratio(name: &str, size: u64, compressed: u64, what: &str) -> Result<(), PluginError> {
    if size > (1 << 20) && size / compressed.max(1) > MAX_RATIO {
        return Err(unsupported(format!(
            "entry {name} of the {what} archive has a suspicious compression ratio ({}:1; looks like a ZIP bomb)",
            size / compressed.max(1)
        )));
    }
    Ok(())
}

/// Resolves a relative part reference `target` against the folder of `base`
/// ("word/document.xml" + "media/a.png" → "word/media/a.png").
pub fn resolve(base: &str, target: &str) -> String {
    if let Some(abs) = target.strip_prefix('/') {
        return abs.to_string();
    }
    let mut parts: Vec<&str> = base.split('/').collect();
    parts.pop();
    for seg in target.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::testing::zip_with;

    #[test]
    fn kind_hints_name_another_package_kind() {
        let xlsx = zip_with(&["[Content_Types].xml", "xl/workbook.xml"]);
        let zip = Archive::open(&xlsx, "DOCX").unwrap();
        assert_eq!(zip.package_kinds(), ["an Excel workbook"]);
        assert_eq!(
            zip.kind_hint("a Word document"),
            " (it looks like an Excel workbook)"
        );
        assert_eq!(zip.kind_hint("an Excel workbook"), "");
        let odt = zip_with(&["mimetype", "content.xml", "word/stray.xml"]);
        let zip = Archive::open(&odt, "PPTX").unwrap();
        assert_eq!(
            zip.kind_hint("a Word document"),
            " (it looks like an OpenDocument file)"
        );
        assert_eq!(
            zip.kind_hint("a PowerPoint presentation"),
            " (it looks like a Word document)"
        );
        let plain = zip_with(&["readme.txt"]);
        assert_eq!(Archive::open(&plain, "EPUB").unwrap().kind_hint("an EPUB"), "");
    }

    #[test]
    fn resolves_relative_targets() {
        assert_eq!(resolve("word/document.xml", "media/a.png"), "word/media/a.png");
        assert_eq!(
            resolve("ppt/slides/slide1.xml", "../media/b.png"),
            "ppt/media/b.png"
        );
        assert_eq!(
            resolve("word/document.xml", "/customXml/item1.xml"),
            "customXml/item1.xml"
        );
        assert_eq!(resolve("", "./word/document.xml"), "word/document.xml");
    }
}
