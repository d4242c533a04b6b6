//! Content that a browser shows only after running scripts, revealed before scoring:
//!
//! - Script-rendered shells that ship their content for non-script readers inside
//!   `<noscript>` (forum and app shells): when the `<noscript>` text outweighs the rest of
//!   the body, its markup replaces it. Pages with ordinary `<noscript>` snippets (tracking
//!   pixels, "enable JavaScript") are left alone: those are stripped like other non-content.
//! - Streamed server rendering (React's Suspense): late segments arrive at the end of the
//!   body as `<div hidden id="S:n">` and a script moves them over their placeholder
//!   `<template id="B:n">`. The segment's children replace the placeholder and its loading
//!   fallback; a segment without a placeholder is just un-hidden.

use std::collections::HashMap;

use dom_query::{Document, NodeData, NodeId};

use crate::dom::{Walker, attr, local_name};

/// Reveals script-deferred content (both kinds above).
pub(crate) fn reveal(doc: &Document) {
    reveal_possible(doc, true, true);
}

/// [`reveal`] when the parse told which kinds could be there: a shell when `shell`
/// ([`shell_possible`]), streamed segments when `segments` or when a shell's markup was put
/// in place (the parse saw none of the tags inside a `<noscript>`). Each kind left out
/// saves a walk of the body.
pub(crate) fn reveal_possible(doc: &Document, shell: bool, segments: bool) {
    let expanded = shell && expand_if_shell(doc);
    if segments || expanded {
        place_streamed_segments(doc);
    }
}

fn place_streamed_segments(doc: &Document) {
    let Some(body) = doc.body() else {
        return;
    };
    let tree = &doc.tree;
    let mut placeholders: HashMap<String, NodeId> = HashMap::new();
    let mut segments: Vec<(NodeId, String)> = Vec::new();
    for id in Walker::new(tree, body.id) {
        let found = tree
            .query_node(&id, |n| match &n.data {
                NodeData::Element(el) => {
                    let v = attr(el, &local_name!("id"))?;
                    let num = |p: &str| {
                        v.strip_prefix(p)
                            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                            .map(str::to_string)
                    };
                    if el.name.local == local_name!("template") {
                        num("B:").map(|n| (true, n))
                    } else if attr(el, &local_name!("hidden")).is_some() {
                        num("S:").map(|n| (false, n))
                    } else {
                        None
                    }
                }
                _ => None,
            })
            .flatten();
        match found {
            Some((true, n)) => {
                placeholders.entry(n).or_insert(id);
            }
            Some((false, n)) => segments.push((id, n)),
            None => {}
        }
    }
    for (seg, n) in segments {
        let node = tree.get_unchecked(&seg);
        match placeholders.get(&n) {
            Some(&ph) if !is_inside(tree, ph, seg) => {
                // Drop the loading fallback: siblings after the placeholder up to `<!--/$-->`.
                let mut next = tree.next_sibling_of(&ph).map(|s| s.id);
                let mut fallback = Vec::new();
                while let Some(s) = next {
                    let end = tree
                        .query_node(
                            &s,
                            |n| matches!(&n.data, NodeData::Comment { contents } if &**contents == "/$"),
                        )
                        .unwrap_or(true);
                    if end || fallback.len() > 8 {
                        break;
                    }
                    fallback.push(s);
                    next = tree.next_sibling_of(&s).map(|x| x.id);
                }
                if next.is_none() {
                    fallback.clear(); // no end marker: not a boundary we understand
                }
                for s in fallback {
                    tree.remove_from_parent(&s);
                }
                let placeholder = tree.get_unchecked(&ph);
                for child in tree.child_ids_of(&seg) {
                    placeholder.insert_before(&child);
                }
                placeholder.remove_from_parent();
                node.remove_from_parent();
            }
            _ => node.remove_attr("hidden"),
        }
    }
}

/// Whether `id` is `ancestor` or inside it.
fn is_inside(tree: &dom_query::Tree, id: NodeId, ancestor: NodeId) -> bool {
    let mut cur = Some(id);
    while let Some(c) = cur {
        if c == ancestor {
            return true;
        }
        cur = tree.parent_of(&c).map(|p| p.id);
    }
    false
}

/// Smallest `<noscript>` text (non-whitespace characters) worth expanding.
const MIN_TEXT: usize = 500;

