//! The token stream against a tokenizer's reading of the serialised page,
//! against the markdown of the HTML, and against the old serialiser path.

use super::encode;
use distill_page_tokens::{Token, Tokens};

/// The tokens of `html` parsed as the server parses pages, as short strings.
fn tokens_of(html: &str) -> Vec<String> {
    let (ops, text) = encode(&crate::dom::parse(html));
    let mut tokens = Tokens::new(&ops, &text);
    let out = tokens
        .by_ref()
        .map(|t| match t {
            Token::Text(s) => format!("{s:?}"),
            Token::Start { tag, name, attrs } => {
                let attrs: String = attrs.map(|a| format!(" {}={:?}", a.name, a.value)).collect();
                format!("<{name}{}{attrs}>", if tag == 0 { "?" } else { "" })
            }
            Token::End { name, .. } => format!("</{name}>"),
        })
        .filter(|t| {
            !matches!(
                t.as_str(),
                "<html>" | "</html>" | "<head>" | "</head>" | "<body>" | "</body>"
            )
        })
        .collect();
    assert!(tokens.is_complete());
    out
}

#[test]
fn void_elements_have_no_end_tag_and_entities_are_decoded() {
    assert_eq!(
        tokens_of("<p>a &amp; b&nbsp;<br>c<img src=x.png alt='1 &lt; 2'></p>"),
        [
            "<p>",
            "\"a & b\\u{a0}\"",
            "<br>",
            "\"c\"",
            "<img src=\"x.png\" alt=\"1 < 2\">",
            "</p>"
        ]
    );
}

