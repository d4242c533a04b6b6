//! The `actions` option: browser steps performed before content is taken.
//! Validated here per the spec (types, required fields, limits); executing
//! them needs the browser engine.

use super::formats::check_screenshot_options;
use super::validate::{Checker, Fields, Path, tagged_variant};
use serde_json::{Value, json};

/// Most actions in one request.
pub const MAX_ACTIONS: usize = 50;
/// Most waiting (waitFor plus wait actions) in one request, in ms.
pub const MAX_TOTAL_WAIT_MS: i64 = 60_000;

const ACTION_TYPES: &[&str] = &[
    "wait",
    "screenshot",
    "click",
    "write",
    "press",
    "scroll",
    "scrape",
    "executeJavascript",
    "pdf",
];

const PDF_FORMATS: &[&str] = &[
    "A0", "A1", "A2", "A3", "A4", "A5", "A6", "Letter", "Legal", "Tabloid", "Ledger",
];

/// Validates `actions`; returns them as given plus the milliseconds they wait.
pub fn parse_actions(c: &mut Checker, fields: &mut Fields) -> (Vec<Value>, i64) {
    let path = fields.at("actions");
    if c.is_describing() {
        let variants: Vec<Value> = ACTION_TYPES
            .iter()
            .map(|kind| tagged_variant("type", kind, |c, item| _ = check_action(c, item, Vec::new())))
            .collect();
        fields.describe(
            c,
            "actions",
            || json!({"type": "array", "maxItems": MAX_ACTIONS, "items": {"oneOf": variants}}),
        );
    }
    let Some(value) = fields.raw("actions") else {
        return (Vec::new(), 0);
    };
    let Value::Array(items) = value else {
        c.invalid_type(&path, "array", value);
        return (Vec::new(), 0);
    };
    if items.len() > MAX_ACTIONS {
        c.issue(
            "too_big",
            &path,
            format!("Array must contain at most {MAX_ACTIONS} element(s)"),
            json!({"maximum": MAX_ACTIONS, "type": "array", "inclusive": true, "exact": false}),
        );
    }
    let mut waited = 0;
    for (i, item) in items.iter().enumerate() {
        let mut p = path.clone();
        p.push(json!(i));
        waited += check_action(c, item, p);
    }
    (items.clone(), waited)
}

/// Checks one action; returns how long it waits (selector waits count 1 s).
fn check_action(c: &mut Checker, item: &Value, path: Path) -> i64 {
    let Some(mut f) = c.object(item, path) else {
        return 0;
    };
    let Some(kind) = f.required_string(c, "type") else {
        return 0;
    };
    let mut waited = 0;
    match kind.as_str() {
        "wait" => {
            // Which form was sent decides the message; a value out of bounds
            // or of the wrong type is reported by its own issue.
            let has_ms = f.raw("milliseconds").is_some();
            let has_selector = f.raw("selector").is_some();
            let ms = f.int(c, "milliseconds", Some(1), None);
            let selector = f.string(c, "selector");
            match (has_ms, has_selector) {
                (true, false) => waited = ms.unwrap_or(0),
                (false, true) => waited = selector.map_or(0, |_| 1000),
                (true, true) => c.custom(
                    &f.path,
                    "Either 'milliseconds' or 'selector' must be provided, not both",
                ),
                (false, false) => c.custom(&f.path, "Either 'milliseconds' or 'selector' must be provided"),
            }
        }
        "screenshot" => check_screenshot_options(c, &mut f),
        "click" => {
            f.required_string(c, "selector");
            f.bool(c, "all", false);
        }
        "write" => {
            f.required_string(c, "text");
        }
        "press" => {
            f.required_string(c, "key");
        }
        "scroll" => {
            f.one_of(c, "direction", &["up", "down"]);
            f.string(c, "selector");
        }
        "scrape" => {}
        "executeJavascript" => {
            f.required_string(c, "script");
        }
        "pdf" => {
            f.one_of(c, "format", PDF_FORMATS);
            f.bool(c, "landscape", false);
            f.number(c, "scale");
        }
        other => {
            let p = f.at("type");
            c.enum_mismatch(&p, ACTION_TYPES, other);
            return 0;
        }
    }
    f.finish(c);
    waited
}
