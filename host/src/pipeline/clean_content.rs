//! `onlyCleanContent`: the model pass over the returned markdown, served by
//! the plugin of the internal format `cleanContent` (plugins/clean-content).
//! When the option is set and markdown is requested, the host renders
//! `cleanContent` too and its string replaces `data.markdown`; a `null`
//! (skipped: too long, no model, failed — the plugin says why in a warning)
//! keeps the markdown. Refused for zero-data-retention requests (the spec:
//! "Not supported for zero-data-retention requests"), with a warning.

use crate::api::{FormatRequest, ScrapeOptions};
use crate::plugins::Registry;
use serde_json::Value;

/// The format the cleaning plugin serves.
pub const FORMAT: &str = "cleanContent";

/// Why a model call is refused for a zero-data-retention request.
pub const ZDR_NO_MODEL: &str =
    "not supported with zero data retention (the page would be sent to the language model)";

/// Whether the pass runs for `opts`; warnings say why not when asked for.
pub fn wanted(opts: &ScrapeOptions, registry: &Registry, warnings: &mut Vec<String>) -> bool {
    if !opts.only_clean_content || !opts.wants("markdown") {
        return false;
    }
    if opts.zero_data_retention {
        warnings.push(format!(
            "onlyCleanContent: {ZDR_NO_MODEL}; the markdown is returned as is"
        ));
        return false;
    }
    if registry.format(FORMAT).is_none() {
        warnings.push(
            "onlyCleanContent: no loaded plugin serves it (cleanContent); the markdown is returned as is"
                .to_string(),
        );
        return false;
    }
    true
}

/// Adds the cleaning format to `formats` (once).
pub fn add_format(formats: &mut Vec<FormatRequest>) {
    if !formats.iter().any(|f| f.name == FORMAT) {
        formats.push(FormatRequest::named(FORMAT));
    }
}

/// Moves the cleaned markdown into `markdown`; drops `cleanContent` from the
/// values unless the request asked for it by name.
pub fn apply(rendered: &mut Vec<(String, Value)>, opts: &ScrapeOptions) {
    let Some(pos) = rendered.iter().position(|(f, _)| f == FORMAT) else {
        return;
    };
    let cleaned = if opts.wants(FORMAT) {
        rendered[pos].1.clone()
    } else {
        rendered.remove(pos).1
    };
    if let Value::String(md) = cleaned
        && let Some((_, markdown)) = rendered.iter_mut().find(|(f, _)| f == "markdown")
    {
        *markdown = Value::String(md);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn opts(body: Value) -> ScrapeOptions {
        crate::api::ScrapeRequest::from_json(&body, &|_: &str| true)
            .expect("valid")
            .options
    }

    #[test]
    fn the_cleaned_string_replaces_markdown_null_keeps_it() {
        let o = opts(json!({"url": "https://e.x/", "onlyCleanContent": true}));
        let mut r = vec![
            ("markdown".to_string(), json!("raw")),
            (FORMAT.to_string(), json!("clean")),
        ];
        apply(&mut r, &o);
        assert_eq!(r, vec![("markdown".to_string(), json!("clean"))]);
        let mut r = vec![
            ("markdown".to_string(), json!("raw")),
            (FORMAT.to_string(), Value::Null),
        ];
        apply(&mut r, &o);
        assert_eq!(r, vec![("markdown".to_string(), json!("raw"))]);
    }
}
