//! The traits a plugin implements, and the glue that adapts them to the raw
//! WIT exports (options as JSON in; a string value out as it is, any other
//! as JSON). Every method but `info` has a default, so a later ABI can add
//! exports without breaking plugins written today.

use crate::{
    Document, FileInput, FormatValue, Page, PluginError, PluginInfo, Rendered, Setting, SettingValue,
};
use serde_json::{Map, Value};
use std::cell::RefCell;

/// An output format: turns a fetched, cleaned page into a JSON value.
pub trait FormatPlugin {
    /// What the plugin serves. Called once when the host loads the plugin.
    fn info() -> PluginInfo;

    /// Renders `format` (one of the formats in [`FormatPlugin::info`]) for `page`.
    /// `options` is the request's format object without `type` (an empty object
    /// when the format was requested as a plain string); read it with
    /// [`crate::Options`]. Formats named in `PluginInfo::consumes` are in
    /// [`Page::input`]. The default refuses every format.
    fn render(format: &str, page: &Page, options: &Value) -> Result<Value, PluginError> {
        let _ = (page, options);
        Err(PluginError::unsupported(format!(
            "this plugin does not render the '{format}' format"
        )))
    }
}

/// An input converter: turns a document's bytes into HTML or markdown.
pub trait ConverterPlugin {
    /// What the plugin serves. Called once when the host loads the plugin.
    fn info() -> PluginInfo;

    /// Converts `file`. `options` is a JSON object of the options the request
    /// set in this converter's `parsers` entry, already checked by the host
    /// against the declared [`crate::ParserSpec`] (empty: use defaults); read
    /// it with [`crate::Options`]. The default refuses every file.
    fn convert(file: &FileInput, options: &Value) -> Result<Document, PluginError> {
        let _ = options;
        Err(PluginError::unsupported(format!(
            "this plugin does not convert {}",
            file.name
        )))
    }
}

fn parse_options(options: &str) -> Result<Value, PluginError> {
    if options.trim().is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    serde_json::from_str(options)
        .map_err(|e| PluginError::invalid_options(format!("options are not valid JSON: {e}")))
}

/// Typed settings as the JSON object converters read.
pub fn settings_to_json(settings: &[Setting]) -> Value {
    let mut map = Map::new();
    for s in settings {
        let v = match &s.value {
            SettingValue::Boolean(b) => Value::Bool(*b),
            SettingValue::Integer(n) => Value::from(*n),
            SettingValue::Number(n) => serde_json::Number::from_f64(*n)
                .map(Value::Number)
                .unwrap_or(Value::Null),
            SettingValue::Text(t) => Value::String(t.clone()),
        };
        map.insert(s.name.clone(), v);
    }
    Value::Object(map)
}

thread_local! {
    static WARNINGS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Adds a warning to the response's `warning` field from inside
/// [`FormatPlugin::render`] — e.g. with a null value, to say why the format
/// found nothing. (Converters use [`Document::with_warning`].)
pub fn warning(message: impl Into<String>) {
    WARNINGS.with(|w| w.borrow_mut().push(message.into()));
}

/// The warnings given with [`warning`] since the last call (for native unit
/// tests of a format; the export glue takes them after each `render`).
pub fn take_warnings() -> Vec<String> {
    WARNINGS.with(|w| std::mem::take(&mut *w.borrow_mut()))
}

/// A string value goes to the host as it is (ABI 0.5 `text`: no escaping
/// here, no parse there); any other value as JSON text.
fn format_value(value: Value) -> Result<FormatValue, PluginError> {
    match value {
        Value::String(text) => Ok(FormatValue::Text(text)),
        other => serde_json::to_string(&other)
            .map(FormatValue::Json)
            .map_err(|e| PluginError::failed(e.to_string())),
    }
}

#[doc(hidden)]
pub fn render_entry<P: FormatPlugin>(
    format: &str,
    page: &Page,
    options: &str,
) -> Result<Rendered, PluginError> {
    take_warnings();
    let options = parse_options(options)?;
    let value = format_value(P::render(format, page, &options)?)?;
    Ok(Rendered {
        value,
        warnings: take_warnings(),
    })
}

#[doc(hidden)]
pub fn convert_entry<P: ConverterPlugin>(
    file: &FileInput,
    settings: &[Setting],
) -> Result<Document, PluginError> {
    P::convert(file, &settings_to_json(settings))
}
