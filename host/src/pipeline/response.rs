//! Builds the response's `data` object: fields in a stable order (markdown,
//! html, rawHtml, links, images, plugin formats, metadata, warning), only the
//! ones requested. Plugin values (markdown included) arrive redacted by
//! `render`; the host's outputs are redacted here ([`super::redact`]).

use super::redact;
use crate::api::ScrapeOptions;
use serde_json::{Map, Value, json};

/// The parts a scrape produced.
pub struct ScrapeOutput {
    pub raw_html: String,
    pub cleaned_html: String,
    pub links: Option<Vec<String>>,
    pub images: Option<Vec<String>>,
    /// Plugin-rendered formats, in request order.
    pub rendered: Vec<(String, Value)>,
    pub metadata: Map<String, Value>,
    pub warnings: Vec<String>,
}

/// Where a format's value goes in `data` (most formats: under their own name).
fn response_field(format: &str) -> &str {
    match format {
        "question" => "answer",
        other => other,
    }
}

/// Assembles `data`.
pub fn build_data(opts: &ScrapeOptions, out: ScrapeOutput) -> Value {
    let mut data = Map::new();
    let pii = redact::options(opts);
    let pii = pii.as_ref();
    let mut rendered = out.rendered;
    if let Some(pos) = rendered.iter().position(|(f, _)| f == "markdown") {
        let (_, md) = rendered.remove(pos);
        let md = match md {
            Value::String(s) if opts.remove_base64_images => {
                Value::String(distill_html::remove_base64_images(&s))
            }
            other => other,
        };
        data.insert("markdown".into(), md);
    }
    if opts.wants("html") {
        data.insert("html".into(), json!(redact::html(out.cleaned_html, pii)));
    }
    if opts.wants("rawHtml") {
        data.insert("rawHtml".into(), json!(redact::html(out.raw_html, pii)));
    }
    if let Some(links) = out.links {
        data.insert("links".into(), redact::value(json!(links), pii));
    }
    if let Some(images) = out.images {
        data.insert("images".into(), redact::value(json!(images), pii));
    }
    for (format, value) in rendered {
        data.insert(response_field(&format).to_string(), value);
    }
    data.insert(
        "metadata".into(),
        Value::Object(redact::metadata(out.metadata, pii)),
    );
    if !out.warnings.is_empty() {
        data.insert("warning".into(), json!(out.warnings.join(" ")));
    }
    Value::Object(data)
}

/// Adds the engine's fields (`screenshot`, `actions`) to `data`, before
/// `metadata` as upstream orders them.
pub fn add_engine_data(data: Value, engine_data: Map<String, Value>) -> Value {
    if engine_data.is_empty() {
        return data;
    }
    let Value::Object(fields) = data else {
        return data;
    };
    let mut out = Map::new();
    let mut pending = Some(engine_data);
    for (k, v) in fields {
        if k == "metadata"
            && let Some(extra) = pending.take()
        {
            out.extend(extra);
        }
        out.insert(k, v);
    }
    if let Some(extra) = pending {
        out.extend(extra);
    }
    Value::Object(out)
}

/// A guess at the length of `data` written as JSON, to size the buffer it is
/// written into once instead of growing it by doubling: every string with a
/// little room for escapes, every key and separator, numbers and literals at
/// their longest. Only a capacity: a wrong guess costs one more growth, never
/// different bytes.
pub use crate::cache::json_string::json_size_hint;

#[cfg(test)]
mod tests {
    use super::json_size_hint;
    use serde_json::json;

    #[test]
    fn the_size_hint_covers_a_typical_document() {
        let doc = json!({
            "markdown": "# Title\n\nA \"quoted\" line.\n\n- one\n- two\n",
            "links": ["https://a.test/", "https://a.test/b"],
            "metadata": {"title": "T", "statusCode": 200, "language": null, "keywords": ["a", "b"],
                "nested": {"x": 1.5, "y": true}},
        });
        let written = serde_json::to_vec(&doc).unwrap().len();
        let hint = json_size_hint(&doc);
        assert!(hint >= written, "{hint} < {written}");
        assert!(hint < written * 2, "{hint} is far above {written}");
    }
}
