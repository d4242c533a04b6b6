//! The `formats` option: each element a string (`"markdown"`) or an object
//! (`{"type": "json", "prompt": ...}`). Built-in formats have their options
//! checked here; a format served by a plugin takes any options, which are passed
//! to the plugin as JSON.

use super::validate::{Checker, Fields, Path, check_int, tagged_variant};
use serde_json::{Map, Value, json};

/// Formats the spec names. Those the host renders itself are in [`HOST_FORMATS`];
/// the rest are rendered by plugins when one is loaded.
pub const SPEC_FORMATS: &[&str] = &[
    "markdown",
    "summary",
    "html",
    "rawHtml",
    "links",
    "images",
    "screenshot",
    "json",
    "changeTracking",
    "audio",
    "video",
    "branding",
    "menu",
    "product",
    "highlights",
    "question",
];

/// Formats the host produces without a plugin.
pub const HOST_FORMATS: &[&str] = &["html", "rawHtml", "links", "images"];

/// One requested format.
#[derive(Debug, Clone, PartialEq)]
pub struct FormatRequest {
    /// The format's name (`type`).
    pub name: String,
    /// Its options, without `type` (empty for the string form).
    pub options: Map<String, Value>,
}

impl FormatRequest {
    pub fn named(name: &str) -> Self {
        FormatRequest {
            name: name.to_string(),
            options: Map::new(),
        }
    }
}

/// Reads `formats`. `is_plugin_format` says whether a name outside the spec is
/// served by a loaded plugin (such formats are accepted with any options).
pub fn parse_formats(
    c: &mut Checker,
    fields: &mut Fields,
    is_plugin_format: &dyn Fn(&str) -> bool,
) -> Vec<FormatRequest> {
    let path = fields.at("formats");
    let Some(value) = fields.raw("formats") else {
        return vec![FormatRequest::named("markdown")];
    };
    let Value::Array(items) = value else {
        c.invalid_type(&path, "array", value);
        return Vec::new();
    };
    let mut out: Vec<FormatRequest> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let mut p = path.clone();
        p.push(json!(i));
        if let Some(f) = parse_one(c, item, p, is_plugin_format) {
            if !out.iter().any(|o| o.name == f.name) {
                out.push(f);
            } else if f.name == "screenshot" {
                c.custom(&path, "You may only specify one screenshot format");
            }
        }
    }
    if out.iter().any(|f| f.name == "changeTracking") && !out.iter().any(|f| f.name == "markdown") {
        c.custom(
            &path,
            "The changeTracking format requires the markdown format to be specified as well",
        );
    }
    out
}

/// The JSON Schema of `formats`: names in string form, the object form of
/// every spec format (its options as [`check_builtin_options`] reads them), and
/// the formats `plugin_formats` names (free-form options).
pub fn formats_schema(plugin_formats: &[String]) -> Value {
    let mut names: Vec<&str> = SPEC_FORMATS.to_vec();
    names.extend(
        plugin_formats
            .iter()
            .map(String::as_str)
            .filter(|n| !SPEC_FORMATS.contains(n)),
    );
    let string_names: Vec<&str> = names.iter().copied().filter(|n| !needs_object_form(n)).collect();
    let mut variants = vec![json!({"type": "string", "enum": string_names})];
    for name in &names {
        variants.push(tagged_variant("type", name, |c, item| {
            parse_one(c, item, Vec::new(), &|_| true);
        }));
    }
    json!({"type": "array", "default": ["markdown"], "items": {"oneOf": variants}})
}

fn parse_one(
    c: &mut Checker,
    item: &Value,
    path: Path,
    is_plugin_format: &dyn Fn(&str) -> bool,
) -> Option<FormatRequest> {
    match item {
        Value::String(name) => {
            check_name(c, name, &path, is_plugin_format)?;
            if needs_object_form(name) {
                c.custom(
                    &path,
                    format!("The '{name}' format needs its options: use the object form {{\"type\": \"{name}\", ...}}"),
                );
                return None;
            }
            Some(FormatRequest::named(name))
        }
        Value::Object(map) => {
            let mut fields = Fields::new(map, path.clone());
            let name = fields.required_string(c, "type")?;
            let mut type_path = path.clone();
            type_path.push(json!("type"));
            check_name(c, &name, &type_path, is_plugin_format)?;
            check_builtin_options(c, &name, &mut fields);
            let mut options = map.clone();
            options.remove("type");
            Some(FormatRequest { name, options })
        }
        other => {
            c.invalid_type(&path, "string or object", other);
            None
        }
    }
}

