//! The cleaned page as a token stream (`distill_page_tokens`, ABI 0.4's
//! `page.cleaned-tokens`): the tokens a tokenizer would read from the
//! serialised page, written straight from the tree. It walks the tree the
//! way the serialiser does (dom_query's traversal, html5ever's rules for
//! void elements and attribute prefixes), so a plugin sees what it would
//! have parsed, without the host writing and the plugin re-reading HTML.

use distill_page_tokens::Writer;
use dom_query::{Document, SerializableNodeRef};
use html5ever::serialize::{AttrRef, Serialize, Serializer, TraversalScope};
use html5ever::{QualName, local_name, ns};
use std::borrow::Cow;
use std::io;

/// The token stream (`ops`, `text`) of `doc`.
pub(crate) fn encode(doc: &Document) -> (Vec<u8>, String) {
    let mut out = TokenSerializer {
        writer: Writer::with_capacity(4096),
        open: Vec::new(),
    };
    SerializableNodeRef::from(doc.root())
        .serialize(&mut out, TraversalScope::IncludeNode)
        .expect("the token writer does not fail");
    out.writer.finish()
}

/// An html5ever [`Serializer`] that writes tokens instead of markup.
struct TokenSerializer {
    writer: Writer,
    /// Per open element: its tag's id as its start tag wrote it, or [`IGNORED`]
    /// when its content is dropped (a void element's, as the serialiser drops it).
    open: Vec<u16>,
}

/// An open element whose content and end tag are not written.
const IGNORED: u16 = u16::MAX;

/// Elements the serialiser writes without content or end tag.
fn is_void(name: &QualName) -> bool {
    name.ns == ns!(html)
        && matches!(
            name.local,
            local_name!("area")
                | local_name!("base")
                | local_name!("basefont")
                | local_name!("bgsound")
                | local_name!("br")
                | local_name!("col")
                | local_name!("embed")
                | local_name!("frame")
                | local_name!("hr")
                | local_name!("img")
                | local_name!("input")
                | local_name!("keygen")
                | local_name!("link")
                | local_name!("meta")
                | local_name!("param")
                | local_name!("source")
                | local_name!("track")
                | local_name!("wbr")
        )
}

impl TokenSerializer {
    fn ignored(&self) -> bool {
        self.open.last() == Some(&IGNORED)
    }
}

impl Serializer for TokenSerializer {
    fn start_elem<'a, AttrIter>(&mut self, name: QualName, attrs: AttrIter) -> io::Result<()>
    where
        AttrIter: Iterator<Item = AttrRef<'a>>,
    {
        if self.ignored() {
            self.open.push(IGNORED);
            return Ok(());
        }
        // Namespaced attributes (SVG's xlink:href, ...) are written with the
        // serialiser's prefix; the rest by their local name.
        let id = self.writer.start(
            &name.local,
            attrs.map(|(attr, value)| {
                let prefix = match attr.ns {
                    ns!() => "",
                    ns!(xml) => "xml:",
                    ns!(xmlns) if attr.local != local_name!("xmlns") => "xmlns:",
                    ns!(xmlns) => "",
                    ns!(xlink) => "xlink:",
                    _ => "unknown_namespace:",
                };
                let name = if prefix.is_empty() {
                    Cow::Borrowed(&*attr.local)
                } else {
                    Cow::Owned(format!("{prefix}{}", &*attr.local))
                };
                (name, value)
            }),
        );
        self.open
            .push(if is_void(&name) { IGNORED } else { u16::from(id) });
        Ok(())
    }

    fn end_elem(&mut self, name: QualName) -> io::Result<()> {
        match self.open.pop() {
            Some(IGNORED) => {}
            Some(id) => self.writer.end_id(id as u8, &name.local),
            None => self.writer.end(&name.local),
        }
        Ok(())
    }

    fn write_text(&mut self, text: &str) -> io::Result<()> {
        if !self.ignored() {
            self.writer.text(text);
        }
        Ok(())
    }

    fn write_comment(&mut self, _text: &str) -> io::Result<()> {
        if !self.ignored() {
            self.writer.break_text();
        }
        Ok(())
    }

    fn write_doctype(&mut self, _name: &str) -> io::Result<()> {
        self.writer.break_text();
        Ok(())
    }

    fn write_processing_instruction(&mut self, _target: &str, _data: &str) -> io::Result<()> {
        if !self.ignored() {
            self.writer.break_text();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
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
}
