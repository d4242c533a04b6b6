//! What the page did not show: a primary colour or a brand name. The
//! operator's model is asked for those only (with the page's title, URL and
//! the colours found); without a model, or when it cannot say, each missing
//! part is named in a warning. A profile with both parts makes no call.

use crate::color::Rgba;
use distill_sdk::llm::{self, Message, Request};
use distill_sdk::{Value, json};

const SYSTEM: &str = "You identify a website's brand from facts about its rendered page. \
Answer only from the facts given; use null when they do not say.";

/// Fills the missing parts of `profile` from the model; returns warnings
/// for the parts still missing.
pub fn fill(profile: &mut Value, snapshot: &Value) -> Vec<String> {
    let missing_primary = profile["colors"].get("primary").is_none();
    let missing_name = profile.get("brandName").is_none();
    if !missing_primary && !missing_name {
        return Vec::new();
    }
    let answer = ask(profile, snapshot);
    let mut warnings = Vec::new();
    if missing_primary {
        let colour = answer
            .as_ref()
            .ok()
            .and_then(|a| a["primaryColor"].as_str())
            .and_then(Rgba::parse)
            .map(|c| c.hex());
        match colour {
            Some(c) => {
                profile["colors"]["primary"] = json!(c);
            }
            None => {
                warnings.push("branding: the page shows no brand colour; colors.primary is left out".into())
            }
        }
    }
    if missing_name {
        let name = answer
            .as_ref()
            .ok()
            .and_then(|a| a["brandName"].as_str())
            .map(str::trim)
            .filter(|n| !n.is_empty());
        match name {
            Some(n) => {
                profile["brandName"] = json!(n);
            }
            None => warnings.push("branding: the page names no brand; brandName is left out".into()),
        }
    }
    warnings
}

/// The model's `{primaryColor, brandName}` for the page.
fn ask(profile: &Value, snapshot: &Value) -> Result<Value, String> {
    let facts = json!({
        "url": snapshot["url"],
        "title": snapshot["title"],
        "colors": profile["colors"],
        "logoAlt": snapshot["logo"]["alt"],
        "themeColor": snapshot["themeColor"],
    });
    let schema = json!({
        "type": "object",
        "properties": {
            "primaryColor": {"type": ["string", "null"], "description": "#RRGGBB"},
            "brandName": {"type": ["string", "null"]}
        },
        "required": ["primaryColor", "brandName"],
        "additionalProperties": false
    });
    let request = Request::new(vec![
        Message::new("system", SYSTEM),
        Message::new(
            "user",
            format!("The brand's primary colour and name, from these facts:\n{facts}"),
        ),
    ])
    .json_schema(&schema)
    .max_tokens(200);
    let text = llm::complete(&request)?;
    serde_json::from_str(text.trim()).map_err(|e| e.to_string())
}
