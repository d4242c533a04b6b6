//! Distill format plugin `{{name}}`.
//!
//! Request it with `"formats": ["{{name}}"]` or `{"type": "{{name}}", ...options}`;
//! its value appears as `data["{{name}}"]` in the scrape response.

use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value, json};

/// The plugin.
pub struct {{Type}};

impl FormatPlugin for {{Type}} {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("TODO: one line about what {{name}} renders.")
            .format("{{name}}")
    }

    fn render(_format: &str, page: &Page, _options: &Value) -> Result<Value, PluginError> {
        // `page` holds the requested and final URL, status code, content type,
        // raw and cleaned HTML, and the metadata (`page.metadata_value()`).
        Ok(json!({ "cleanedHtmlBytes": page.cleaned_html.len() }))
    }
}

distill_sdk::export_plugin!(format: {{Type}});

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> Page {
        Page {
            requested_url: "https://example.com/".into(),
            final_url: "https://example.com/".into(),
            status_code: 200,
            content_type: Some("text/html".into()),
            raw_html: html.into(),
            cleaned_html: html.into(),
            metadata: "{}".into(),
        }
    }

    #[test]
    fn renders() {
        let out = {{Type}}::render("{{name}}", &page("<p>hi</p>"), &json!({})).unwrap();
        assert_eq!(out["cleanedHtmlBytes"], 9);
    }
}
