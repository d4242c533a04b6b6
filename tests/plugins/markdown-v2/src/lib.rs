//! Test fixture: serves format `markdown` with a recognisable answer
//! ("markdown v2: <title>") so a test can tell when a hot swap took effect.

use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value};

struct MarkdownV2;

impl FormatPlugin for MarkdownV2 {
    fn info() -> PluginInfo {
        PluginInfo::new("markdown", env!("CARGO_PKG_VERSION"))
            .description("Hot-swap test fixture")
            .format("markdown")
    }

    fn render(_format: &str, page: &Page, _options: &Value) -> Result<Value, PluginError> {
        let title = page.metadata_value()["title"].as_str().unwrap_or("").to_string();
        Ok(Value::String(format!("markdown v2: {title}")))
    }
}

distill_sdk::export_plugin!(format: MarkdownV2);
