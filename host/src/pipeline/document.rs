//! Documents (PDF, DOCX, ...): the converter's options from the request's
//! `parsers` entry (checked against what the converter declares), the
//! sandboxed call, OCR of the pages the converter hands over, and upstream's
//! special case `parsers: []` (the PDF itself, base64-encoded). The result
//! feeds [`super::produce`].

use super::error::{Origin, PipelineError};
use crate::api::ScrapeOptions;
use crate::api::scrape_request::{ParserSpec, parsers_json};
use crate::plugins::bindings::{ConvertOptions, DocumentKind, FileInput, Setting, SettingValue};
use crate::plugins::manifest::{OptionDecl, ParserDecl};
use crate::plugins::{LoadedPlugin, PluginKind};
use crate::services::Services;
use base64::Engine as _;
use serde_json::{Map, Value, json};
use std::time::Instant;

/// A converted document.
pub struct Converted {
    pub html: String,
    pub markdown: Option<String>,
    pub metadata: Map<String, Value>,
    pub warnings: Vec<String>,
}

/// Converts `file` with `plugin`, or returns it base64-encoded when the
/// converter's parser is switched off by the request's `parsers` (upstream's
/// `parsers: []` for PDFs).
pub async fn convert(
    services: &Services,
    plugin: &LoadedPlugin,
    file: FileInput,
    opts: &ScrapeOptions,
    scrape_id: &str,
    deadline: Instant,
    origin: Origin,
) -> Result<Converted, PipelineError> {
    let parser = parser_of(plugin);
    let entry = parser
        .as_ref()
        .and_then(|p| opts.parsers.iter().find(|e| e.kind == p.name));
    if parser.as_ref().is_some_and(|p| p.raw_unless_listed) && entry.is_none() {
        let encoded = base64::engine::general_purpose::STANDARD.encode(&file.bytes);
        return Ok(Converted {
            html: encoded.clone(),
            markdown: Some(encoded),
            metadata: Map::new(),
            warnings: Vec::new(),
        });
    }
    let settings = match (&parser, entry) {
        (Some(parser), Some(entry)) => {
            settings_for(parser, entry).map_err(|message| PipelineError::ConverterOptions {
                file: file.name.clone(),
                message,
            })?
        }
        _ => Vec::new(),
    };
    let legacy_json = legacy_options(&opts.parsers, &settings).to_string();
    let doc = services
        .plugins
        .convert(
            plugin,
            &file,
            ConvertOptions {
                settings: &settings,
                legacy_json: &legacy_json,
            },
            scrape_id,
            deadline,
        )
        .await
        .map_err(|error| PipelineError::Convert {
            file: file.name.clone(),
            origin,
            error,
            timeout_ms: opts.timeout_ms,
        })?;
    let metadata = match serde_json::from_str::<Value>(&doc.metadata) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let (html, markdown) = match doc.kind {
        DocumentKind::Html => (doc.content, None),
        DocumentKind::Markdown => (markdown_to_html(&doc.content), Some(doc.content)),
    };
    let mut converted = Converted {
        html,
        markdown,
        metadata,
        warnings: doc.warnings,
    };
    if !doc.ocr_pages.is_empty() {
        let mode = entry.map(|e| e.mode.as_str()).unwrap_or("auto");
        let pages: Vec<(u32, String)> = doc.ocr_pages.into_iter().map(|p| (p.page, p.marker)).collect();
        ocr_into(services, &mut converted, &file.bytes, &pages, mode, deadline).await;
    }
    Ok(converted)
}

/// The parser that configures `plugin`: its declaration (ABI 0.3), or for an
/// older converter of PDFs the "pdf" parser the host always knew it by.
fn parser_of(plugin: &LoadedPlugin) -> Option<ParserDecl> {
    if plugin.kind != PluginKind::Converter {
        return None;
    }
    if let Some(parser) = &plugin.manifest.parser {
        return Some(parser.clone());
    }
    let legacy_pdf = matches!(plugin.abi_version, "0.1.0" | "0.2.0")
        && plugin.manifest.extensions.iter().any(|e| e == "pdf");
    legacy_pdf.then(|| ParserDecl {
        name: "pdf".into(),
        options: Vec::new(),
        raw_unless_listed: true,
    })
}