/// Puts a script shell's `<noscript>` markup in place; whether it did.
fn expand_if_shell(doc: &Document) -> bool {
    let Some(body) = doc.body() else {
        return false;
    };
    let tree = &doc.tree;
    let mut noscripts: Vec<(NodeId, String)> = Vec::new();
    let mut walker = Walker::new(tree, body.id);
    while let Some(id) = walker.next() {
        let noscript = tree
            .query_node(&id, |n| match &n.data {
                NodeData::Element(el) => Some(el.name.local == local_name!("noscript")),
                _ => None,
            })
            .flatten();
        if noscript == Some(true) {
            walker.skip_children();
            let raw = tree.get_unchecked(&id).text().to_string();
            if raw.contains('<') {
                noscripts.push((id, raw));
            }
        }
    }
    if noscripts.iter().map(|(_, raw)| raw.len()).sum::<usize>() < MIN_TEXT {
        return false;
    }
    let texts: Vec<usize> = noscripts.iter().map(|(_, raw)| fragment_text(raw)).collect();
    let hidden: usize = texts.iter().sum();
    if hidden < MIN_TEXT || hidden < visible_text(doc, body.id) {
        return false;
    }
    let mut expanded = false;
    for ((id, raw), text) in noscripts.into_iter().zip(texts) {
        if text >= MIN_TEXT / 5 {
            tree.get_unchecked(&id).replace_with_html(raw);
            expanded = true;
        }
    }
    expanded
}

/// Whether [`expand_if_shell`] could change anything, judged from the page's `<noscript>`
/// elements (`noscripts`: every element so named, in any order) instead of a walk of the
/// body: it gathers those inside the body and not inside another `<noscript>`, keeps the
/// ones whose text holds `<`, and stops when their texts total under [`MIN_TEXT`] bytes or
/// the text of their markup does (the pixels and tag-manager frames most pages with
/// scripts carry: markup, next to no text). Must stay a necessary condition of
/// `expand_if_shell` (it decides whether that runs).
pub(crate) fn shell_possible(doc: &Document, noscripts: &[NodeId]) -> bool {
    if noscripts.is_empty() {
        return false;
    }
    let Some(body) = doc.body() else {
        return false;
    };
    let tree = &doc.tree;
    let is_noscript = |id: &NodeId| {
        tree.query_node(
            id,
            |n| matches!(&n.data, NodeData::Element(el) if el.name.local == local_name!("noscript")),
        )
        .unwrap_or(false)
    };
    // Whether `id` is under the body with no `<noscript>` between them.
    let walked_to = |id: NodeId| {
        let mut cur = tree.parent_of(&id).map(|p| p.id);
        while let Some(c) = cur {
            if c == body.id {
                return true;
            }
            if is_noscript(&c) {
                return false;
            }
            cur = tree.parent_of(&c).map(|p| p.id);
        }
        false
    };
    let mut total = 0;
    let mut hidden = 0;
    for &id in noscripts {
        if walked_to(id) {
            let raw = tree.get_unchecked(&id).text();
            if raw.contains('<') {
                total += raw.len();
                hidden += fragment_text(&raw);
            }
        }
    }
    total >= MIN_TEXT && hidden >= MIN_TEXT
}

/// Non-whitespace characters of the body's text outside `<noscript>`, `<script>`,
/// `<style>` and `<template>`.
fn visible_text(doc: &Document, body: NodeId) -> usize {
    let tree = &doc.tree;
    let mut n = 0;
    let mut walker = Walker::new(tree, body);
    while let Some(id) = walker.next() {
        let (text, skip) = tree
            .query_node(&id, |node| match &node.data {
                NodeData::Element(el) => (
                    0,
                    matches!(
                        el.name.local,
                        local_name!("noscript")
                            | local_name!("script")
                            | local_name!("style")
                            | local_name!("template")
                    ),
                ),
                NodeData::Text { contents } => (
                    contents
                        .bytes()
                        .filter(|b| !b.is_ascii_whitespace() && (b & 0xC0) != 0x80)
                        .count(),
                    false,
                ),
                _ => (0, false),
            })
            .unwrap_or((0, false));
        if skip {
            walker.skip_children();
        }
        n += text;
    }
    n
}

