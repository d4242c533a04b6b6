//! The arena's entries against what they are made from.

use super::*;
use crate::dom::parse;

#[test]
fn owns_inline_text_and_totals_subtrees() {
    let doc = parse(
        "<div><p>Hello <a href=x>big</a> world.</p><ul><li><a href=y>one</a></li></ul>\
         <div aria-hidden=true>secret</div><input value=v></div>",
    );
    let body = doc.body().unwrap().id;
    let a = Arena::build(&doc, body, &mut Vec::new());
    let names: Vec<Kind> = a.nodes.iter().map(|n| n.kind).collect();
    assert_eq!(
        names,
        [
            Kind::Block,
            Kind::Block,
            Kind::Para,
            Kind::Link,
            Kind::List,
            Kind::Item,
            Kind::Link,
            Kind::Block,
            Kind::Drop
        ]
    );
    let p = &a.nodes[2];
    assert_eq!(
        (p.own.chars, p.own.link_chars, p.own.words, p.own.punct),
        (14, 3, 3, 1)
    );
    let div = &a.nodes[1];
    assert_eq!((div.total.chars, div.total.link_chars), (17, 6));
    assert_eq!(div.counts.links, 2);
    assert_eq!(div.size, 8);
    assert!(a.nodes[7].dropped);
    assert_eq!(a.children(1).collect::<Vec<_>>(), [2, 4, 7, 8]);
}

/// The signatures as they were made before the memo: FNV-1a over the tag name, then
/// `.` and the first class of the first `class` attribute without its digits.
fn signatures_reference(el: &dom_query::Element) -> (u32, u32) {
    let eat = |h: u32, b: u8| (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    let tag = el.name.local.bytes().fold(0x811c_9dc5, eat);
    let class = crate::dom::attr(el, &crate::dom::local_name!("class")).unwrap_or("");
    let b = class.as_bytes();
    let Some(start) = b.iter().position(|c| !c.is_ascii_whitespace()) else {
        return (tag, tag);
    };
    let mut h = eat(tag, b'.');
    for &c in b[start..].iter().take_while(|c| !c.is_ascii_whitespace()) {
        if !c.is_ascii_digit() {
            h = eat(h, c);
        }
    }
    (h, tag)
}

#[test]
fn memoised_signatures_are_the_signatures_made_per_element() {
    // Class values repeated on several tags, with digits, spaces only, several classes.
    let tags = ["div", "li", "section", "a", "span", "my-card"];
    let classes = [
        "",
        " ",
        "card",
        "card item2",
        " x1 y",
        "42",
        "card-3 big",
        "\tnav  ",
    ];
    let mut rng = crate::test_rng::TestRng::new(31);
    for _ in 0..300 {
        let mut html = String::new();
        for _ in 0..40 {
            let tag = tags[rng.below(tags.len())];
            let class = classes[rng.below(classes.len())];
            let attr = if rng.below(5) == 0 {
                String::new()
            } else {
                format!(" class='{class}'")
            };
            html.push_str(&format!("<{tag}{attr}>t</{tag}>"));
            if rng.below(4) == 0 {
                html.push_str("<div>");
            }
        }
        let doc = parse(&html);
        let a = Arena::build(&doc, doc.body().unwrap().id, &mut Vec::new());
        for n in &a.nodes[1..] {
            let reference = crate::dom::with_element(&doc.tree, n.id, signatures_reference).unwrap();
            assert_eq!((n.sig, n.tag_sig), reference, "{html}");
        }
    }
}

/// The fields [`bare_node`] and [`new_node`] read from the element and its tag (the
/// rest start the same and are added to by the walk and the totals).
fn entry_key(n: &Node) -> String {
    format!(
        "{:?} {} {} {:?} {:?} {:?} {} {} {} {} {} {} {} {} {} {}",
        n.id,
        n.parent,
        n.depth,
        n.kind,
        n.landmark,
        n.words,
        n.dropped,
        n.hidden,
        n.listed,
        n.forced,
        n.in_link,
        n.chrome_inline,
        n.in_chrome_inline,
        n.block,
        n.sig,
        n.tag_sig
    )
}

#[test]
fn an_element_without_attributes_gets_the_entry_its_attributes_loop_would_make() {
    // Tags of every kind and landmark, listed tags (`nav`, `aside`), a custom element
    // (its name has words: not bare), foreign elements, inside and outside links.
    let tags = [
        "div", "p", "a", "span", "nav", "aside", "header", "footer", "main", "article", "form", "h2", "li",
        "ul", "td", "table", "img", "br", "pre", "button", "input", "iframe", "svg", "math", "my-box",
        "section", "b", "label", "dialog", "video",
    ];
    let mut html = String::new();
    for (i, t) in tags.iter().enumerate() {
        let inner = tags[(i * 7 + 3) % tags.len()];
        html.push_str(&format!(
            "<{t}><{inner}>x</{inner}></{t}><a href=y><{t}>l</{t}></a>"
        ));
    }
    let doc = parse(&html);
    let a = Arena::build(&doc, doc.body().unwrap().id, &mut Vec::new());
    let mut bare = 0;
    for n in &a.nodes[1..] {
        let (has_attrs, reference) = crate::dom::with_element(&doc.tree, n.id, |el| {
            let tag = TagMemo::default().facts(el);
            let parent = &a.nodes[n.parent as usize];
            let mut r = new_node(
                n.id,
                n.parent,
                n.depth,
                el,
                tag,
                parent.in_link,
                &mut Memos::default(),
            );
            let plain = bare_node(n.id, n.parent, n.depth, tag, parent.in_link);
            if el.attrs.is_empty() && !tag.custom {
                assert_eq!(entry_key(&plain), entry_key(&r), "{:?}", el.name.local);
            }
            // What the walk sets from the parent.
            (r.block, r.dropped, r.in_chrome_inline) = (n.block, n.dropped, n.in_chrome_inline);
            (!el.attrs.is_empty(), r)
        })
        .unwrap();
        bare += usize::from(!has_attrs);
        assert_eq!(entry_key(n), entry_key(&reference));
    }
    assert!(bare > 50, "{bare}");
}

fn kinds(a: &Arena) -> Vec<(Kind, u32, u32)> {
    a.nodes.iter().map(|n| (n.kind, n.parent, n.own.chars)).collect()
}

#[test]
fn an_arena_on_reused_storage_holds_only_the_new_pages_nodes() {
    let big = parse(&"<div><p>Some words in a paragraph.</p><ul><li>item</li></ul></div>".repeat(300));
    let small = parse("<article><h1>T</h1><p>One two.</p></article>");
    let (big_body, small_body) = (big.body().unwrap().id, small.body().unwrap().id);
    let fresh_small = kinds(&Arena::build(&small, small_body, &mut Vec::new()));
    let first = Arena::build(&big, big_body, &mut Vec::new());
    assert!(first.nodes.len() > 1000);
    drop(first);
    // Other tests' threads share the spares, so which storage this one
    // gets is not fixed (spare.rs tests the reuse itself); what it holds is.
    let again = Arena::build(&small, small_body, &mut Vec::new());
    assert_eq!(kinds(&again), fresh_small, "only the new page's nodes");
}
