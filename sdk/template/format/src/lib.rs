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
        // To read the markdown (or links, images) instead of redoing it, add
        // `.consumes("markdown")` to info() and call `page.markdown()`.
        // Read options with `distill_sdk::Options::new(options)`.
        Ok(json!({ "cleanedHtmlBytes": page.cleaned_html.len() }))
    }
}

distill_sdk::export_plugin!(format: {{Type}});

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> Page {
        Page::builder("https://example.com/").html(html).build()
    }

    #[test]
    fn renders() {
        let out = {{Type}}::render("{{name}}", &page("<p>hi</p>"), &json!({})).unwrap();
        assert_eq!(out["cleanedHtmlBytes"], 9);
    }
}
