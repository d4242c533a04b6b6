//! Filling what a product's markup lacks through the operator's language
//! model (`llm` capability). Only the fields a product page's visible text
//! usually states are asked for ([`FILLABLE`]: brand, description, price,
//! availability), and only those the markup left empty: a product whose
//! markup has them all costs no model call. The model reads the page's
//! markdown (cut to [`MAX_CHARS`]) and answers JSON with one key per missing
//! field, `null` when the page does not say; values that are not of the
//! field's shape are dropped. When the model cannot be asked (none
//! configured, not allowed, zero data retention) or fails, the markup's
//! product stands and a warning names the fields left empty and why.

use distill_sdk::llm::{self, Message, Request};
use distill_sdk::{Value, json};

/// The fields the model may fill, in the product shape's order.
pub const FILLABLE: [&str; 4] = ["brand", "description", "price", "availability"];
/// The most markdown sent (characters).
pub const MAX_CHARS: usize = 12_000;
/// Longest description asked for (characters).
pub const MAX_DESCRIPTION: u64 = 600;

const SYSTEM: &str = "You extract product facts from a product page. Answer only with what the page states; use null for anything it does not state. Never guess.";

/// The fillable fields `product` lacks.
pub fn missing(product: &Value) -> Vec<&'static str> {
    FILLABLE
        .into_iter()
        .filter(|f| product.get(*f).is_none_or(Value::is_null))
        .collect()
}

/// The schema of the answer for `fields` (each may be `null`).
pub fn schema(fields: &[&str]) -> Value {
    let mut properties = serde_json::Map::new();
    for field in fields {
        let shape = match *field {
            "brand" => json!({"type": ["string", "null"], "maxLength": 100}),
            "description" => json!({"type": ["string", "null"], "maxLength": MAX_DESCRIPTION}),
            "price" => json!({"anyOf": [{"type": "null"}, {
                "type": "object",
                "properties": {
                    "amount": {"type": "number", "minimum": 0},
                    "currency": {"type": "string", "pattern": "^[A-Z]{3}$"}
                },
                "required": ["amount", "currency"],
                "additionalProperties": false
            }]}),
            "availability" => json!({"anyOf": [{"type": "null"}, {
                "type": "object",
                "properties": {"inStock": {"type": "boolean"}},
                "required": ["inStock"],
                "additionalProperties": false
            }]}),
            _ => continue,
        };
        properties.insert((*field).to_string(), shape);
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": fields,
        "additionalProperties": false
    })
}

/// The request asking for `fields` of the product titled `title`.
pub fn request(title: &str, fields: &[&str], markdown: &str) -> Request {
    let cut: String = markdown.chars().take(MAX_CHARS).collect();
    let prompt = format!(
        "The page below is about the product \"{title}\". Give its {} as the page states them \
         (price: the current price as a number with its ISO 4217 currency code; availability: \
         whether it can be bought now). Use null for what the page does not state.\n\n{cut}",
        fields.join(", ")
    );
    Request::new(vec![Message::new("system", SYSTEM), Message::new("user", prompt)])
        .json_schema(&schema(fields))
}

/// Fills the fields `product` lacks from `markdown` through the model;
/// warns (through the SDK) when it could not.
pub fn fill(product: &mut Value, markdown: &str) {
    let fields = missing(product);
    if fields.is_empty() || markdown.trim().is_empty() {
        return;
    }
    let title = product["title"].as_str().unwrap_or_default().to_string();
    match llm::complete_json(&request(&title, &fields, markdown)) {
        Ok(answer) => merge(product, &fields, &answer),
        Err(why) => distill_sdk::warning(format!(
            "product: {} not in the page's markup and not filled: {why}",
            fields.join(", ")
        )),
    }
}

/// Copies the answer's well-formed values for `fields` into `product`.
pub fn merge(product: &mut Value, fields: &[&str], answer: &Value) {
    let Some(out) = product.as_object_mut() else {
        return;
    };
    for field in fields {
        if let Some(value) = checked(field, &answer[*field]) {
            out.insert((*field).to_string(), value);
        }
    }
}

/// `value` in the product shape of `field`, or `None`.
fn checked(field: &str, value: &Value) -> Option<Value> {
    match field {
        "brand" | "description" => {
            let s = value.as_str()?.trim();
            (!s.is_empty()).then(|| json!(s))
        }
        "price" => {
            let amount = value["amount"].as_f64().filter(|a| a.is_finite() && *a >= 0.0)?;
            let currency = value["currency"].as_str().map(str::trim).unwrap_or_default();
            let mut price = json!({"amount": amount});
            if currency.len() == 3 && currency.bytes().all(|b| b.is_ascii_uppercase()) {
                price["currency"] = json!(currency);
            }
            Some(price)
        }
        "availability" => value["inStock"]
            .as_bool()
            .map(|in_stock| json!({"inStock": in_stock})),
        _ => None,
    }
}
