//! Thin DOM helpers over `dom_query`: parsing with upstream's options, a pre-order walker that
//! tolerates mutation between steps, and cheap element/attribute accessors.

use std::sync::LazyLock;

use dom_query::{Document, Element, NodeData, NodeId, SerializableNodeRef, Tree};
use html5ever::serialize::{SerializeOpts, TraversalScope, serialize};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::TreeBuilderOpts;
pub(crate) use html5ever::{LocalName, local_name};
use html5ever::{ParseOpts, ns, parse_document};

pub(crate) use crate::tokenizer::Seen;

/// Attribute names missing from html5ever's static atom set, interned once.
pub(crate) static DATA_SRC: LazyLock<LocalName> = LazyLock::new(|| LocalName::from("data-src"));
pub(crate) static DATA_SRCSET: LazyLock<LocalName> = LazyLock::new(|| LocalName::from("data-srcset"));

/// Parses a full HTML document with scripting enabled, as html5ever/kuchikiki do by default
/// (so `<noscript>` content is raw text and never leaks into `<body>`): our tokenizer
/// ([`crate::tokenizer`]) feeding our own tree builder ([`crate::tree_builder`]), and where
/// that gives up, feeding html5ever's tree builder from the start (the same tree).
pub(crate) fn parse(html: &str) -> Document {
    parse_noting(html).0
}

/// [`parse`], and what the tokenizer saw in the tags ([`Seen`]: a `<base>` tag, the makings
/// of script-deferred content).
pub(crate) fn parse_noting(html: &str) -> (Document, Seen) {
    crate::tree_builder::parse_fast_noting(html, parse_opts())
}

/// [`parse_noting`] of a page already in the tokenizer's buffer (no copy of it), stopping
/// once the tree has more than `most` elements and comments ([`Seen::over`]).
pub(crate) fn parse_html_noting(html: &crate::PageHtml, most: usize) -> (Document, Seen) {
    let buf = crate::tokenizer::input_normalised(html.tendril());
    crate::tree_builder::parse_fast_noting_input(buf, parse_opts(), most)
}

/// The page parsed by our tokenizer feeding our own tree builder ([`crate::tree_builder`]),
/// or the phrase saying why that builder gave up on it.
pub(crate) fn parse_own(html: &str) -> Result<Document, &'static str> {
    crate::tree_builder::parse_own_noting(html).map(|(doc, _)| doc)
}

/// The page parsed by our tokenizer feeding html5ever's tree builder.
pub(crate) fn parse_html5ever_builder(html: &str) -> Document {
    crate::tokenizer::parse_document_noting(html, parse_opts()).0
}

