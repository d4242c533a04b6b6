//! The `html` format transform (upstream `transform_html`, compat notes §1.7), applied in
//! upstream's order to a private copy of the parsed page:
//! include tags → strip head/meta/noscript/style/script → exclude tags → main content →
//! srcset/lazy images → absolute `img[src]` → duplicate images → absolute `a[href]`.

use std::collections::HashSet;

use dom_query::{Document, Element, Matcher, NodeData, NodeId, Tree};
use url::Url;

use crate::dom::{DATA_SRC, DATA_SRCSET, LocalName, Walker, attr, is, local_name, with_element};
use crate::srcset::pick_largest;
use crate::urls::join;

/// Elements dropped unconditionally (upstream removes the first five; templates are inert).
const STRIPPED: [LocalName; 6] = [
    local_name!("head"),
    local_name!("meta"),
    local_name!("noscript"),
    local_name!("style"),
    local_name!("script"),
    local_name!("template"),
];

/// Moves every match of each selector (selector order, then document order) into a fresh
/// `<html><body><div>` document, like upstream's `append` of kuchikiki nodes: a node already
/// moved is not found again by later selectors; nested matches of one selector are hoisted.
pub(crate) fn apply_include(doc: &Document, selectors: &[Matcher]) {
    let tree = &doc.tree;
    let container = tree.new_element("div");
    for matcher in selectors {
        let matches: Vec<NodeId> = doc.select_matcher(matcher).nodes().iter().map(|n| n.id).collect();
        for id in matches {
            container.append_child(&id);
        }
    }
    let root = doc.root();
    root.remove_children();
    let html = tree.new_element("html");
    let body = tree.new_element("body");
    root.append_child(&html);
    html.append_child(&body);
    body.append_child(&container);
}

/// Removes `head`, `meta`, `noscript`, `style`, `script`, `template` elements and comments.
pub(crate) fn strip_unwanted(doc: &Document) {
    let mut doomed = Vec::new();
    collect_unwanted(&doc.tree, doc.root().id, None, &mut doomed);
    remove_all(&doc.tree, doomed);
}

/// Whether an element of this name is one [`strip_unwanted`] removes (with its subtree).
pub(crate) fn is_stripped(local: &LocalName) -> bool {
    STRIPPED.contains(local)
}

/// Adds to `doomed` the nodes under `root` (not `root` itself) that [`strip_unwanted`]
/// removes, in document order, without looking inside `skip`'s subtree (the caller finds
/// those: the main-content walk reads the body's nodes anyway).
pub(crate) fn collect_unwanted(tree: &Tree, root: NodeId, skip: Option<NodeId>, doomed: &mut Vec<NodeId>) {
    let mut walker = Walker::new(tree, root);
    while let Some(id) = walker.next() {
        let drop = tree
            .query_node(&id, |n| match &n.data {
                NodeData::Element(el) => is_stripped(&el.name.local),
                NodeData::Comment { .. } => true,
                _ => false,
            })
            .unwrap_or(false);
        if drop {
            walker.skip_children();
            doomed.push(id);
        } else if Some(id) == skip {
            walker.skip_children();
        }
    }
}

/// Detaches each of `doomed` from its parent.
pub(crate) fn remove_all(tree: &Tree, doomed: Vec<NodeId>) {
    for id in doomed {
        tree.remove_from_parent(&id);
    }
}

/// Removes every match of each selector, repeating until none is left (upstream loops on
/// `select_first`, so structural selectors like `li:first-child` keep matching).
pub(crate) fn apply_exclude(doc: &Document, selectors: &[Matcher]) {
    for matcher in selectors {
        loop {
            let matches = doc.select_matcher(matcher);
            if matches.is_empty() {
                break;
            }
            matches.remove();
        }
    }
}

/// An attribute value that is not blank.
fn non_blank<'e>(el: &'e Element, name: &LocalName) -> Option<&'e str> {
    attr(el, name).filter(|v| !v.trim().is_empty())
}

/// The final `src` of one `<img>`: srcset pick or lazy `data-src`, made absolute (if any).
fn resolve_img_src(doc: &Document, id: NodeId, base: &Url) -> Option<String> {
    let (srcset, data_src, src) = with_element(&doc.tree, id, |el| {
        let srcset = non_blank(el, &local_name!("srcset")).or_else(|| non_blank(el, &DATA_SRCSET));
        (
            srcset.map(str::to_string),
            non_blank(el, &DATA_SRC).map(str::to_string),
            attr(el, &local_name!("src")).map(str::to_string),
        )
    })?;
    let chosen = match srcset {
        Some(srcset) => pick_largest(&srcset, src.as_deref()).or(src),
        None => data_src.or(src),
    }?;
    Some(join(base, &chosen).unwrap_or(chosen))
}