/// Checks a request's `parsers` entry against what the converter declares and
/// types its values. Keys the API itself defines for every entry (`mode`,
/// `maxPages` of upstream's "pdf" parser) pass through only when declared.
fn settings_for(parser: &ParserDecl, entry: &ParserSpec) -> Result<Vec<Setting>, String> {
    let mut given: Vec<(String, Value)> = Vec::new();
    if entry.kind == "pdf" {
        given.push(("mode".into(), json!(entry.mode)));
        if let Some(n) = entry.max_pages {
            given.push(("maxPages".into(), json!(n)));
        }
    }
    given.extend(entry.extra.iter().map(|(k, v)| (k.clone(), v.clone())));
    let mut settings = Vec::new();
    for (name, value) in given {
        let Some(decl) = parser.options.iter().find(|o| o.name == name) else {
            if entry.kind == "pdf" && parser.options.is_empty() {
                continue; // a converter that declares no options gets none
            }
            let known: Vec<&str> = parser.options.iter().map(|o| o.name.as_str()).collect();
            return Err(format!(
                "parser '{}' has no option '{name}' (it accepts: {})",
                parser.name,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ));
        };
        settings.push(Setting {
            value: typed_value(&parser.name, decl, &value)?,
            name,
        });
    }
    Ok(settings)
}

/// One value checked against its declaration.
fn typed_value(parser: &str, decl: &OptionDecl, value: &Value) -> Result<SettingValue, String> {
    let bad = |expected: &str| {
        format!(
            "parser '{parser}' option '{}' must be {expected}, not {value}",
            decl.name
        )
    };
    match (decl.kind, value) {
        ("boolean", Value::Bool(b)) => Ok(SettingValue::Boolean(*b)),
        ("integer", Value::Number(n)) if n.as_i64().is_some() => {
            let n = n.as_i64().expect("checked");
            let low = decl.minimum.unwrap_or(i64::MIN);
            let high = decl.maximum.unwrap_or(i64::MAX);
            if (low..=high).contains(&n) {
                Ok(SettingValue::Integer(n))
            } else {
                Err(bad(&format!("an integer from {low} to {high}")))
            }
        }
        ("number", Value::Number(n)) => Ok(SettingValue::Number(n.as_f64().unwrap_or(f64::NAN))),
        ("text", Value::String(s)) if decl.choices.is_empty() || decl.choices.contains(s) => {
            Ok(SettingValue::Text(s.clone()))
        }
        ("text", Value::String(_)) => Err(bad(&format!("one of {}", decl.choices.join(", ")))),
        (kind, _) => Err(bad(&format!(
            "a{} {kind}",
            if kind == "integer" { "n" } else { "" }
        ))),
    }
}

/// What 0.1 / 0.2 converters read: `{"parsers": [...]}` plus the settings as keys.
fn legacy_options(parsers: &[ParserSpec], settings: &[Setting]) -> Value {
    let mut map = Map::new();
    map.insert("parsers".into(), parsers_json(parsers));
    for s in settings {
        let v = match &s.value {
            SettingValue::Boolean(b) => json!(b),
            SettingValue::Integer(n) => json!(n),
            SettingValue::Number(n) => json!(n),
            SettingValue::Text(t) => json!(t),
        };
        map.insert(s.name.clone(), v);
    }
    Value::Object(map)
}

/// Runs OCR on `pages` (unless `mode` is "fast") and puts each page's text
/// where the converter left its marker.
async fn ocr_into(
    services: &Services,
    doc: &mut Converted,
    file: &[u8],
    pages: &[(u32, String)],
    mode: &str,
    deadline: Instant,
) {
    let numbers: Vec<u32> = pages.iter().map(|(p, _)| *p).collect();
    if mode == "fast" {
        doc.warnings.push(format!(
            "Page(s) {numbers:?} have no text layer; mode \"fast\" skips OCR (use mode \"auto\" or \"ocr\")."
        ));
        return;
    }
    match ocr_pages(services, file, &numbers, deadline).await {
        Ok(texts) => {
            let blank: Vec<u32> = texts
                .iter()
                .filter(|(_, t)| t.trim().is_empty())
                .map(|(p, _)| *p)
                .collect();
            if !blank.is_empty() {
                doc.warnings
                    .push(format!("OCR found no text on page(s) {blank:?}"));
            }
            for (page, text) in texts {
                let marker = pages
                    .iter()
                    .find(|(p, _)| *p == page)
                    .map(|(_, m)| m.as_str())
                    .unwrap_or("");
                let escaped = escape_html(&text);
                let block_html = format!("<p>{}</p>", escaped.replace("\n\n", "</p><p>"));
                doc.html = replace_or_append(&doc.html, marker, &block_html);
                if let Some(md) = doc.markdown.as_mut() {
                    *md = replace_or_append(md, marker, &text);
                }
            }
            doc.metadata.insert("ocrPages".into(), json!(numbers));
        }
        Err(why) => doc.warnings.push(format!(
            "OCR was needed for page(s) {numbers:?} but failed: {why}"
        )),
    }
}

