//! The menu read by the operator's language model (`llm` capability) when
//! the markup has none: neither schema.org data nor lists with prices. The
//! model reads the page's markdown (cut to [`MAX_CHARS`]) and answers the
//! menu's sections and items, or no sections when the page has no menu; the
//! answer is checked and normalised into the markup path's shape (names
//! trimmed, prices with ISO 4217 codes, dietary tags from [`DIETARY`]).
//! A page whose markup has a menu costs no model call.

use distill_sdk::llm::{self, Message, Request};
use distill_sdk::{Value, json};

/// The most markdown sent (characters).
pub const MAX_CHARS: usize = 12_000;
/// The dietary tags the model may use (the markup path's vocabulary).
pub const DIETARY: [&str; 8] = [
    "vegan",
    "vegetarian",
    "gluten-free",
    "dairy-free",
    "contains-nuts",
    "halal",
    "kosher",
    "low-lactose",
];

const SYSTEM: &str = "You read restaurant menus from web pages. Report only dishes and drinks the page lists with their sections; answer an empty list of sections when the page has no menu. Never invent items or prices.";

/// The answer's schema.
pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "sections": {
                "type": "array",
                "maxItems": 10,
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "maxLength": 120},
                        "items": {
                            "type": "array",
                            "maxItems": 30,
                            "items": {
                                "type": "object",
                                "properties": {
                                    "name": {"type": "string", "maxLength": 160},
                                    "description": {"type": ["string", "null"], "maxLength": 200},
                                    "price": {"type": ["number", "null"], "minimum": 0},
                                    "currency": {"type": ["string", "null"], "pattern": "^[A-Z]{3}$"},
                                    "dietary": {"type": "array", "items": {"enum": DIETARY}}
                                },
                                "required": ["name", "description", "price", "currency", "dietary"],
                                "additionalProperties": false
                            }
                        }
                    },
                    "required": ["name", "items"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["sections"],
        "additionalProperties": false
    })
}

/// The request for `markdown`.
pub fn request(markdown: &str) -> Request {
    let cut: String = markdown.chars().take(MAX_CHARS).collect();
    let prompt = format!(
        "List the menu on this page: its sections, and in each the items with their description, \
         price (a number) and ISO 4217 currency code, and dietary tags, as the page states them.\n\n{cut}"
    );
    Request::new(vec![Message::new("system", SYSTEM), Message::new("user", prompt)]).json_schema(&schema())
}

/// The menu the model reads in `markdown`: `Ok(None)` when it finds none,
/// `Err` when it could not be asked or answered nonsense.
pub fn read(markdown: &str) -> Result<Option<Value>, String> {
    if markdown.trim().is_empty() {
        return Ok(None);
    }
    let answer = llm::complete_json(&request(markdown))?;
    Ok(normalise(&answer))
}

/// The answer in the menu shape; `None` without a section holding an item.
pub fn normalise(answer: &Value) -> Option<Value> {
    let mut currencies: Vec<String> = Vec::new();
    let sections: Vec<Value> = answer["sections"]
        .as_array()?
        .iter()
        .filter_map(|section| {
            let items: Vec<Value> = section["items"]
                .as_array()?
                .iter()
                .filter_map(|item| normalise_item(item, &mut currencies))
                .collect();
            if items.is_empty() {
                return None;
            }
            let name = section["name"].as_str().map(str::trim).unwrap_or_default();
            Some(json!({"name": name, "items": items}))
        })
        .collect();
    if sections.is_empty() {
        return None;
    }
    let mut menu = json!({"sections": sections});
    if let [only] = currencies.as_slice() {
        menu["currency"] = json!(only);
    }
    Some(menu)
}

fn normalise_item(item: &Value, currencies: &mut Vec<String>) -> Option<Value> {
    let name = item["name"].as_str().map(str::trim).filter(|n| !n.is_empty())?;
    let mut out = json!({"name": name});
    if let Some(d) = item["description"]
        .as_str()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        out["description"] = json!(d);
    }
    if let Some(amount) = item["price"].as_f64().filter(|a| a.is_finite() && *a >= 0.0) {
        let mut price = json!({"amount": amount});
        if let Some(c) = item["currency"]
            .as_str()
            .filter(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase()))
        {
            price["currency"] = json!(c);
            if !currencies.iter().any(|x| x == c) {
                currencies.push(c.to_string());
            }
        }
        out["price"] = price;
    }
    let mut dietary: Vec<&str> = Vec::new();
    for tag in item["dietary"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if let Some(known) = DIETARY.iter().find(|d| **d == tag)
            && !dietary.contains(known)
        {
            dietary.push(known);
        }
    }
    out["dietary"] = json!(dietary);
    Some(out)
}
