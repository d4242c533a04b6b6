//! Distill converter plugin `{{name}}`: turns `.{{name}}` files into HTML that
//! the host then cleans and renders like a web page.

use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value, json};

/// The plugin.
pub struct {{Type}};

impl ConverterPlugin for {{Type}} {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("TODO: one line about the files {{name}} converts.")
            .extension("{{name}}")
    }

    fn convert(file: &FileInput, _options: &Value) -> Result<Document, PluginError> {
        let text = std::str::from_utf8(&file.bytes)
            .map_err(|_| PluginError::UnsupportedInput(format!("{} is not UTF-8 text", file.name)))?;
        let escaped = text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        Ok(Document::html(format!("<pre>{escaped}</pre>")).with_metadata(json!({ "title": file.name })))
    }
}

distill_sdk::export_plugin!(converter: {{Type}});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_text() {
        let file = FileInput { name: "a.{{name}}".into(), content_type: None, bytes: b"1 < 2".to_vec() };
        let doc = {{Type}}::convert(&file, &json!({})).unwrap();
        assert_eq!(doc.content, "<pre>1 &lt; 2</pre>");
    }
}
