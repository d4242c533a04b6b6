//! Where a product can be found, each turned into one schema.org-like JSON
//! node (`{"@type": "Product", "name": .., "offers": {..}}`) so that one
//! mapping ([`crate::shape`]) serves all three: JSON-LD, microdata, OpenGraph.

use distill_sdk::{Value, json};
use dom_query::{Document, NodeRef};
use serde_json::Map;

/// schema.org types upstream accepts as a product.
const PRODUCT_TYPES: &[&str] = &[
    "Product",
    "ProductGroup",
    "IndividualProduct",
    "ProductModel",
    "SomeProducts",
];

/// True when `node`'s `@type` (a string or a list) names a product type.
pub fn is_product(node: &Value) -> bool {
    let is = |t: &Value| {
        t.as_str()
            .map(|s| s.rsplit(['/', ':']).next().unwrap_or(s))
            .is_some_and(|s| PRODUCT_TYPES.contains(&s))
    };
    match node.get("@type") {
        Some(Value::Array(types)) => types.iter().any(is),
        Some(t) => is(t),
        None => false,
    }
}

/// The first product node in the page's `application/ld+json` scripts,
/// looking through arrays, `@graph` and `mainEntity`/`mainEntityOfPage`.
pub fn json_ld(doc: &Document) -> Option<Value> {
    for script in doc.select(r#"script[type="application/ld+json" i]"#).nodes() {
        let text = script.text();
        let Ok(value) = serde_json::from_str::<Value>(text.trim()) else {
            continue;
        };
        if let Some(found) = find_product(&value, 0) {
            return Some(found);
        }
    }
    None
}

fn find_product(value: &Value, depth: usize) -> Option<Value> {
    if depth > 8 {
        return None;
    }
    match value {
        Value::Array(items) => items.iter().find_map(|v| find_product(v, depth + 1)),
        Value::Object(map) => {
            if is_product(value) {
                return Some(value.clone());
            }
            [
                "@graph",
                "mainEntity",
                "mainEntityOfPage",
                "itemListElement",
                "item",
            ]
            .iter()
            .filter_map(|k| map.get(*k))
            .find_map(|v| find_product(v, depth + 1))
        }
        _ => None,
    }
}

/// The page's microdata product, when there is exactly one top-level
/// `itemtype` naming `schema.org/Product`.
pub fn microdata(doc: &Document) -> Option<Value> {
    let items: Vec<NodeRef> = doc
        .select("[itemscope][itemtype]")
        .nodes()
        .iter()
        .filter(|n| !n.has_attr("itemprop"))
        .filter(|n| {
            let t = n.attr("itemtype").unwrap_or_default();
            t.split_whitespace().any(|t| is_product(&json!({ "@type": t })))
        })
        .cloned()
        .collect();
    match items.as_slice() {
        [one] => Some(item(one)),
        _ => None,
    }
}

/// A microdata item as a JSON node: its `itemtype` as `@type`, each
/// `itemprop` as a key (repeated ones become a list).
pub fn item(scope: &NodeRef) -> Value {
    let mut map = Map::new();
    if let Some(t) = scope.attr("itemtype") {
        let t = t.split_whitespace().next().unwrap_or_default();
        map.insert("@type".into(), json!(t.rsplit('/').next().unwrap_or(t)));
    }
    collect_props(scope, &mut map);
    Value::Object(map)
}

fn collect_props(parent: &NodeRef, map: &mut Map<String, Value>) {
    for child in parent.element_children() {
        if let Some(props) = child.attr("itemprop") {
            let (value, text) = prop_value(&child);
            for prop in props.split_whitespace() {
                push(map, prop, value.clone());
                if let Some(text) = &text {
                    push(map, &format!("{prop}Text"), json!(text));
                }
            }
        }
        if !child.has_attr("itemscope") {
            collect_props(&child, map);
        }
    }
}

