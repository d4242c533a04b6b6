//! Page metadata from the full (uncleaned) document, per compat notes §1.10: `<title>`,
//! favicon, language, the og/article/Dublin Core field maps, and raw copies of every `<meta>`.

use dom_query::{Document, Element, NodeData};
use serde_json::map::Entry;
use serde_json::{Map, Value};
use url::Url;

use crate::dom::{LocalName, attr, contains_ignore_ascii_case, is, local_name};

/// `meta[property=…]` looked up in `<head>` (first match only) → output field.
const HEAD_PROPERTIES: [(&str, &str); 7] = [
    ("og:title", "ogTitle"),
    ("og:description", "ogDescription"),
    ("og:url", "ogUrl"),
    ("og:image", "ogImage"),
    ("og:audio", "ogAudio"),
    ("og:determiner", "ogDeterminer"),
    ("og:locale", "ogLocale"),
];

/// `meta[property=…]` looked up in the whole document (first match only).
const DOC_PROPERTIES: [(&str, &str); 4] = [
    ("og:site_name", "ogSiteName"),
    ("og:video", "ogVideo"),
    ("article:published_time", "publishedTime"),
    ("article:modified_time", "modifiedTime"),
];

/// `meta[name=…]` looked up in the whole document (first match only).
const DOC_NAMES: [(&str, &str); 12] = [
    ("article:section", "articleSection"),
    ("article:tag", "articleTag"),
    ("dcterms.keywords", "dcTermsKeywords"),
    ("dc.description", "dcDescription"),
    ("dc.subject", "dcSubject"),
    ("dcterms.subject", "dcTermsSubject"),
    ("dcterms.audience", "dcTermsAudience"),
    ("dc.type", "dcType"),
    ("dcterms.type", "dcTermsType"),
    ("dc.date", "dcDate"),
    ("dc.date.created", "dcDateCreated"),
    ("dcterms.created", "dcTermsCreated"),
];

/// One `<meta>` element's relevant attributes (attribute present ⇒ `Some`, even if empty).
struct Meta {
    in_head: bool,
    name: Option<String>,
    property: Option<String>,
    itemprop: Option<String>,
    content: Option<String>,
}

/// Everything metadata needs, gathered in one document walk.
#[derive(Default)]
struct Scan {
    title: Option<String>,
    /// `href` of the first `<head>` `link[rel=icon]`, once one was seen.
    icon_exact: Option<Option<String>>,
    /// `href` of the first `<head>` `link[rel*=icon]`, once one was seen.
    icon_contains: Option<Option<String>>,
    lang: Option<String>,
    metas: Vec<Meta>,
}

fn scan(doc: &Document) -> Scan {
    let tree = &doc.tree;
    let head = doc.head().map(|h| h.id);
    let root = doc.root().id;
    let mut out = Scan::default();
    // Pre-order over the descendants of the root, one look at each node (its data, first
    // child, next sibling and parent together); `in_head` inside the head's subtree.
    let mut in_head = false;
    let mut next = tree.query_node(&root, |n| n.first_child).flatten();
    while let Some(id) = next {
        let (is_title, child, sibling, parent) = tree
            .query_node(&id, |n| {
                let is_title = match &n.data {
                    NodeData::Element(el) if gathered(el) => visit(el, in_head, &mut out),
                    _ => false,
                };
                (is_title, n.first_child, n.next_sibling, n.parent)
            })
            .unwrap_or((false, None, None, None));
        if is_title {
            out.title = Some(tree.get_unchecked(&id).text().to_string());
        }
        if child.is_some() {
            in_head |= Some(id) == head;
            next = child;
            continue;
        }
        // Up to the next sibling of this node or of an ancestor below the root.
        let (mut cur, mut sibling, mut parent) = (id, sibling, parent);
        next = loop {
            if cur == root {
                break None;
            }
            if sibling.is_some() {
                break sibling;
            }
            let Some(p) = parent else {
                break None;
            };
            cur = p;
            if Some(p) == head {
                in_head = false;
            }
            (sibling, parent) = tree
                .query_node(&cur, |n| (n.next_sibling, n.parent))
                .unwrap_or((None, None));
        };
    }
    out
}