/// Steps 7–9: picks srcset/lazy sources, makes `img[src]` and `a[href]` absolute against
/// `base` (unparsable values stay as they are) and drops later `<img>` repeating a `src`.
pub(crate) fn rewrite_media_and_links(doc: &Document, base: &Url) {
    let tree = &doc.tree;
    let mut seen_src: HashSet<String> = HashSet::new();
    let mut doomed = Vec::new();
    let mut walker = Walker::new(tree, doc.root().id);
    while let Some(id) = walker.next() {
        let Some(is_img) = with_element(tree, id, |el| {
            if is(el, &local_name!("img")) {
                Some(true)
            } else {
                is(el, &local_name!("a")).then_some(false)
            }
        })
        .flatten() else {
            continue;
        };
        let node = tree.get_unchecked(&id);
        if is_img {
            let Some(src) = resolve_img_src(doc, id, base) else {
                continue;
            };
            if seen_src.contains(&src) {
                walker.skip_children();
                doomed.push(id);
            } else {
                node.set_attr("src", &src);
                seen_src.insert(src);
            }
        } else if let Some(href) = with_element(tree, id, |el| {
            attr(el, &local_name!("href")).map(|h| join(base, h))
        })
        .flatten()
        .flatten()
        {
            node.set_attr("href", &href);
        }
    }
    for id in doomed {
        tree.remove_from_parent(&id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse;
    use crate::user_selectors::compile;

    fn body(doc: &Document) -> String {
        doc.select("body").inner_html().to_string()
    }

    fn base() -> Url {
        Url::parse("https://example.com/blog/post").unwrap()
    }

    #[test]
    fn strips_unwanted_elements_and_comments() {
        let doc = parse(
            "<html><head><title>t</title><style>x</style></head><body><!-- c --><script>s</script>\
             <noscript><p>n</p></noscript><template><p>t</p></template><meta name=a content=b>\
             <svg><style>.a{}</style></svg><p>keep</p></body></html>",
        );
        strip_unwanted(&doc);
        assert_eq!(
            doc.html().to_string(),
            "<html><body><svg></svg><p>keep</p></body></html>"
        );
    }

    #[test]
    fn include_moves_matches_in_selector_then_document_order() {
        let doc = parse("<p id=a>1</p><h1>T</h1><p id=b>2</p><div><h1>U</h1></div>");
        apply_include(&doc, &compile(&["h1".into(), "p".into()]).unwrap());
        assert_eq!(
            doc.html().to_string(),
            "<html><body><div><h1>T</h1><h1>U</h1><p id=\"a\">1</p><p id=\"b\">2</p></div></body></html>"
        );
    }

    #[test]
    fn include_does_not_duplicate_nested_matches() {
        let doc = parse("<article><p>in</p></article><p>out</p>");
        apply_include(&doc, &compile(&["article".into(), "p".into()]).unwrap());
        assert_eq!(body(&doc), "<div><article><p>in</p></article><p>out</p></div>");
        // Same selector, nested: the inner match is hoisted after the outer one.
        let doc = parse("<div class=k>A<div class=k>B</div>C</div>");
        apply_include(&doc, &compile(&[".k".into()]).unwrap());
        assert_eq!(
            body(&doc),
            "<div><div class=\"k\">AC</div><div class=\"k\">B</div></div>"
        );
    }

    #[test]
    fn include_with_no_match_gives_empty_container() {
        let doc = parse("<p>x</p>");
        apply_include(&doc, &compile(&["table".into()]).unwrap());
        assert_eq!(doc.html().to_string(), "<html><body><div></div></body></html>");
    }

    #[test]
    fn exclude_removes_all_matches_and_iframes() {
        let doc = parse(
            "<ul><li>1</li><li>2</li></ul><p class=x>x</p><iframe src=a></iframe>\
             <div data-original-tag=iframe>inlined</div><p>keep</p>",
        );
        apply_exclude(
            &doc,
            &compile(&[".x".into(), "li:first-child".into(), "iframe".into()]).unwrap(),
        );
        assert_eq!(body(&doc), "<ul></ul><p>keep</p>");
    }

    #[test]
    fn srcset_data_srcset_and_data_src() {
        let doc = parse(
            "<img src=s.jpg srcset='a.jpg 1x, b.jpg 2x'>\
             <img src=s2.jpg srcset=' ' data-srcset='c.jpg 100w, d.jpg 50w'>\
             <img src=placeholder.gif data-src=/real.jpg>\
             <img srcset='e.jpg 0.5x'>\
             <img data-src='  '>",
        );
        rewrite_media_and_links(&doc, &base());
        assert_eq!(
            body(&doc),
            "<img src=\"https://example.com/blog/b.jpg\" srcset=\"a.jpg 1x, b.jpg 2x\">\
             <img src=\"https://example.com/blog/c.jpg\" srcset=\" \" data-srcset=\"c.jpg 100w, d.jpg 50w\">\
             <img src=\"https://example.com/real.jpg\" data-src=\"/real.jpg\">\
             <img srcset=\"e.jpg 0.5x\" src=\"https://example.com/blog/e.jpg\">\
             <img data-src=\"  \">"
        );
    }

    #[test]
    fn srcset_with_no_parsable_candidate_keeps_src() {
        let doc = parse("<img src=s.jpg srcset='a.jpg fox' data-src=d.jpg>");
        rewrite_media_and_links(&doc, &base());
        assert!(body(&doc).starts_with("<img src=\"https://example.com/blog/s.jpg\""));
    }

    #[test]
    fn absolutizes_and_dedupes() {
        let doc = parse(
            "<a href='../x?y#z'>l</a><a href='http://[bad'>b</a><a href='mailto:a@b.c'>m</a>\
             <a href='#top'>t</a><img src='/logo.png' alt=1><img src='https://example.com/logo.png' alt=2>\
             <img src='data:image/png;base64,AA' alt=3><img src='data:image/png;base64,AA' alt=4>",
        );
        rewrite_media_and_links(&doc, &base());
        assert_eq!(
            body(&doc),
            "<a href=\"https://example.com/x?y#z\">l</a><a href=\"http://[bad\">b</a>\
             <a href=\"mailto:a@b.c\">m</a><a href=\"https://example.com/blog/post#top\">t</a>\
             <img src=\"https://example.com/logo.png\" alt=\"1\">\
             <img src=\"data:image/png;base64,AA\" alt=\"3\">"
        );
    }
}
