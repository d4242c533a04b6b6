//! The `/v2/parse` upload: its `options` part (the scrape options, minus what
//! an upload cannot do), the upload's kind (HTML or a document a converter
//! handles), and upstream's exact error messages.

use super::error::ApiError;
use super::scrape_request::{Catalog, ScrapeOptions, issues_to_error, parse_options};
use super::validate::Checker;
use axum::http::StatusCode;
use serde_json::Value;

/// Largest upload, in bytes (50 MB, as upstream: 50 × 1024 × 1024).
pub const MAX_UPLOAD_BYTES: usize = 50 * 1024 * 1024;

/// Default `timeout` of a parse (upstream's parse default), in ms.
pub const DEFAULT_PARSE_TIMEOUT_MS: u64 = 30_000;

/// Extensions handled by the HTML pipeline itself.
pub const HTML_EXTENSIONS: &[&str] = &["html", "htm", "xhtml"];

/// The extensions the spec lists, in its order (used in error messages when a
/// converter for one of them is loaded).
pub const SPEC_EXTENSIONS: &[&str] = &[
    "html", "htm", "xhtml", "pdf", "docx", "doc", "docm", "odt", "ods", "odp", "rtf", "xlsx", "xls", "xlsm",
    "xlsb", "pptx", "ppt", "pptm", "epub", "csv",
];

/// What kind of upload this is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UploadKind {
    /// HTML, through the same pipeline as a fetched page.
    Html,
    /// A document for the converter serving this extension.
    Document { extension: String },
}

pub fn missing_file() -> ApiError {
    ApiError::bad_request(
        "Missing file upload. Send multipart/form-data with a 'file' field and optional 'options' JSON string.",
    )
}

pub fn too_large() -> ApiError {
    ApiError::bad_request("Uploaded file exceeds maximum size of 50MB.")
}

/// Reads the `options` part. `None` (no part) gives the defaults.
pub fn parse_upload_options(raw: Option<&str>, catalog: &dyn Catalog) -> Result<ScrapeOptions, ApiError> {
    let value: Value = match raw.map(str::trim) {
        None | Some("") => Value::Object(Default::default()),
        Some(text) => serde_json::from_str(text).map_err(|_| {
            ApiError::bad_request("Invalid JSON in the 'options' field. Provide a valid JSON string.")
        })?,
    };
    if !value.is_object() {
        return Err(ApiError::bad_request(
            "The 'options' field must parse to a JSON object.",
        ));
    }
    let mut c = Checker::default();
    let mut fields = c.object(&value, Vec::new()).expect("checked above");
    let mut options = parse_options(&mut c, &mut fields, catalog);
    fields.finish_with_message(&mut c, None);
    if !c.is_ok() {
        return Err(issues_to_error(c));
    }
    if value.get("timeout").is_none_or(Value::is_null) {
        options.timeout_ms = DEFAULT_PARSE_TIMEOUT_MS;
    }
    refuse_unsupported(&options, &value)?;
    Ok(options)
}

/// Options a parse cannot honour, with upstream's messages.
fn refuse_unsupported(o: &ScrapeOptions, raw: &Value) -> Result<(), ApiError> {
    let refuse = |what: &str| {
        Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "PARSE_UNSUPPORTED_OPTIONS",
            format!("Parse uploads do not support {what}."),
        ))
    };
    if !o.actions.is_empty() {
        return refuse("actions");
    }
    if o.wants("screenshot") {
        return refuse("screenshot output");
    }
    if o.wants("branding") {
        return refuse("branding output");
    }
    if o.wants("changeTracking") {
        return refuse("change tracking");
    }
    if o.wait_for_ms > 0 {
        return refuse("waitFor");
    }
    if o.location.is_some() {
        return refuse("location overrides");
    }
    if o.mobile {
        return refuse("mobile rendering");
    }
    if matches!(raw.get("proxy").and_then(Value::as_str), Some(p) if p != "auto" && p != "basic") {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "PARSE_UNSUPPORTED_OPTIONS",
            "Parse uploads only support proxy values of auto or basic.",
        ));
    }
    Ok(())
}

/// The lower-case extension of a file name, if any.
pub fn extension_of(file_name: &str) -> Option<String> {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let (stem, ext) = base.rsplit_once('.')?;
    (!stem.is_empty() && !ext.is_empty()).then(|| ext.to_ascii_lowercase())
}

/// Decides how to handle an upload from its name, then its declared MIME
/// type. `converter_for` says whether a converter serves an extension or a
/// MIME type (returning the extension it serves).
pub fn detect_kind(
    file_name: &str,
    content_type: Option<&str>,
    converter_for_extension: &dyn Fn(&str) -> bool,
    converter_for_mime: &dyn Fn(&str) -> Option<String>,
) -> Option<UploadKind> {
    if let Some(ext) = extension_of(file_name) {
        if HTML_EXTENSIONS.contains(&ext.as_str()) {
            return Some(UploadKind::Html);
        }
        if converter_for_extension(&ext) {
            return Some(UploadKind::Document { extension: ext });
        }
    }
    let mime = content_type?.split(';').next()?.trim().to_ascii_lowercase();
    if mime.contains("text/html") || mime == "application/xhtml+xml" {
        return Some(UploadKind::Html);
    }
    converter_for_mime(&mime).map(|extension| UploadKind::Document { extension })
}

