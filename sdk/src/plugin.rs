//! The traits a plugin implements, and the glue that adapts them to the raw
//! WIT exports (JSON in and out).

use crate::{Document, FileInput, Page, PluginError, PluginInfo};
use serde_json::Value;

/// An output format: turns a fetched, cleaned page into a JSON value.
pub trait FormatPlugin {
    /// What the plugin serves. Called once when the host loads the plugin.
    fn info() -> PluginInfo;

    /// Renders `format` (one of the formats in [`FormatPlugin::info`]) for `page`.
    /// `options` is the request's format object without `type` (an empty object
    /// when the format was requested as a plain string).
    fn render(format: &str, page: &Page, options: &Value) -> Result<Value, PluginError>;
}

/// An input converter: turns a document's bytes into HTML or markdown.
pub trait ConverterPlugin {
    /// What the plugin serves. Called once when the host loads the plugin.
    fn info() -> PluginInfo;

    /// Converts `file`. `options` holds the request's converter options.
    fn convert(file: &FileInput, options: &Value) -> Result<Document, PluginError>;
}

fn parse_options(options: &str) -> Result<Value, PluginError> {
    if options.trim().is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    serde_json::from_str(options)
        .map_err(|e| PluginError::InvalidOptions(format!("options are not valid JSON: {e}")))
}

#[doc(hidden)]
pub fn render_entry<P: FormatPlugin>(
    format: &str,
    page: &Page,
    options: &str,
) -> Result<String, PluginError> {
    let options = parse_options(options)?;
    let value = P::render(format, page, &options)?;
    serde_json::to_string(&value).map_err(|e| PluginError::Failed(e.to_string()))
}

#[doc(hidden)]
pub fn convert_entry<P: ConverterPlugin>(file: &FileInput, options: &str) -> Result<Document, PluginError> {
    let options = parse_options(options)?;
    P::convert(file, &options)
}