#[test]
fn attribute_values_keep_quotes_and_ampersands() {
    assert_eq!(
        tokens_of(r#"<a href="/x?a=1&amp;b=2" title='say "hi" &amp; go' data-x="&quot;">t</a>"#),
        [
            r#"<a href="/x?a=1&b=2" title="say \"hi\" & go" data-x="\"">"#,
            "\"t\"",
            "</a>"
        ]
    );
}

#[test]
fn pre_keeps_the_newline_the_tree_has_and_cr_reads_as_newline() {
    // The parser drops the first newline after <pre>; the second is text.
    assert_eq!(
        tokens_of("<pre>\n\nx&#13;y</pre>"),
        ["<pre>", "\"\\nx\\ny\"", "</pre>"]
    );
}

#[test]
fn comments_split_text_and_doctype_is_dropped() {
    assert_eq!(
        tokens_of("<!DOCTYPE html><p>a<!-- c -->b</p>"),
        ["<p>", "\"a\"", "\"b\"", "</p>"]
    );
}

#[test]
fn unknown_elements_svg_and_namespaced_attributes_travel_by_name() {
    assert_eq!(
        tokens_of(
            r##"<my-widget x-y="1">w</my-widget><svg viewBox="0 0 1 1"><use xlink:href="#a"></use></svg>"##
        ),
        [
            "<my-widget? x-y=\"1\">",
            "\"w\"",
            "</my-widget>",
            "<svg viewBox=\"0 0 1 1\">",
            "<use? xlink:href=\"#a\">",
            "</use>",
            "</svg>",
        ]
    );
}

/// The markdown plugin's converter gives the same markdown from the
/// tokens as from the serialised HTML on pages built to be awkward.
#[test]
fn markdown_from_tokens_is_markdown_from_the_html() {
    let pages = [
        "<table><tr><td>a<table><tr><th>x</th><td>y</td></tr></table></td><td>b</td></tr></table>",
        "<pre>\n\n  code &lt;b&gt;</pre><pre>\nsingle</pre><listing>\nl</listing>",
        "<ul><li>one<li>two<ol><li>nested</ol></ul><p>after<br><br>break</p>",
        "<p>x<svg><text>hidden</text><style>s{}</style></svg>y</p><noscript>ns</noscript>",
        "<textarea>t</textarea><title>ti</title><template><p>tpl</p></template><p>z</p>",
        "<h2>Title <em>em</em></h2><blockquote><p>q &amp; a</p></blockquote><hr>",
        "<a href='/a?b=1&amp;c=2' title='T \"q\"'>link</a> <img src=i.png alt='A & B'>",
        "<p>a\r\nb\rc&#13;d</p><xmp><b>raw</b></xmp><div><custom-tag>c</custom-tag></div>",
        "<code class=\"language-rust\">fn x() {}</code><pre><code class=language-py>p = 1\n</code></pre>",
    ];
    for page in pages {
        let doc = crate::dom::parse(page);
        let html = doc.html().to_string();
        let (ops, text) = encode(&doc);
        let from_tokens = distill_markdown::tokens_to_markdown(&ops, &text).expect("complete stream");
        assert_eq!(from_tokens, distill_markdown::html_to_markdown(&html), "{page}");
    }
}

/// The new walk and the old serialiser path write the same bytes for `doc`.
fn assert_same_as_serialiser(doc: &dom_query::Document, what: &str) {
    let new = encode(doc);
    let old = super::serializer_path::encode(doc);
    assert!(
        new == old,
        "{what}: the walk's stream differs from the serialiser's"
    );
}

/// Pages built to be awkward for a walk: templates (nested, in tables, in
/// void elements' place), SVG and MathML with prefixed attributes, unknown
/// names (their end tags read back from the node), comments and
/// processing-instruction-like text, and deep nesting.
#[test]
fn the_walk_writes_what_the_serialiser_wrote_on_awkward_pages() {
    let pages = [
        "<!DOCTYPE html><template><p>t<template><b>in</b></template>x</p></template>after",
        "<table><template><tr><td>c</td></tr></template><tr><td>d</td></tr></table>",
        "<head><template><meta charset=x><link href=a></template></head><body>b",
        r##"<svg xmlns:xlink="http://www.w3.org/1999/xlink" xml:lang="en"><use xlink:href="#a" xlink:title="t"/><foreignObject><p>f</p></foreignObject></svg>"##,
        "<math><mi xlink:href=x>m</mi><annotation-xml encoding=text/html><p>h</p></annotation-xml></math>",
        "<p>a<!-- c -->b<?pi x?>c<br><!--d-->e</p><my-el x=1><other-el>o</other-el></my-el>",
        "<img src=a><br/>text</br><input value=v><wbr><hr><p>end",
        "<ul><li>1<li>2</ul><dl><dt>a<dd>b</dl><select><option>o</select><textarea>\r\nt</textarea>",
        "<div><div><div><div><div><span><a href=x>deep</a></span></div></div></div></div></div>",
        "",
        "just text\r\nwith a CR",
    ];
    for page in pages {
        assert_same_as_serialiser(&crate::dom::parse(page), page);
    }
}

/// Trees only scripts' DOM calls make: void elements with children (text,
/// elements, comments, a doctype), a template inside a void element, a
/// processing instruction, a detached node's id never reached.
#[test]
fn the_walk_writes_what_the_serialiser_wrote_on_trees_a_parser_does_not_make() {
    use dom_query::NodeData;
    let doc = crate::dom::parse(
        "<p>a<br>b<img src=i>c</p><hr><span>s</span><template id=in-hr><i>tpl</i></template>",
    );
    let tree = &doc.tree;
    let br = doc.select("br").nodes()[0].id;
    let img = doc.select("img").nodes()[0].id;
    let hr = doc.select("hr").nodes()[0].id;
    let span = doc.select("span").nodes()[0].id;
    // Inside <br>: text, an element with text, a comment, a doctype.
    let t = tree.new_text("inside br").id;
    tree.append_child_of(&br, &t);
    let b = tree.new_element("b").id;
    let bt = tree.new_text("bold").id;
    tree.append_child_of(&b, &bt);
    tree.append_child_of(&br, &b);
    tree.append_child_data_of(&br, NodeData::Comment { contents: "c".into() });
    tree.append_child_data_of(
        &img,
        NodeData::Doctype {
            name: "html".into(),
            public_id: "".into(),
            system_id: "".into(),
        },
    );
    // A template (with its contents) moved into <hr>.
    let template = doc.select("template").nodes()[0].id;
    tree.remove_from_parent(&template);
    tree.append_child_of(&hr, &template);
    // Processing instructions between text runs.
    tree.append_child_data_of(
        &span,
        NodeData::ProcessingInstruction {
            target: "x".into(),
            contents: "y".into(),
        },
    );
    let after = tree.new_text("after pi").id;
    tree.append_child_of(&span, &after);
    // A node made and never attached.
    let _ = tree.new_element("never-attached");
    assert_same_as_serialiser(&doc, "script-made tree");
    // The new walk drops what is inside the void elements, as the serialiser did.
    let (ops, text) = encode(&doc);
    for hidden in ["inside br", "bold", "tpl"] {
        assert!(!text.contains(hidden), "{hidden} in {text:?}");
    }
    assert!(text.contains("after pi"));
    assert!(Tokens::new(&ops, &text).by_ref().count() > 0);
}

/// Every page of both corpora (`../shared/corpus/*/html/*.html.gz` beside the
/// workspace, or `DISTILL_CORPUS_ROOT`): the parsed tree and the cleaned tree
/// (main content, and the whole page) written both ways give the same bytes.
#[test]
#[ignore = "reads every corpus page (~1 min in release); run with --ignored"]
fn the_walk_writes_what_the_serialiser_wrote_on_every_corpus_page() {
    use std::io::Read;
    let root = std::env::var("DISTILL_CORPUS_ROOT")
        .unwrap_or_else(|_| format!("{}/../../shared/corpus", env!("CARGO_MANIFEST_DIR")));
    let url = url::Url::parse("https://example.com/a/page.html").unwrap();
    let mut n = 0;
    let mut corpora = 0;
    for corpus in std::fs::read_dir(&root).expect("the corpus root") {
        let Ok(pages) = std::fs::read_dir(corpus.unwrap().path().join("html")) else {
            continue;
        };
        corpora += 1;
        for entry in pages {
            let path = entry.unwrap().path();
            if !path.to_string_lossy().ends_with(".html.gz") {
                continue;
            }
            let mut body = Vec::new();
            flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
                .read_to_end(&mut body)
                .unwrap();
            let html = String::from_utf8_lossy(&body);
            let what = path.display().to_string();
            assert_same_as_serialiser(&crate::dom::parse(&html), &what);
            let page = crate::ParsedPage::parse(&html, &url);
            for only_main_content in [true, false] {
                let opts = crate::CleanOptions {
                    only_main_content,
                    include_tags: &[],
                    exclude_tags: &[],
                };
                let cleaned = page.clean(&opts).unwrap();
                assert_same_as_serialiser(cleaned.document(), &what);
                assert_eq!(
                    cleaned.tokens(),
                    super::serializer_path::encode(cleaned.document())
                );
            }
            n += 1;
        }
    }
    assert!(corpora >= 2 && n > 2000, "{corpora} corpora, {n} pages");
    eprintln!("{n} pages of {corpora} corpora the same");
}