/// Whether `el` is one [`visit`] reads (most elements are not: they skip the call).
#[inline(always)]
fn gathered(el: &Element) -> bool {
    matches!(
        el.name.local,
        local_name!("meta") | local_name!("link") | local_name!("html") | local_name!("title")
    )
}

/// Gathers what `el` holds for metadata; true when it is the title to read (the first
/// `<title>` in `<head>`).
#[inline(never)]
fn visit(el: &Element, in_head: bool, out: &mut Scan) -> bool {
    let get = |name: &LocalName| attr(el, name).map(str::to_string);
    if is(el, &local_name!("meta")) {
        out.metas.push(Meta {
            in_head,
            name: get(&local_name!("name")),
            property: get(&local_name!("property")),
            itemprop: get(&local_name!("itemprop")),
            content: get(&local_name!("content")),
        });
    } else if in_head && is(el, &local_name!("link")) {
        let rel = attr(el, &local_name!("rel")).unwrap_or_default();
        if out.icon_exact.is_none() && rel.eq_ignore_ascii_case("icon") {
            out.icon_exact = Some(get(&local_name!("href")));
        }
        if out.icon_contains.is_none() && contains_ignore_ascii_case(rel, "icon") {
            out.icon_contains = Some(get(&local_name!("href")));
        }
    } else if is(el, &local_name!("html")) && out.lang.is_none() {
        out.lang = get(&local_name!("lang"));
    } else if is(el, &local_name!("title")) {
        return in_head && out.title.is_none();
    }
    false
}

/// `content` of the first meta (optionally in `<head>` only) whose `property` (or `name`) is
/// `value`; `None` if that first match has no `content` (later matches are not consulted).
fn first_content(metas: &[Meta], head_only: bool, by_property: bool, value: &str) -> Option<String> {
    metas
        .iter()
        .filter(|m| !head_only || m.in_head)
        .find(|m| {
            let key = if by_property { &m.property } else { &m.name };
            key.as_deref() == Some(value)
        })
        .and_then(|m| m.content.clone())
}

/// Adds a raw `<meta>` copy with upstream's merge rules: repeated keys become arrays, except
/// `description` (joined with ", ") and `title` (never overwritten).
/// The key is looked up once (its entry): a new key, the usual case, is hashed once.
fn merge_raw(out: &mut Map<String, Value>, key: &str, content: &str) {
    let existing = match out.entry(key) {
        Entry::Vacant(vacant) => {
            vacant.insert(Value::String(content.to_string()));
            return;
        }
        Entry::Occupied(occupied) => occupied.into_mut(),
    };
    match existing {
        Value::String(first) => {
            if key == "description" {
                first.push_str(", ");
                first.push_str(content);
            } else if key != "title" {
                let first = std::mem::take(first);
                *existing = Value::Array(vec![Value::String(first), Value::String(content.to_string())]);
            }
        }
        Value::Array(items) => {
            if key == "description" {
                let mut parts: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
                parts.push(content);
                let joined = parts.join(", ");
                *existing = Value::String(joined);
            } else {
                items.push(Value::String(content.to_string()));
            }
        }
        _ => {}
    }
}

