//! Menus without schema.org markup: a heading (h1–h4) followed, before the
//! next heading, by lists (`ul`/`ol` entries, `dl` term + definition pairs,
//! table rows) whose entries carry prices. An entry's name is its
//! `strong`/`b`/`dt` text, else the text before a dash or colon; the rest,
//! without the price and dietary markers, is its description. At least two
//! priced entries are needed: one price alone is not a menu.

use crate::money::{find_price, text_tags};
use distill_sdk::{Value, json};
use dom_query::{Document, NodeRef};
use serde_json::Map;

/// The menu in the page's headed lists, if any.
pub fn from_lists(doc: &Document) -> Option<Value> {
    let mut sections = Vec::new();
    for heading in doc.select("h1, h2, h3, h4").nodes() {
        let name = squash(&heading.text());
        let mut items = Vec::new();
        let mut next = heading.next_element_sibling();
        while let Some(el) = next {
            let tag = el.node_name().map(|n| n.to_ascii_lowercase()).unwrap_or_default();
            if matches!(tag.as_str(), "h1" | "h2" | "h3" | "h4") {
                break;
            }
            for (hint, text) in entries(&el, &tag) {
                if let Some(item) = entry(hint, &text) {
                    items.push(item);
                }
            }
            next = el.next_element_sibling();
        }
        if !items.is_empty() {
            sections.push(json!({"name": name, "items": items}));
        }
    }
    let priced: usize = sections
        .iter()
        .map(|s| s["items"].as_array().map_or(0, Vec::len))
        .sum();
    if priced < 2 {
        return None;
    }
    finish(None, sections)
}

/// (name hint, full text) of each entry of a list-like element.
fn entries(el: &NodeRef, tag: &str) -> Vec<(Option<String>, String)> {
    let strong = |n: &NodeRef| {
        n.find(&["strong"])
            .into_iter()
            .chain(n.find(&["b"]))
            .next()
            .map(|s| squash(&s.text()))
    };
    match tag {
        "ul" | "ol" => el
            .element_children()
            .iter()
            .map(|li| (strong(li), squash(&li.text())))
            .collect(),
        "table" => el
            .find(&["tbody", "tr"])
            .into_iter()
            .chain(el.find(&["tr"]))
            .map(|tr| {
                let cells: Vec<String> = tr.element_children().iter().map(|c| squash(&c.text())).collect();
                (cells.first().cloned(), cells.join(" — "))
            })
            .collect(),
        "dl" => {
            let mut out: Vec<(Option<String>, String)> = Vec::new();
            for child in el.element_children() {
                let text = squash(&child.text());
                match child.node_name().as_deref() {
                    Some("dt") => out.push((Some(strip_price(&text)), text)),
                    Some("dd") => {
                        if let Some(last) = out.last_mut() {
                            last.1 = format!("{} — {text}", last.1);
                        }
                    }
                    _ => {}
                }
            }
            out
        }
        "div" | "section" => el
            .element_children()
            .iter()
            .flat_map(|c| {
                let t = c.node_name().map(|n| n.to_ascii_lowercase()).unwrap_or_default();
                entries(c, &t)
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn strip_price(text: &str) -> String {
    match find_price(text) {
        Some((a, b, _)) => trim_seps(&format!("{} {}", &text[..a], &text[b..])),
        None => text.to_string(),
    }
}

/// One priced entry as a menu item.
fn entry(hint: Option<String>, text: &str) -> Option<Value> {
    let (dietary, cleaned) = text_tags(text);
    let (from, to, price) = find_price(&cleaned)?;
    let rest = format!("{} {}", &cleaned[..from], &cleaned[to..]);
    let rest = squash(&rest);
    let hint = hint
        .map(|h| text_tags(&h).1)
        .map(|h| strip_price(&h))
        .filter(|h| !h.is_empty());
    let (name, description) = match hint.filter(|h| rest.starts_with(h.as_str())) {
        Some(h) => {
            let desc = trim_seps(&rest[h.len()..]);
            (h, desc)
        }
        None => match [" — ", " – ", " - ", ": "]
            .iter()
            .find_map(|s| rest.split_once(s))
        {
            Some((n, d)) => (trim_seps(n), trim_seps(d)),
            None => (trim_seps(&rest), String::new()),
        },
    };
    if name.is_empty() {
        return None;
    }
    let mut item = Map::new();
    item.insert("name".into(), json!(name));
    if !description.is_empty() {
        item.insert("description".into(), json!(description));
    }
    item.insert("price".into(), price);
    item.insert("dietary".into(), json!(dietary));
    Some(Value::Object(item))
}

fn trim_seps(s: &str) -> String {
    squash(s.trim_matches(|c: char| c.is_whitespace() || " .,…-—–:|·".contains(c)))
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The menu value: `None` without sections; `currency` when every priced
/// item shares one.
pub fn finish(name: Option<String>, sections: Vec<Value>) -> Option<Value> {
    if sections.is_empty() {
        return None;
    }
    let mut currencies: Vec<&str> = sections
        .iter()
        .flat_map(|s| s["items"].as_array().into_iter().flatten())
        .filter_map(|i| i["price"]["currency"].as_str())
        .collect();
    currencies.dedup();
    let mut menu = Map::new();
    if let Some(n) = name {
        menu.insert("name".into(), json!(n));
    }
    if let [one] = currencies.as_slice() {
        menu.insert("currency".into(), json!(one));
    }
    menu.insert("sections".into(), Value::Array(sections));
    Some(Value::Object(menu))
}