/// The registered MIME type of a document extension (for `metadata.contentType`
/// when the upload declares none or a generic one).
pub fn mime_for_extension(extension: &str) -> Option<&'static str> {
    Some(match extension {
        "pdf" => "application/pdf",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "docm" => "application/vnd.ms-word.document.macroEnabled.12",
        "doc" => "application/msword",
        "odt" => "application/vnd.oasis.opendocument.text",
        "ods" => "application/vnd.oasis.opendocument.spreadsheet",
        "odp" => "application/vnd.oasis.opendocument.presentation",
        "rtf" => "application/rtf",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "xlsm" => "application/vnd.ms-excel.sheet.macroEnabled.12",
        "xlsb" => "application/vnd.ms-excel.sheet.binary.macroEnabled.12",
        "xls" => "application/vnd.ms-excel",
        "pptx" => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "pptm" => "application/vnd.ms-powerpoint.presentation.macroEnabled.12",
        "ppt" => "application/vnd.ms-powerpoint",
        "epub" => "application/epub+zip",
        "csv" => "text/csv",
        _ => return None,
    })
}

/// `UNSUPPORTED_FILE_TYPE`, listing what this server accepts.
pub fn unsupported_type(supported: &[String]) -> ApiError {
    let list = supported
        .iter()
        .map(|e| format!(".{e}"))
        .collect::<Vec<_>>()
        .join(", ");
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "UNSUPPORTED_FILE_TYPE",
        format!("Unsupported upload type. Supported file extensions: {list}"),
    )
}

/// The extensions this server accepts: HTML plus every converter's, in the
/// spec's order first, then any others.
pub fn supported_extensions(converter_extensions: &[String]) -> Vec<String> {
    let mut out: Vec<String> = SPEC_EXTENSIONS
        .iter()
        .filter(|e| HTML_EXTENSIONS.contains(e) || converter_extensions.iter().any(|c| c == *e))
        .map(|e| e.to_string())
        .collect();
    for e in converter_extensions {
        if !out.contains(e) {
            out.push(e.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(raw: &str) -> Result<ScrapeOptions, ApiError> {
        parse_upload_options(Some(raw), &|_: &str| false)
    }

    #[test]
    fn options_errors_match_upstream() {
        assert_eq!(
            opts("{").unwrap_err().message,
            "Invalid JSON in the 'options' field. Provide a valid JSON string."
        );
        assert_eq!(
            opts("[1]").unwrap_err().message,
            "The 'options' field must parse to a JSON object."
        );
        let e = opts(r#"{"actions":[{"type":"wait","milliseconds":10}]}"#).unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (
                "PARSE_UNSUPPORTED_OPTIONS",
                "Parse uploads do not support actions."
            )
        );
        assert_eq!(
            opts(r#"{"formats":[{"type":"screenshot"}]}"#)
                .unwrap_err()
                .message,
            "Parse uploads do not support screenshot output."
        );
        assert_eq!(
            opts(r#"{"waitFor":100}"#).unwrap_err().message,
            "Parse uploads do not support waitFor."
        );
        assert_eq!(
            opts(r#"{"mobile":true}"#).unwrap_err().message,
            "Parse uploads do not support mobile rendering."
        );
        assert_eq!(
            opts(r#"{"location":{"country":"DE"}}"#).unwrap_err().message,
            "Parse uploads do not support location overrides."
        );
        assert_eq!(
            opts(r#"{"proxy":"enhanced"}"#).unwrap_err().message,
            "Parse uploads only support proxy values of auto or basic."
        );
        assert_eq!(opts(r#"{"bogus":1}"#).unwrap_err().code, "BAD_REQUEST");
        let o = opts(r#"{"formats":["markdown","html"],"origin":"python-sdk@4"}"#).unwrap();
        assert_eq!(o.timeout_ms, DEFAULT_PARSE_TIMEOUT_MS);
        assert_eq!(opts(r#"{"timeout":90000}"#).unwrap().timeout_ms, 90_000);
    }

    #[test]
    fn kinds() {
        let ext = |e: &str| e == "docx" || e == "pdf";
        let mime = |m: &str| (m == "application/pdf").then(|| "pdf".to_string());
        assert_eq!(detect_kind("a.HTML", None, &ext, &mime), Some(UploadKind::Html));
        assert_eq!(
            detect_kind("dir/r.docx", None, &ext, &mime),
            Some(UploadKind::Document {
                extension: "docx".into()
            })
        );
        assert_eq!(
            detect_kind("blob", Some("application/pdf"), &ext, &mime),
            Some(UploadKind::Document {
                extension: "pdf".into()
            })
        );
        assert_eq!(
            detect_kind("page", Some("text/html; charset=utf-8"), &ext, &mime),
            Some(UploadKind::Html)
        );
        assert_eq!(
            detect_kind("x.exe", Some("application/octet-stream"), &ext, &mime),
            None
        );
        assert_eq!(extension_of(".bashrc"), None);
        let list = supported_extensions(&["pdf".into(), "docx".into(), "md".into()]);
        assert_eq!(list, ["html", "htm", "xhtml", "pdf", "docx", "md"]);
        assert!(
            unsupported_type(&list)
                .message
                .ends_with(".html, .htm, .xhtml, .pdf, .docx, .md")
        );
    }
}