/// Non-whitespace characters of the text of an HTML fragment, estimated without parsing
/// it: characters outside tags, `<script>`/`<style>` bodies and comments skipped.
fn fragment_text(raw: &str) -> usize {
    let b = raw.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'<' {
            let rest = &b[i + 1..];
            let skip_to: Option<&[u8]> = if rest.starts_with(b"!--") {
                Some(b"-->")
            } else if starts_with_ignore_case(rest, b"script") {
                Some(b"</script")
            } else if starts_with_ignore_case(rest, b"style") {
                Some(b"</style")
            } else {
                None
            };
            if let Some(end) = skip_to {
                match find_ignore_case(&b[i + 1..], end) {
                    Some(at) => i += 1 + at + end.len(),
                    None => break,
                }
            }
            // Skip the tag itself.
            match b[i..].iter().position(|&c| c == b'>') {
                Some(at) => i += at + 1,
                None => break,
            }
            continue;
        }
        // Count characters (UTF-8 lead bytes) that are not ASCII whitespace.
        if !b[i].is_ascii_whitespace() && (b[i] & 0xC0) != 0x80 {
            n += 1;
        }
        i += 1;
    }
    n
}

fn starts_with_ignore_case(hay: &[u8], prefix: &[u8]) -> bool {
    hay.len() >= prefix.len() && hay[..prefix.len()].eq_ignore_ascii_case(prefix)
}

fn find_ignore_case(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse;

    #[test]
    fn expands_a_shell_page() {
        let post = "word ".repeat(200);
        let doc = parse(&format!(
            "<body><div id=app>Loading…</div><noscript><div class=post><p>{post}</p></div></noscript></body>"
        ));
        expand_if_shell(&doc);
        assert_eq!(doc.select("div.post p").length(), 1);
        assert_eq!(doc.select("noscript").length(), 0);
    }

    #[test]
    fn places_streamed_segments() {
        let doc = parse(
            "<body><main><!--$?--><template id=\"B:0\"></template><div>Loading…</div><!--/$--></main>\
             <footer>f</footer><div hidden id=\"S:0\"><p>Late</p><p>content</p></div>\
             <div hidden id=\"S:7\"><p>orphan</p></div><div hidden id=x>hidden</div></body>",
        );
        place_streamed_segments(&doc);
        assert_eq!(
            doc.select("body").inner_html().to_string(),
            "<main><!--$?--><p>Late</p><p>content</p><!--/$--></main><footer>f</footer>\
             <div id=\"S:7\"><p>orphan</p></div><div hidden=\"\" id=\"x\">hidden</div>"
        );
    }

    #[test]
    fn segments_a_shells_markup_brings_are_placed_too() {
        // The parse sees no `id` inside the `<noscript>` (its content is text): the segment
        // comes with the shell's markup, and is placed as on a page that had it.
        let post = "word ".repeat(200);
        let html = format!(
            "<body><div id=app></div><noscript><main><template id=\"B:1\"></template><i>wait</i><!--/$--></main>\
             <div hidden id=\"S:1\"><p>{post}</p></div></noscript></body>"
        );
        let (doc, seen) = crate::dom::parse_noting(&html);
        assert!(!seen.segments);
        assert!(shell_possible(&doc, &seen.noscripts));
        reveal_possible(&doc, true, false);
        let body = doc.select("body").inner_html().to_string();
        assert!(
            body.starts_with("<div id=\"app\"></div><main><p>word word"),
            "{body}"
        );
        assert!(!body.contains("hidden") && !body.contains("template") && !body.contains("wait"));
    }

    #[test]
    fn markup_without_text_in_noscripts_is_no_shell() {
        // Tag-manager frames and pixels: markup enough, no text in it.
        let frame = "<noscript><iframe src=\"https://www.googletagmanager.com/ns.html?id=GTM-XXXX\" \
                     height=\"0\" width=\"0\" style=\"display:none;visibility:hidden\"></iframe></noscript>";
        let html = format!("<body><p>short</p>{}</body>", frame.repeat(6));
        let (doc, seen) = crate::dom::parse_noting(&html);
        assert_eq!(seen.noscripts.len(), 6);
        assert!(!shell_possible(&doc, &seen.noscripts));
        // Text enough in them: a shell is possible (and the page, this short, is one).
        let html = format!(
            "<body><p>short</p>{}<noscript><p>{}</p></noscript></body>",
            frame.repeat(6),
            "word ".repeat(150)
        );
        let (doc, seen) = crate::dom::parse_noting(&html);
        assert!(shell_possible(&doc, &seen.noscripts));
        assert!(expand_if_shell(&doc));
    }

    #[test]
    fn leaves_ordinary_pages_alone() {
        let body = "word ".repeat(300);
        let html = format!(
            "<body><p>{body}</p><noscript><img src=pixel.gif><p>Please enable JavaScript.</p></noscript></body>"
        );
        let doc = parse(&html);
        expand_if_shell(&doc);
        assert_eq!(doc.select("noscript").length(), 1);
    }
}
