//! Conversions between the current ABI's types and those of older versions.
//! 0.1.0 and 0.2.0 share one record shape, so one macro writes both sets:
//! what 0.3.0 and 0.4.0 added is dropped on the way in (page inputs, typed options) and
//! filled from the old conventions on the way out (`pagesNeedingOcr`).

use super::v0_5::types::{Document, DocumentKind, FileInput, OcrPage, Page, PluginError, PluginInfo};
use serde_json::Value;

/// The marker an 0.1/0.2 converter leaves where an OCR'd page's text belongs.
pub fn legacy_ocr_marker(page: u32) -> String {
    format!("<!-- distill:ocr-page {page} -->")
}

/// Moves an old converter's `pagesNeedingOcr` metadata key into typed OCR pages.
fn legacy_ocr_pages(metadata: &str) -> (String, Vec<OcrPage>) {
    let Ok(Value::Object(mut map)) = serde_json::from_str::<Value>(metadata) else {
        return (metadata.to_string(), Vec::new());
    };
    let Some(Value::Array(pages)) = map.remove("pagesNeedingOcr") else {
        return (metadata.to_string(), Vec::new());
    };
    let pages = pages
        .iter()
        .filter_map(Value::as_u64)
        .filter_map(|p| u32::try_from(p).ok())
        .map(|page| OcrPage {
            page,
            marker: legacy_ocr_marker(page),
        })
        .collect();
    (Value::Object(map).to_string(), pages)
}

macro_rules! legacy_conversions {
    ($module:ident, $types:path) => {
        /// Conversions to and from this version's types.
        pub mod $module {
            use super::*;
            use $types as old;

            pub fn page(p: &Page) -> old::Page {
                old::Page {
                    requested_url: p.requested_url.clone(),
                    final_url: p.final_url.clone(),
                    status_code: p.status_code,
                    content_type: p.content_type.clone(),
                    raw_html: p.raw_html.clone(),
                    cleaned_html: p.cleaned_html.clone(),
                    metadata: p.metadata.clone(),
                }
            }

            pub fn file(f: &FileInput) -> old::FileInput {
                old::FileInput {
                    name: f.name.clone(),
                    content_type: f.content_type.clone(),
                    bytes: f.bytes.clone(),
                }
            }

            pub fn info(i: old::PluginInfo) -> PluginInfo {
                PluginInfo {
                    name: i.name,
                    version: i.version,
                    description: i.description,
                    formats: i.formats,
                    extensions: i.extensions,
                    content_types: i.content_types,
                    capabilities: i.capabilities,
                    memory_limit_mib: i.memory_limit_mib,
                    timeout_ms: i.timeout_ms,
                    consumes: Vec::new(),
                    parser: None,
                }
            }

            pub fn error(e: old::PluginError) -> PluginError {
                match e {
                    old::PluginError::InvalidOptions(m) => PluginError::InvalidOptions(m),
                    old::PluginError::UnsupportedInput(m) => PluginError::UnsupportedInput(m),
                    old::PluginError::Failed(m) => PluginError::Failed(m),
                }
            }

            pub fn document(d: old::Document) -> Document {
                let (metadata, ocr_pages) = legacy_ocr_pages(&d.metadata);
                Document {
                    kind: match d.kind {
                        old::DocumentKind::Html => DocumentKind::Html,
                        old::DocumentKind::Markdown => DocumentKind::Markdown,
                    },
                    content: d.content,
                    metadata,
                    warnings: d.warnings,
                    ocr_pages,
                }
            }
        }
    };
}

legacy_conversions!(from_v1, crate::plugins::bindings::v0_1::types);
legacy_conversions!(from_v2, crate::plugins::bindings::v0_2::types);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_needing_ocr_become_typed() {
        let (metadata, pages) = legacy_ocr_pages(r#"{"title":"T","pagesNeedingOcr":[2,5]}"#);
        assert_eq!(metadata, r#"{"title":"T"}"#);
        assert_eq!(pages.iter().map(|p| p.page).collect::<Vec<_>>(), vec![2, 5]);
        assert_eq!(pages[1].marker, "<!-- distill:ocr-page 5 -->");
        let (same, none) = legacy_ocr_pages(r#"{"title":"T"}"#);
        assert_eq!(same, r#"{"title":"T"}"#);
        assert!(none.is_empty());
    }
}
