//! schema.org menus: a `Menu` node (JSON-LD, also reached through a
//! restaurant's `hasMenu` and `@graph`, or a microdata item) to the menu
//! shape. Nested `MenuSection`s are flattened, their names joined with " > ".

use crate::money::{currency_code, diet_tag, parse_amount, text_tags};
use distill_sdk::{Value, json};
use dom_query::{Document, NodeRef};
use serde_json::Map;

fn has_type(node: &Value, wanted: &str) -> bool {
    let is = |t: &Value| {
        t.as_str()
            .is_some_and(|s| s.rsplit(['/', ':']).next() == Some(wanted))
    };
    match node.get("@type") {
        Some(Value::Array(a)) => a.iter().any(is),
        Some(t) => is(t),
        None => false,
    }
}

/// The first schema.org menu in the page's JSON-LD scripts.
pub fn json_ld(doc: &Document) -> Option<Value> {
    doc.select(r#"script[type="application/ld+json" i]"#)
        .nodes()
        .iter()
        .filter_map(|s| serde_json::from_str::<Value>(s.text().trim()).ok())
        .find_map(|v| find_menu(&v, 0))
        .and_then(|m| menu(&m))
}

fn find_menu(v: &Value, depth: usize) -> Option<Value> {
    if depth > 8 {
        return None;
    }
    match v {
        Value::Array(a) => a.iter().find_map(|x| find_menu(x, depth + 1)),
        Value::Object(o) => {
            if has_type(v, "Menu") {
                return Some(v.clone());
            }
            ["@graph", "hasMenu", "mainEntity", "menu"]
                .iter()
                .filter_map(|k| o.get(*k))
                .find_map(|x| find_menu(x, depth + 1))
        }
        _ => None,
    }
}

/// The first top-level microdata `Menu` item.
pub fn microdata(doc: &Document) -> Option<Value> {
    let node = *doc.select("[itemscope][itemtype]").nodes().iter().find(|n| {
        n.attr("itemtype")
            .is_some_and(|t| t.trim_end_matches('/').ends_with("schema.org/Menu"))
    })?;
    menu(&item(&node))
}

/// A microdata item as JSON (`@type` and one key per `itemprop`).
fn item(scope: &NodeRef) -> Value {
    let mut map = Map::new();
    if let Some(t) = scope.attr("itemtype") {
        map.insert(
            "@type".into(),
            json!(t.trim().rsplit('/').next().unwrap_or_default()),
        );
    }
    props(scope, &mut map);
    Value::Object(map)
}

fn props(parent: &NodeRef, map: &mut Map<String, Value>) {
    for child in parent.element_children() {
        if let Some(names) = child.attr("itemprop") {
            let value = if child.has_attr("itemscope") {
                item(&child)
            } else {
                let v = child
                    .attr("content")
                    .or_else(|| child.attr("href"))
                    .map(|v| v.to_string())
                    .unwrap_or_else(|| child.text().to_string());
                json!(v.split_whitespace().collect::<Vec<_>>().join(" "))
            };
            for name in names.split_whitespace() {
                match map.get_mut(name) {
                    None => {
                        map.insert(name.into(), value.clone());
                    }
                    Some(Value::Array(a)) => a.push(value.clone()),
                    Some(first) => *first = json!([first.take(), value.clone()]),
                }
            }
        }
        if !child.has_attr("itemscope") {
            props(&child, map);
        }
    }
}

fn list(v: Option<&Value>) -> Vec<&Value> {
    match v {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a.iter().collect(),
        Some(one) => vec![one],
    }
}

fn text(v: Option<&Value>) -> Option<String> {
    let s = match v? {
        Value::String(s) => s.split_whitespace().collect::<Vec<_>>().join(" "),
        Value::Number(n) => n.to_string(),
        Value::Object(o) => return text(o.get("name")),
        Value::Array(a) => return a.iter().find_map(|x| text(Some(x))),
        _ => return None,
    };
    (!s.is_empty()).then_some(s)
}

/// A `Menu` node in the menu shape; `None` when it lists no items.
pub fn menu(node: &Value) -> Option<Value> {
    let mut sections = Vec::new();
    let name = text(node.get("name"));
    let direct = items(node);
    if !direct.is_empty() {
        sections.push(json!({"name": name.clone().unwrap_or_else(|| "Menu".into()), "items": direct}));
    }
    for s in list(node.get("hasMenuSection")) {
        section(s, None, &mut sections);
    }
    crate::lists::finish(name, sections)
}

fn section(node: &Value, parent: Option<&str>, out: &mut Vec<Value>) {
    let own = text(node.get("name")).unwrap_or_default();
    let name = match parent {
        Some(p) if !own.is_empty() => format!("{p} > {own}"),
        Some(p) => p.to_string(),
        None => own,
    };
    let items = items(node);
    if !items.is_empty() {
        let mut s = Map::new();
        s.insert("name".into(), json!(name));
        if let Some(d) = text(node.get("description")) {
            s.insert("description".into(), json!(d));
        }
        s.insert("items".into(), Value::Array(items));
        out.push(Value::Object(s));
    }
    for sub in list(node.get("hasMenuSection")) {
        section(sub, Some(&name), out);
    }
}

fn items(node: &Value) -> Vec<Value> {
    list(node.get("hasMenuItem"))
        .into_iter()
        .filter_map(menu_item)
        .collect()
}

fn menu_item(node: &Value) -> Option<Value> {
    let (mut dietary, name) = text_tags(&text(node.get("name"))?);
    let mut out = Map::new();
    out.insert("name".into(), json!(name));
    if let Some(d) = text(node.get("description")) {
        out.insert("description".into(), json!(d));
    }
    if let Some(p) = list(node.get("offers")).into_iter().find_map(offer_price) {
        out.insert("price".into(), p);
    }
    for diet in list(node.get("suitableForDiet")) {
        if let Some(tag) = text(Some(diet)).as_deref().and_then(diet_tag)
            && !dietary.contains(&tag)
        {
            dietary.push(tag);
        }
    }
    out.insert("dietary".into(), json!(dietary));
    Some(Value::Object(out))
}

fn offer_price(offer: &Value) -> Option<Value> {
    let amount = match offer.get("price")? {
        Value::Number(n) => n.as_f64()?,
        v => parse_amount(text(Some(v))?.trim_matches(|c: char| !c.is_ascii_digit()))?,
    };
    let mut p = Map::new();
    p.insert("amount".into(), json!(amount));
    if let Some(c) = text(offer.get("priceCurrency")).and_then(|c| currency_code(&c)) {
        p.insert("currency".into(), json!(c));
    }
    Some(Value::Object(p))
}