fn push(map: &mut Map<String, Value>, key: &str, value: Value) {
    match map.get_mut(key) {
        None => {
            map.insert(key.to_string(), value);
        }
        Some(Value::Array(list)) => list.push(value),
        Some(first) => *first = json!([first.take(), value]),
    }
}

/// A property's value (per the microdata spec, by element) and, when the
/// value comes from an attribute, the element's visible text too.
fn prop_value(el: &NodeRef) -> (Value, Option<String>) {
    if el.has_attr("itemscope") {
        return (item(el), None);
    }
    let name = el.node_name().map(|n| n.to_ascii_lowercase()).unwrap_or_default();
    let attr = match name.as_str() {
        "meta" => "content",
        "a" | "link" | "area" => "href",
        "img" | "audio" | "video" | "source" | "iframe" | "embed" | "track" => "src",
        "object" => "data",
        "time" => "datetime",
        "data" | "meter" => "value",
        _ if el.has_attr("content") => "content",
        _ => "",
    };
    let text = squash(&el.text());
    if attr.is_empty() {
        return (json!(text), None);
    }
    let value = el.attr(attr).map(|v| v.trim().to_string()).unwrap_or_default();
    if name == "img"
        && let Some(alt) = el.attr("alt").filter(|a| !a.trim().is_empty())
    {
        return (json!({"url": value, "caption": alt.trim()}), None);
    }
    let text = (!text.is_empty() && text != value).then_some(text);
    (json!(value), text)
}

/// Collapses runs of whitespace and trims.
pub fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A product from OpenGraph tags, only when a price tag is present
/// (`product:price:amount` or `og:price:amount`).
pub fn open_graph(doc: &Document) -> Option<Value> {
    let meta = |names: &[&str]| -> Option<String> {
        names.iter().find_map(|name| {
            let sel = format!(r#"meta[property="{name}" i], meta[name="{name}" i]"#);
            doc.select(&sel).nodes().iter().find_map(|n| {
                n.attr("content")
                    .map(|c| c.trim().to_string())
                    .filter(|c| !c.is_empty())
            })
        })
    };
    let amount = meta(&["product:price:amount", "og:price:amount"])?;
    let mut offer = Map::new();
    offer.insert("price".into(), json!(amount));
    if let Some(c) = meta(&["product:price:currency", "og:price:currency"]) {
        offer.insert("priceCurrency".into(), json!(c));
    }
    if let Some(a) = meta(&["product:availability", "og:availability"]) {
        offer.insert("availability".into(), json!(a));
    }
    let mut node = Map::new();
    node.insert("@type".into(), json!("Product"));
    node.insert("offers".into(), Value::Object(offer));
    let images: Vec<Value> = doc
        .select(r#"meta[property="og:image" i], meta[property="og:image:url" i]"#)
        .nodes()
        .iter()
        .filter_map(|n| n.attr("content").map(|c| json!(c.trim())))
        .collect();
    if !images.is_empty() {
        node.insert("image".into(), Value::Array(images));
    }
    for (key, names) in [
        ("name", &["og:title"][..]),
        ("description", &["og:description"][..]),
        ("url", &["og:url"][..]),
        ("brand", &["product:brand", "og:brand"][..]),
        ("category", &["product:category"][..]),
    ] {
        if let Some(v) = meta(names) {
            node.insert(key.into(), json!(v));
        }
    }
    if let Some(amount) = meta(&["product:original_price:amount", "og:original_price:amount"]) {
        let mut spec = Map::new();
        spec.insert("@type".into(), json!("UnitPriceSpecification"));
        spec.insert("priceType".into(), json!("StrikethroughPrice"));
        spec.insert("price".into(), json!(amount));
        if let Some(c) = meta(&["product:original_price:currency", "product:price:currency"]) {
            spec.insert("priceCurrency".into(), json!(c));
        }
        if let Some(Value::Object(offer)) = node.get_mut("offers") {
            offer.insert("priceSpecification".into(), Value::Object(spec));
        }
    }
    Some(Value::Object(node))
}