fn parse_opts() -> ParseOpts {
    ParseOpts {
        tree_builder: TreeBuilderOpts {
            scripting_enabled: true,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// [`parse`] with html5ever's own tokenizer (the reference the comparison tool and the
/// tests check our tokenizer against).
pub(crate) fn parse_html5ever(html: &str) -> Document {
    parse_in(html, CHUNK)
}

/// The document serialised, with its quirks mode: what the two parsers must agree on.
fn serialised(doc: &Document) -> String {
    format!("{:?}\n{}", doc.quirks_mode.get(), doc.html())
}

/// The page parsed by [`parse`] and by [`parse_html5ever`], each serialised (with its
/// quirks mode); `examples/parse_diff.rs` compares them over the corpora.
#[doc(hidden)]
pub fn parse_both_serialised(html: &str) -> (String, String) {
    (serialised(&parse(html)), serialised(&parse_html5ever(html)))
}

/// The document serialised as `Document::html` gives it (html5ever's serializer, scripting
/// off, the root included), written straight into the returned string's buffer: no copy
/// into a tendril and out again.
pub(crate) fn html_string(doc: &Document) -> String {
    let mut out = Vec::new();
    let root: SerializableNodeRef = doc.root().into();
    let opts = SerializeOpts {
        scripting_enabled: false,
        create_missing_parent: false,
        traversal_scope: TraversalScope::IncludeNode,
    };
    // Writing into a `Vec` does not fail, and the serializer writes whole `str`s.
    if serialize(&mut out, &root, opts).is_err() {
        return doc.html().to_string();
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// [`parse_html5ever`], handing the parser `html` in pieces of at most `size` bytes.
fn parse_in(html: &str, size: usize) -> Document {
    let mut parser = parse_document(Document::default(), parse_opts());
    for chunk in input_chunks(html, size) {
        parser.process(StrTendril::from_slice(chunk));
    }
    parser.finish()
}

/// Most bytes of input the parser is handed at once.
const CHUNK: usize = 32 * 1024;

/// `html` in pieces of at most `size` bytes (cut at character boundaries;
/// a piece holds at least one character) for the parser: its input buffers
/// are then small allocations instead of one page-sized copy of the page.
/// The tokenizer carries its state across pieces, so the tree is the one the
/// whole page gives.
fn input_chunks(html: &str, size: usize) -> impl Iterator<Item = &str> {
    let mut rest = html;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut end = rest.len().min(size);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        if end == 0 {
            end = rest.chars().next().map_or(rest.len(), char::len_utf8);
        }
        let (chunk, tail) = rest.split_at(end);
        rest = tail;
        Some(chunk)
    })
}

/// Pre-order walker over the descendants of `root`.
///
/// The successor of the yielded node is computed when it is yielded, so callers may mutate
/// attributes freely; to detach the current node, call [`Walker::skip_children`] first.
pub(crate) struct Walker<'a> {
    tree: &'a Tree,
    root: NodeId,
    current: Option<NodeId>,
    next: Option<NodeId>,
}

impl<'a> Walker<'a> {
    pub(crate) fn new(tree: &'a Tree, root: NodeId) -> Self {
        let next = tree.query_node(&root, |n| n.first_child).flatten();
        Walker {
            tree,
            root,
            current: None,
            next,
        }
    }

    /// Do not descend into the node last returned by `next`.
    pub(crate) fn skip_children(&mut self) {
        if let Some(cur) = self.current {
            self.next = self.successor(cur, false);
        }
    }

    fn successor(&self, id: NodeId, descend: bool) -> Option<NodeId> {
        if descend && let Some(child) = self.tree.query_node(&id, |n| n.first_child).flatten() {
            return Some(child);
        }
        let mut cur = id;
        loop {
            if cur == self.root {
                return None;
            }
            let (sibling, parent) = self.tree.query_node(&cur, |n| (n.next_sibling, n.parent))?;
            if sibling.is_some() {
                return sibling;
            }
            cur = parent?;
        }
    }
}

impl Iterator for Walker<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        let id = self.next?;
        self.current = Some(id);
        // `successor(id, true)` with one look at `id` (its first child, next sibling and
        // parent together) instead of two for a node without children.
        let (child, sibling, parent) = self
            .tree
            .query_node(&id, |n| (n.first_child, n.next_sibling, n.parent))
            .unwrap_or((None, None, None));
        self.next = if child.is_some() {
            child
        } else if id == self.root {
            None
        } else if sibling.is_some() {
            sibling
        } else {
            parent.and_then(|p| self.successor(p, false))
        };
        Some(id)
    }
}

/// Runs `f` on the element `id` (None if it is not an element).
pub(crate) fn with_element<R>(tree: &Tree, id: NodeId, f: impl FnOnce(&Element) -> R) -> Option<R> {
    tree.query_node(&id, |n| match &n.data {
        NodeData::Element(el) => Some(f(el)),
        _ => None,
    })
    .flatten()
}

/// Whether the element's local (lower-case for HTML) tag name is `name` (atom comparison).
pub(crate) fn is(el: &Element, name: &LocalName) -> bool {
    el.name.local == *name
}

/// Value of the un-namespaced attribute `name`, like `element.attributes.get(name)`.
pub(crate) fn attr<'e>(el: &'e Element, name: &LocalName) -> Option<&'e str> {
    el.attrs
        .iter()
        .find(|a| a.name.local == *name && a.name.ns == ns!())
        .map(|a| &*a.value)
}