async fn ocr_pages(
    services: &Services,
    pdf: &[u8],
    pages: &[u32],
    deadline: Instant,
) -> Result<Vec<(u32, String)>, String> {
    let Some(ocr) = services.ocr.clone() else {
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
    if !marker.is_empty() && text.contains(marker) {
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
        let marker = "<!-- distill:ocr-page 2 -->";
        assert_eq!(
            replace_or_append("a <!-- distill:ocr-page 2 --> b", marker, "X"),
            "a X b"
        );
        assert_eq!(replace_or_append("a", marker, "X"), "a\n\nX");
        assert_eq!(replace_or_append("a", "", "X"), "a\n\nX");
    }

    fn decl(name: &str, kind: &'static str, bounds: Option<(i64, i64)>, choices: &[&str]) -> OptionDecl {
        OptionDecl {
            name: name.into(),
            kind,
            description: String::new(),
            minimum: bounds.map(|b| b.0),
            maximum: bounds.map(|b| b.1),
            choices: choices.iter().map(|c| c.to_string()).collect(),
        }
    }

    fn entry(kind: &str, extra: Value) -> ParserSpec {
        ParserSpec {
            kind: kind.into(),
            max_pages: None,
            mode: "auto".into(),
            extra: extra.as_object().cloned().unwrap_or_default(),
        }
    }

    #[test]
    fn parser_entries_become_typed_settings() {
        let parser = ParserDecl {
            name: "sheet".into(),
            options: vec![
                decl("maxRows", "integer", Some((1, 100)), &[]),
                decl("style", "text", None, &["a", "b"]),
            ],
            raw_unless_listed: false,
        };
        let ok = settings_for(&parser, &entry("sheet", json!({"maxRows": 10, "style": "b"}))).unwrap();
        assert_eq!(ok.len(), 2);
        assert!(matches!(ok[0].value, SettingValue::Integer(10)));
        assert!(matches!(&ok[1].value, SettingValue::Text(t) if t == "b"));
        let err = settings_for(&parser, &entry("sheet", json!({"maxRows": 1000}))).unwrap_err();
        assert!(err.contains("from 1 to 100"), "{err}");
        let err = settings_for(&parser, &entry("sheet", json!({"maxRows": "ten"}))).unwrap_err();
        assert!(err.contains("must be an integer"), "{err}");
        let err = settings_for(&parser, &entry("sheet", json!({"style": "c"}))).unwrap_err();
        assert!(err.contains("one of a, b"), "{err}");
        let err = settings_for(&parser, &entry("sheet", json!({"colour": 1}))).unwrap_err();
        assert!(
            err.contains("has no option 'colour'") && err.contains("maxRows, style"),
            "{err}"
        );
    }

    #[test]
    fn pdf_entries_carry_mode_and_max_pages() {
        let parser = ParserDecl {
            name: "pdf".into(),
            options: vec![
                decl("mode", "text", None, &["fast", "auto", "ocr"]),
                decl("maxPages", "integer", Some((1, 10_000)), &[]),
            ],
            raw_unless_listed: true,
        };
        let mut e = entry("pdf", json!({}));
        e.max_pages = Some(3);
        let s = settings_for(&parser, &e).unwrap();
        assert_eq!(
            s.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
            vec!["mode", "maxPages"]
        );
        let legacy = legacy_options(&[e], &s);
        assert_eq!(legacy["parsers"][0]["maxPages"], json!(3));
        assert_eq!(legacy["mode"], json!("auto"));
    }
}