/// Builds the metadata map (no engine fields such as `sourceURL` or `statusCode`).
pub(crate) fn extract(doc: &Document, page_url: &Url) -> Map<String, Value> {
    let scan = scan(doc);
    // Room for every field at once (a map grown from empty makes a new table and copies
    // four or five times): title, language, favicon, the locale alternates, and at most two
    // a `<meta>` (its raw copy, one named field); a page of many metas grows past 64.
    let mut out = Map::with_capacity((4 + 2 * scan.metas.len()).min(64));
    if let Some(title) = scan.title {
        out.insert("title".into(), Value::String(title));
    }
    if let Some(lang) = scan.lang {
        out.insert("language".into(), Value::String(lang));
    }
    let metas = &scan.metas;
    for (property, field) in HEAD_PROPERTIES {
        if let Some(v) = first_content(metas, true, true, property) {
            out.insert(field.into(), Value::String(v));
        }
    }
    let alternates: Vec<Value> = metas
        .iter()
        .filter(|m| m.in_head && m.property.as_deref() == Some("og:locale:alternate"))
        .filter_map(|m| m.content.clone().map(Value::String))
        .collect();
    if !alternates.is_empty() {
        out.insert("ogLocaleAlternate".into(), Value::Array(alternates));
    }
    for (property, field) in DOC_PROPERTIES {
        if let Some(v) = first_content(metas, false, true, property) {
            out.insert(field.into(), Value::String(v));
        }
    }
    for (name, field) in DOC_NAMES {
        if let Some(v) = first_content(metas, false, false, name) {
            out.insert(field.into(), Value::String(v));
        }
    }
    for meta in metas {
        let key = meta
            .name
            .as_ref()
            .or(meta.property.as_ref())
            .or(meta.itemprop.as_ref());
        if let (Some(key), Some(content)) = (key, &meta.content) {
            merge_raw(&mut out, key, content);
        }
    }
    if !out.contains_key("title") {
        let fallback = ["ogTitle", "og:title", "twitter:title"]
            .iter()
            .find_map(|k| out.get(*k))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string);
        if let Some(title) = fallback {
            out.insert("title".into(), Value::String(title));
        }
    }
    // Upstream resolves the favicon in TypeScript, replacing whatever the map held.
    out.remove("favicon");
    let icon = scan.icon_exact.flatten().or(scan.icon_contains.flatten());
    if let Some(favicon) = icon
        .filter(|h| !h.is_empty())
        .and_then(|h| page_url.join(&h).ok())
    {
        out.insert("favicon".into(), Value::String(favicon.into()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::{Walker, parse, with_element};
    use dom_query::{NodeId, Tree};
    use serde_json::json;

    fn meta(html: &str) -> Value {
        let url = Url::parse("https://example.com/a/b.html").unwrap();
        Value::Object(extract(&parse(html), &url))
    }

    /// The scan as it was (a walker, then one more look at each node), the reference for
    /// the one-look walk.
    fn scan_reference(doc: &Document) -> Scan {
        let tree = &doc.tree;
        let head = doc.head().map(|h| h.id);
        let mut out = Scan::default();
        let mut walker = Walker::new(tree, doc.root().id);
        while let Some(id) = walker.next() {
            if Some(id) == head {
                // Visit the head subtree here (keeps document order) and skip it in the outer walk.
                walker.skip_children();
                for inner in Walker::new(tree, id) {
                    visit_reference(tree, inner, true, &mut out);
                }
            } else {
                visit_reference(tree, id, false, &mut out);
            }
        }
        out
    }

    fn visit_reference(tree: &Tree, id: NodeId, in_head: bool, out: &mut Scan) {
        // What each element gives is `visit`'s; the walk around it is what is compared.
        let is_title = with_element(tree, id, |el| visit(el, in_head, out));
        if is_title == Some(true) {
            out.title = Some(tree.get_unchecked(&id).text().to_string());
        }
    }

    fn scanned(s: &Scan) -> String {
        let metas: Vec<_> = s
            .metas
            .iter()
            .map(|m| (m.in_head, &m.name, &m.property, &m.itemprop, &m.content))
            .collect();
        format!(
            "{:?} {:?} {:?} {:?} {:?}",
            s.title, s.icon_exact, s.icon_contains, s.lang, metas
        )
    }

    #[test]
    fn the_one_look_scan_finds_what_the_walker_scan_did() {
        const PIECES: &[&str] = &[
            "<html lang=en>",
            "<html lang=fr>",
            "<head>",
            "</head>",
            "<body>",
            "</body>",
            "<title>T</title>",
            "<title>U</title>",
            "<meta name=a content=1>",
            "<meta property=og:title content=x>",
            "<meta itemprop=p>",
            "<link rel=icon href=/i>",
            "<link rel=\"shortcut icon\" href=/s>",
            "<div>",
            "</div>",
            "<p>",
            "text",
            "<svg><title>S</title></svg>",
            "<template><meta name=t></template>",
            "<noscript><meta name=n content=2></noscript>",
            "<table><tr><td>",
            "<frameset>",
            "<!-- c -->",
        ];
        let mut rng = crate::test_rng::TestRng::new(0x9e37_79b9_7f4a_7c15);
        let mut rnd = |n: usize| rng.below(n);
        for _ in 0..3000 {
            let page: String = (0..rnd(25)).map(|_| PIECES[rnd(PIECES.len())]).collect();
            let doc = parse(&page);
            assert_eq!(scanned(&scan(&doc)), scanned(&scan_reference(&doc)), "{page}");
        }
    }

    #[test]
    fn basic_fields() {
        let m = meta(
            "<html lang='en-US'><head><title> My  Title </title>\
             <link rel='apple-touch-icon' href='/touch.png'><link rel='icon' href='fav.ico'>\
             <meta name='description' content='Desc'><meta name='keywords' content='a, b'>\
             <meta name='robots' content='index'></head><body></body></html>",
        );
        assert_eq!(
            m,
            json!({
                "title": " My  Title ",
                "language": "en-US",
                "favicon": "https://example.com/a/fav.ico",
                "description": "Desc",
                "keywords": "a, b",
                "robots": "index",
            })
        );
    }

    #[test]
    fn og_and_dublin_core_maps_plus_raw_copies() {
        let m = meta(
            "<head><meta property='og:title' content='OG'><meta property='og:locale:alternate' content='fr_FR'>\
             <meta property='og:description' content='D'><meta property='og:url' content='https://e.com/'>\
             <meta property='og:image' content='/i.png'><meta property='og:site_name' content='Site'>\
             <meta property='article:published_time' content='2024-01-01'>\
             <meta name='dcterms.keywords' content='k'><meta name='dc.date.created' content='2020'>\
             <meta name='article:tag' content='t1'><meta name='article:tag' content='t2'>\
             <meta itemprop='name' content='N'><meta name='twitter:card' content='summary'></head>",
        );
        let o = m.as_object().unwrap();
        assert_eq!(o["title"], "OG");
        assert_eq!(o["ogTitle"], "OG");
        assert_eq!(o["og:title"], "OG");
        assert_eq!(o["ogDescription"], "D");
        assert_eq!(o["ogUrl"], "https://e.com/");
        assert_eq!(o["ogImage"], "/i.png");
        assert_eq!(o["ogLocaleAlternate"], json!(["fr_FR"]));
        assert_eq!(o["og:locale:alternate"], "fr_FR");
        assert_eq!(o["ogSiteName"], "Site");
        assert_eq!(o["publishedTime"], "2024-01-01");
        assert_eq!(o["dcTermsKeywords"], "k");
        assert_eq!(o["dcDateCreated"], "2020");
        assert_eq!(o["articleTag"], "t1");
        assert_eq!(o["article:tag"], json!(["t1", "t2"]));
        assert_eq!(o["name"], "N");
        assert_eq!(o["twitter:card"], "summary");
        assert!(!o.contains_key("favicon"));
    }

    #[test]
    fn duplicates_arrays_description_join_and_title_guard() {
        let m = meta(
            "<head><title>Real</title><meta name='description' content='one'>\
             <meta name='description' content='two'><meta name='title' content='Meta title'>\
             <meta property='og:image' content='a.png'><meta property='og:image' content='b.png'>\
             <meta property='og:image' content='c.png'></head>\
             <body><meta name='description' content='three'></body>",
        );
        let o = m.as_object().unwrap();
        assert_eq!(o["title"], "Real");
        assert_eq!(o["description"], "one, two, three");
        assert_eq!(o["og:image"], json!(["a.png", "b.png", "c.png"]));
        assert_eq!(o["ogImage"], "a.png");
        // A repeated key keeps the place of its first copy, where the map keeps the order
        // of insertion (`serde_json`'s `preserve_order`, which the host turns on).
        let mut probe = Map::new();
        probe.insert("b".into(), Value::Null);
        probe.insert("a".into(), Value::Null);
        let keys: Vec<&str> = o.keys().map(String::as_str).collect();
        if probe.keys().next().map(String::as_str) == Some("b") {
            assert_eq!(keys, ["title", "ogImage", "description", "og:image"]);
        } else {
            assert_eq!(keys, ["description", "og:image", "ogImage", "title"]);
        }
    }

    #[test]
    fn meta_title_fills_missing_title_but_is_never_overwritten() {
        let m = meta("<meta name='title' content='First'><meta name='title' content='Second'>");
        assert_eq!(m["title"], "First");
    }

    #[test]
    fn title_fallback_order() {
        assert_eq!(meta("<meta name='twitter:title' content='TW'>")["title"], "TW");
        assert_eq!(
            meta(
                "<meta name='twitter:title' content='TW'><body><meta property='og:title' content='Body OG'></body>"
            )["title"],
            "Body OG"
        );
        // An empty ogTitle blocks the fallback chain (upstream `or_else` semantics).
        let m = meta("<meta property='og:title' content=''><meta name='twitter:title' content='TW'>");
        assert!(m.get("title").is_none());
    }

    #[test]
    fn head_only_fields_ignore_body() {
        let m = meta(
            "<head></head><body><title>Body title</title><meta property='og:title' content='B'>\
             <meta property='og:locale:alternate' content='de'><meta property='og:site_name' content='S'>\
             <link rel='icon' href='/x.ico'></body>",
        );
        let o = m.as_object().unwrap();
        assert!(!o.contains_key("ogTitle"));
        assert!(!o.contains_key("ogLocaleAlternate"));
        assert!(!o.contains_key("favicon"));
        assert_eq!(o["ogSiteName"], "S");
        assert_eq!(o["title"], "B");
    }

    #[test]
    fn favicon_rules() {
        let fav = |html: &str| meta(html).get("favicon").cloned();
        assert_eq!(
            fav("<link rel='shortcut icon' href='//cdn.example/f.ico'>"),
            Some(json!("https://cdn.example/f.ico"))
        );
        // Exact rel=icon wins over an earlier rel*=icon; rel is matched case-insensitively.
        assert_eq!(
            fav("<link rel='apple-touch-icon' href='/t.png'><link rel='ICON' href='/i.png'>"),
            Some(json!("https://example.com/i.png"))
        );
        // First exact match has no href: fall back to the first rel*=icon.
        assert_eq!(
            fav("<link rel='mask-icon' href='/m.svg'><link rel='icon'>"),
            Some(json!("https://example.com/m.svg"))
        );
        assert_eq!(fav("<link rel='icon' href=''>"), None);
        assert_eq!(fav("<link rel='icon' href='http://[bad'>"), None);
        // A raw <meta name=favicon> never leaks through.
        assert_eq!(fav("<meta name='favicon' content='x'>"), None);
    }

    #[test]
    fn raw_key_precedence_and_empty_values() {
        let m = meta(
            "<meta name='a' property='p' content='by-name'><meta property='p2' itemprop='i' content='by-prop'>\
             <meta itemprop='image' content=''><meta name='nocontent'>",
        );
        let o = m.as_object().unwrap();
        assert_eq!(o["a"], "by-name");
        assert_eq!(o["p2"], "by-prop");
        assert_eq!(o["image"], "");
        assert!(!o.contains_key("p"));
        assert!(!o.contains_key("nocontent"));
    }

    #[test]
    fn raw_key_colliding_with_field_becomes_array() {
        let m = meta("<html lang='en'><meta name='language' content='English'></html>");
        assert_eq!(m["language"], json!(["en", "English"]));
    }

    #[test]
    fn noscript_metas_in_head_are_ignored() {
        let m = meta("<head><noscript><meta name='x' content='y'></noscript></head>");
        assert!(m.get("x").is_none());
    }
}