/// ASCII case-insensitive substring test (CSS `[attr*=value i]` semantics for `rel`).
pub(crate) fn contains_ignore_ascii_case(haystack: &str, needle: &str) -> bool {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    n.is_empty() || h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(doc: &Document) -> Vec<String> {
        Walker::new(&doc.tree, doc.root().id)
            .filter_map(|id| with_element(&doc.tree, id, |el| el.name.local.to_string()))
            .collect()
    }

    #[test]
    fn a_page_parsed_in_pieces_is_the_page_parsed_whole() {
        // Every cut position: inside a multi-byte character, a tag, an
        // attribute, an entity, a comment, a script, a CR LF pair, a table.
        let page = "<!doctype html><html><head><title>T &amp; t</title><meta charset=utf-8></head><body>\
            <p class=\"a b\" data-x='y'>é日本語🙂 x\r\ny</p><a href=/x?a=1&amp;b=2>l</a>&eacute;&#233;&notit; \
            <!-- c -- x --><script>if (a<b && c) { d = '</p>' }</script><noscript><p>n</p></noscript>\
            <table><tr><td>1<td>2</table><pre>\r\n\r\nkept</pre><textarea>\r\nt</textarea></body></html>";
        let whole = parse_in(page, usize::MAX).html();
        assert!(whole.contains("日本語🙂") && whole.contains("<td>2</td>"));
        for size in 1..=page.len() {
            let pieces: Vec<&str> = input_chunks(page, size).collect();
            assert!(pieces.iter().all(|p| p.len() <= size.max(4)), "{size}");
            assert_eq!(pieces.concat(), page);
            assert_eq!(parse_in(page, size).html(), whole, "pieces of {size} bytes");
        }
    }

    #[test]
    fn walks_in_document_order() {
        let doc = parse("<div><p><b>x</b></p><span></span></div><i></i>");
        assert_eq!(
            names(&doc),
            ["html", "head", "body", "div", "p", "b", "span", "i"]
        );
    }

    #[test]
    fn the_one_look_walk_visits_what_the_two_look_walk_did() {
        let tags = [
            "div", "p", "b", "span", "ul", "li", "a", "img", "br", "table", "td",
        ];
        let mut rng = crate::test_rng::TestRng::new(0x9e37_79b9_7f4a_7c15);
        let mut rnd = |n: usize| rng.below(n);
        for _ in 0..300 {
            let mut page = String::new();
            for _ in 0..rnd(60) {
                match rnd(4) {
                    0 => page.push_str(&format!("</{}>", tags[rnd(tags.len())])),
                    1 => page.push_str("text "),
                    _ => page.push_str(&format!("<{}>", tags[rnd(tags.len())])),
                }
            }
            let doc = parse(&page);
            let tree = &doc.tree;
            let all: Vec<NodeId> = Walker::new(tree, doc.root().id).collect();
            for root in std::iter::once(doc.root().id).chain(all) {
                let walked: Vec<NodeId> = Walker::new(tree, root).collect();
                // The reference: `successor(id, true)` for every step.
                let reference = Walker::new(tree, root);
                let mut expected = Vec::new();
                let mut next = reference.next;
                while let Some(id) = next {
                    expected.push(id);
                    next = reference.successor(id, true);
                }
                assert_eq!(walked, expected, "{page}");
            }
        }
    }

    #[test]
    fn without_a_base_tag_there_is_no_base_element() {
        const PIECES: &[&str] = &[
            "<base href=/b/>",
            "<BASE href=x>",
            "</base>",
            "<svg>",
            "</svg>",
            "<math>",
            "<template>",
            "</template>",
            "<head>",
            "</head>",
            "<body>",
            "<frameset>",
            "<table>",
            "<td>",
            "<p>",
            "base",
            "<base",
            "<!-- <base> -->",
            "<script>",
            "</script>",
            "<title>",
            "</title>",
            "<noscript>",
            "</noscript>",
            "<textarea>",
            "<basefont>",
            "<bases>",
            "<div>",
            "</html>",
            "x",
        ];
        let url = url::Url::parse("https://example.com/a/b").unwrap();
        let mut rng = crate::test_rng::TestRng::new(0x2545_f491_4f6c_dd1d);
        let mut rnd = |n: usize| rng.below(n);
        let (mut with, mut without) = (0, 0);
        for _ in 0..5000 {
            let page: String = (0..rnd(20)).map(|_| PIECES[rnd(PIECES.len())]).collect();
            let (doc, seen) = parse_noting(&page);
            let (base, has_base) = crate::urls::document_base(&doc, &url);
            if seen.base {
                with += 1;
            } else {
                without += 1;
                assert!(!has_base, "{page}");
                assert_eq!(base, url, "{page}");
            }
        }
        assert!(with > 1000 && without > 1000, "{with} {without}");
    }

    #[test]
    fn without_noscript_markup_or_streamed_ids_nothing_is_deferred() {
        let long = "<p>words enough to count as content in a shell page</p>".repeat(12);
        let words = "a shell's post in its noscript ".repeat(12);
        // A shell whose noscript markup holds a streamed segment and its placeholder (which
        // the parse cannot see: a noscript's content is text when scripting).
        let shell_with_segment = format!(
            "<noscript><template id=B:5></template><i>wait</i><!--/$--><div hidden id=S:5><p>{words}</p></div></noscript>"
        );
        let pieces: Vec<String> = [
            format!("<noscript><div class=post><p>{words}</p></div></noscript>"),
            shell_with_segment,
        ]
        .into_iter()
        .chain(
            [
                "<noscript>",
                "</noscript>",
                "<NOSCRIPT>",
                "<template id=B:1>",
                "</template>",
                "<template id=\"B:2\">",
                "<div hidden id=S:1>",
                "<div hidden id='S:2'>",
                "</div>",
                "<!--$?-->",
                "<!--/$-->",
                "<p id=&#83;:1 hidden>",
                "<span id=x>",
                "<div hidden id=s:1>",
                "<b id=B:>",
                "<body>",
                "<head>",
                "<p>",
                "text",
                long.as_str(),
                "<script>a<b</script>",
                "<div>",
                "<template>",
                "<i hidden>",
                "<noscript><iframe src=x></iframe></noscript>",
                "<head><noscript><link rel=x></noscript></head>",
                "<svg><noscript>",
                "</svg>",
                "<math>",
                "<table>",
                "<td>",
                "<frameset>",
                "</body>",
                "</html>",
            ]
            .map(String::from),
        )
        .collect();
        let mut rng = crate::test_rng::TestRng::new(0x9e37_79b9_7f4a_7c15);
        let mut rnd = |n: usize| rng.below(n);
        let (mut with, mut without, mut changed, mut noscript_skipped) = (0, 0, 0, 0);
        for _ in 0..8000 {
            let page: String = (0..rnd(16)).map(|_| pieces[rnd(pieces.len())].as_str()).collect();
            let (doc, seen) = parse_noting(&page);
            let kinds = crate::main_content::deferred_possible(&doc, &seen);
            let possible = kinds.any();
            let before = doc.html().to_string();
            crate::main_content::reveal_deferred(&doc);
            let after = doc.html().to_string();
            // Revealing only the kinds found possible changes the page as revealing all does.
            let (doc, _) = parse_noting(&page);
            crate::main_content::reveal_deferred_possible(&doc, kinds);
            assert_eq!(doc.html().to_string(), after, "{page}");
            if possible {
                with += 1;
                changed += usize::from(after != before);
            } else {
                without += 1;
                noscript_skipped += usize::from(!seen.noscripts.is_empty());
                assert_eq!(after, before, "{page}");
            }
        }
        assert!(
            with > 2000 && without > 1500 && changed > 1000 && noscript_skipped > 1000,
            "{with} {without} {changed} {noscript_skipped}"
        );
    }

    #[test]
    fn html_string_is_what_document_html_gives() {
        const PIECES: &[&str] = &[
            "<p class=\"a b\">",
            "</p>",
            "<script>if (a<b) x()</script>",
            "<style>p>a{}</style>",
            "<noscript><img src=x></noscript>",
            "<!-- c -->",
            "<!DOCTYPE html>",
            "<svg><path d=M0/>",
            "</svg>",
            "<template><b>t</b></template>",
            "&amp;&lt;\u{a0}\"'",
            "<pre>\nx</pre>",
            "<textarea>\n<b></textarea>",
            "<img alt='&quot;' src=\"a&amp;b\">",
            "caf\u{e9} \u{1f600}",
            "<table><td>c",
            "<a href=x>l</a>",
            "<br/>",
            "<xmp><i></xmp>",
            "<plaintext>",
        ];
        let mut rng = crate::test_rng::TestRng::new(0x51_7cc1_b727_220a);
        for _ in 0..3000 {
            let page: String = (0..rng.below(14))
                .map(|_| PIECES[rng.below(PIECES.len())])
                .collect();
            let doc = parse(&page);
            assert_eq!(html_string(&doc), doc.html().to_string(), "{page}");
        }
    }

    #[test]
    fn skip_children_then_detach_is_safe() {
        let doc = parse("<div><p><b>x</b></p><span></span></div><i></i>");
        let tree = &doc.tree;
        let mut walker = Walker::new(tree, doc.root().id);
        let mut seen = Vec::new();
        while let Some(id) = walker.next() {
            let Some(name) = with_element(tree, id, |el| el.name.local.to_string()) else {
                continue;
            };
            if name == "p" {
                walker.skip_children();
                tree.remove_from_parent(&id);
            }
            seen.push(name);
        }
        assert_eq!(seen, ["html", "head", "body", "div", "p", "span", "i"]);
        assert!(!doc.html().contains("<p>"));
    }

    #[test]
    fn noscript_in_head_stays_raw_text() {
        let doc = parse(
            "<html><head><noscript><img src=\"https://t.example/px\"></noscript></head><body>hi</body></html>",
        );
        assert_eq!(doc.select("body img").length(), 0);
    }

    #[test]
    fn attribute_helpers() {
        let doc = parse("<a HREF='x' rel='Shortcut ICON'>t</a>");
        let a = doc.select("a").nodes()[0].id;
        with_element(&doc.tree, a, |el| {
            assert_eq!(attr(el, &local_name!("href")), Some("x"));
            assert!(contains_ignore_ascii_case(
                attr(el, &local_name!("rel")).unwrap(),
                "icon"
            ));
            assert!(is(el, &local_name!("a")));
        });
    }
}