fn check_name(
    c: &mut Checker,
    name: &str,
    path: &Path,
    is_plugin_format: &dyn Fn(&str) -> bool,
) -> Option<()> {
    if SPEC_FORMATS.contains(&name) || is_plugin_format(name) {
        return Some(());
    }
    c.issue(
        "invalid_enum_value",
        path,
        format!(
            "Invalid format '{name}'. Expected one of: {} (or a format served by a loaded plugin)",
            SPEC_FORMATS.join(", ")
        ),
        json!({"options": SPEC_FORMATS, "received": name}),
    );
    None
}

/// Formats whose string form would lack required options.
fn needs_object_form(name: &str) -> bool {
    matches!(name, "question" | "highlights")
}

/// Checks options of the formats whose option objects the spec defines; others
/// (plugin formats, and spec formats whose options are "not shown") pass as they are.
fn check_builtin_options(c: &mut Checker, name: &str, fields: &mut Fields) {
    match name {
        "markdown" | "html" | "rawHtml" | "links" | "images" | "summary" => {}
        "screenshot" => {
            check_screenshot_options(c, fields);
        }
        "json" => {
            fields.string(c, "prompt");
            fields.any_object(c, "schema");
            // firecrawl-py's `JsonFormat` always sends this key (null when
            // unset): upstream's deprecated per-format form of the option.
            check_prompt_injection(c, fields);
        }
        "changeTracking" => {
            if let Some(v) = fields.raw("modes") {
                let path = fields.at("modes");
                match v {
                    Value::Array(items) => {
                        for (i, m) in items.iter().enumerate() {
                            let mut p = path.clone();
                            p.push(json!(i));
                            match m.as_str() {
                                Some("git-diff" | "json") => {}
                                Some(other) => c.enum_mismatch(&p, &["git-diff", "json"], other),
                                None => c.invalid_type(&p, "string", m),
                            }
                        }
                    }
                    other => c.invalid_type(&path, "array", other),
                }
            }
            fields.any_object(c, "schema");
            fields.string(c, "prompt");
            fields.string(c, "tag");
        }
        "question" => {
            fields.required_string(c, "question");
        }
        "highlights" => {
            fields.required_string(c, "query");
        }
        // Options "not shown" in the spec, or plugin-defined: free-form.
        _ => return,
    }
    fields.finish(c);
}

/// Upstream's `checkPromptInjection` (a scan for prompt injection before the
/// model formats run; a detection fails the scrape). `false` or `null` is
/// accepted; `true` is refused, as this server has no such scanner and
/// running the formats unscanned would silently drop a safety check.
pub fn check_prompt_injection(c: &mut Checker, fields: &mut Fields) {
    if fields.bool(c, "checkPromptInjection", false) {
        c.custom(
            &fields.at("checkPromptInjection"),
            "checkPromptInjection is not supported by this server: it has no prompt-injection scanner",
        );
    }
}

/// Screenshot options, shared by the screenshot format and the screenshot action.
pub fn check_screenshot_options(c: &mut Checker, fields: &mut Fields) {
    fields.bool(c, "fullPage", false);
    fields.int(c, "quality", Some(1), Some(100));
    if let Some(mut viewport) = fields.object(c, "viewport") {
        for (key, max) in [("width", 7680), ("height", 4320)] {
            match viewport.raw(key) {
                None => c.required(&viewport.at(key), "number"),
                Some(v) => {
                    check_int(c, &viewport.at(key), v, Some(1), Some(max));
                }
            }
        }
        viewport.finish(c);
    }
}
