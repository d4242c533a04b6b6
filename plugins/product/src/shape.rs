//! One schema.org-like product node to upstream's product shape:
//! `{title, brand?, category?, url, description?, images?[{url, alt?}],
//! price?{amount, currency?, formatted?}, originalPrice?, availability?{inStock,
//! text?}, variants[]}`.

use crate::sources::squash;
use distill_sdk::{Value, json};
use serde_json::Map;

/// The product shape of `node`, URLs resolved against `page_url`.
pub fn product(node: &Value, page_url: &str) -> Value {
    let base = url::Url::parse(page_url).ok();
    let mut out = Map::new();
    out.insert("title".into(), json!(text(node.get("name")).unwrap_or_default()));
    if let Some(brand) = text(node.get("brand")) {
        out.insert("brand".into(), json!(brand));
    }
    if let Some(category) = category(node.get("category")) {
        out.insert("category".into(), json!(category));
    }
    let url = text(node.get("url")).and_then(|u| resolve(&base, &u));
    out.insert("url".into(), json!(url.unwrap_or_else(|| page_url.to_string())));
    if let Some(d) = text(node.get("description")) {
        out.insert("description".into(), json!(d));
    }
    let images = images(node.get("image"), &base);
    if !images.is_empty() {
        out.insert("images".into(), Value::Array(images));
    }
    let offer = first_offer(node.get("offers"));
    offer_fields(offer, &mut out);
    let variants: Vec<Value> = list(node.get("hasVariant"))
        .into_iter()
        .map(|v| variant(v, &base))
        .collect();
    out.insert("variants".into(), Value::Array(variants));
    Value::Object(out)
}

/// price, originalPrice and availability from an offer.
fn offer_fields(offer: Option<&Value>, out: &mut Map<String, Value>) {
    let Some(offer) = offer else { return };
    let specs = list(offer.get("priceSpecification"));
    let is_original = |s: &Value| {
        text(s.get("priceType")).is_some_and(|t| t.contains("Strikethrough") || t.contains("ListPrice"))
    };
    let current = price(offer, "price")
        .or_else(|| price(offer, "lowPrice"))
        .or_else(|| {
            specs
                .iter()
                .find(|s| !is_original(s))
                .and_then(|s| price(s, "price"))
        });
    if let Some(p) = current {
        out.insert("price".into(), p);
    }
    if let Some(p) = specs
        .iter()
        .find(|s| is_original(s))
        .and_then(|s| price(s, "price"))
    {
        out.insert("originalPrice".into(), p);
    }
    if let Some(a) = availability(offer.get("availability")) {
        out.insert("availability".into(), a);
    }
}

fn variant(v: &Value, base: &Option<url::Url>) -> Value {
    let mut out = Map::new();
    if let Some(t) = text(v.get("name")) {
        out.insert("title".into(), json!(t));
    }
    if let Some(s) = text(v.get("sku")) {
        out.insert("sku".into(), json!(s));
    }
    if let Some(u) = text(v.get("url")).and_then(|u| resolve(base, &u)) {
        out.insert("url".into(), json!(u));
    }
    offer_fields(first_offer(v.get("offers")), &mut out);
    Value::Object(out)
}

/// The first concrete offer (inside an `AggregateOffer`'s `offers` when it
/// has no price of its own).
fn first_offer(offers: Option<&Value>) -> Option<&Value> {
    let first = list(offers).into_iter().next()?;
    if first.get("price").is_none()
        && first.get("lowPrice").is_none()
        && let Some(inner) = list(first.get("offers")).into_iter().next()
    {
        return Some(inner);
    }
    Some(first)
}

/// `{amount, currency?, formatted?}` from `node[key]` (a number or a string
/// such as "1,299.00"), `priceCurrency`, and microdata's visible text.
fn price(node: &Value, key: &str) -> Option<Value> {
    let amount = match node.get(key)? {
        Value::Number(n) => n.as_f64()?,
        Value::Array(a) => return a.first().and_then(|_| price(&json!({key: a[0].clone()}), key)),
        v => parse_amount(&text(Some(v))?)?,
    };
    let mut p = Map::new();
    p.insert("amount".into(), json!(amount));
    if let Some(c) = text(node.get("priceCurrency")) {
        p.insert("currency".into(), json!(c.to_ascii_uppercase()));
    }
    if let Some(f) = text(node.get(format!("{key}Text"))) {
        p.insert("formatted".into(), json!(f));
    }
    Some(Value::Object(p))
}

/// A number from a price string: currency signs and thousands separators
/// dropped ("$1,299.00" → 1299.0, "19,99" → 19.99).
pub fn parse_amount(s: &str) -> Option<f64> {
    let digits: String = s
        .chars()
        .filter(|c| c.is_ascii_digit() || matches!(c, '.' | ','))
        .collect();
    let normal = match (digits.rfind('.'), digits.rfind(',')) {
        (Some(d), Some(c)) if c > d => digits.replace('.', "").replace(',', "."),
        (None, Some(c)) if digits.len() - c == 3 => digits.replace(',', "."),
        _ => digits.replace(',', ""),
    };
    normal.parse().ok()
}

/// `{inStock, text}` from a schema.org availability URL or word.
fn availability(v: Option<&Value>) -> Option<Value> {
    let raw = text(v)?;
    let word = raw.rsplit(['/', ':']).next().unwrap_or(&raw).trim().to_string();
    let lower = word.to_ascii_lowercase().replace([' ', '_', '-'], "");
    let in_stock = matches!(
        lower.as_str(),
        "instock" | "limitedavailability" | "onlineonly" | "instoreonly" | "presale"
    );
    Some(json!({ "inStock": in_stock, "text": word }))
}

fn images(v: Option<&Value>, base: &Option<url::Url>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for img in list(v) {
        let (url, alt) = match img {
            Value::Object(o) => (
                text(o.get("url")).or_else(|| text(o.get("contentUrl"))),
                text(o.get("caption")).or_else(|| text(o.get("name"))),
            ),
            other => (text(Some(other)), None),
        };
        let Some(url) = url.and_then(|u| resolve(base, &u)) else {
            continue;
        };
        if out.iter().any(|o| o["url"] == url) {
            continue;
        }
        out.push(match alt {
            Some(alt) => json!({"url": url, "alt": alt}),
            None => json!({"url": url}),
        });
    }
    out
}

fn category(v: Option<&Value>) -> Option<String> {
    let parts: Vec<String> = list(v).into_iter().filter_map(|c| text(Some(c))).collect();
    (!parts.is_empty()).then(|| parts.join(" > "))
}

/// A value as a list (absent → empty; one value → one item).
fn list(v: Option<&Value>) -> Vec<&Value> {
    match v {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a.iter().collect(),
        Some(one) => vec![one],
    }
}

/// Text of a value: a string, a number, or an object's `name`/`@id`/`url`.
fn text(v: Option<&Value>) -> Option<String> {
    let s = match v? {
        Value::String(s) => squash(s),
        Value::Number(n) => n.to_string(),
        Value::Array(a) => return a.iter().find_map(|x| text(Some(x))),
        Value::Object(o) => return ["name", "@id", "url"].iter().find_map(|k| text(o.get(*k))),
        _ => return None,
    };
    (!s.is_empty()).then_some(s)
}

fn resolve(base: &Option<url::Url>, u: &str) -> Option<String> {
    match base {
        Some(b) => b.join(u).ok().map(String::from),
        None => url::Url::parse(u).ok().map(String::from),
    }
}
