//! Paragraph content: text with ODF's whitespace collapsing and `text:s`
//! spaces, bold/italic from the styles, links, line breaks, ruby bases, and
//! note citations (the note body is collected for the notes section).

use crate::Ctx;
use crate::text::render_blocks;
use distill_sdk::documents::html::{esc, roman, safe_href};
use distill_sdk::documents::xml::{Element, Node};

pub(crate) fn render_inline(p: &Element, ctx: &mut Ctx, depth: usize) -> String {
    let mut s = String::new();
    inline(p, ctx, &mut s, (false, false), depth);
    s.replace("</strong><strong>", "").replace("</em><em>", "")
}

fn inline(e: &Element, ctx: &mut Ctx, out: &mut String, fmt: (bool, bool), depth: usize) {
    if depth > 96 {
        return;
    }
    for n in &e.children {
        match n {
            Node::Text(t) => {
                // ODF collapses whitespace in text content (spaces are text:s).
                let collapsed = collapse(t);
                push_fmt(out, &esc(&collapsed), fmt, collapsed.trim().is_empty());
            }
            Node::Elem(c) => match c.name.as_str() {
                "span" => {
                    let (b, i) = ctx.fmt(c.attr("text:style-name"));
                    inline(c, ctx, out, (fmt.0 || b, fmt.1 || i), depth + 1);
                }
                "a" => {
                    let href = c.attr("xlink:href").and_then(safe_href);
                    let mut inner = String::new();
                    inline(c, ctx, &mut inner, fmt, depth + 1);
                    match href {
                        Some(h) => out.push_str(&format!("<a href=\"{h}\">{inner}</a>")),
                        None => out.push_str(&inner),
                    }
                }
                "s" => {
                    let n: usize = c.attr("text:c").and_then(|v| v.parse().ok()).unwrap_or(1);
                    out.push_str(&" ".repeat(n.min(100)));
                }
                "tab" => out.push(' '),
                "line-break" => out.push_str("<br>"),
                "note" => {
                    let endnote = c.attr("text:note-class") == Some("endnote");
                    let mut body = String::new();
                    if let Some(b) = c.child("note-body") {
                        let mut inner = String::new();
                        render_blocks(b, ctx, &mut inner, depth + 1);
                        body = inner.replace("<p>", "").replace("</p>\n", " ");
                    }
                    ctx.notes.push((endnote, body));
                    let n = ctx.notes.iter().filter(|x| x.0 == endnote).count();
                    let label = if endnote { roman(n) } else { n.to_string() };
                    out.push_str(&format!("[{label}]"));
                }
                "frame" | "note-citation" | "annotation" | "tracked-changes" => {}
                "ruby" => {
                    if let Some(b) = c.child("ruby-base") {
                        inline(b, ctx, out, fmt, depth + 1);
                    }
                }
                _ => inline(c, ctx, out, fmt, depth + 1),
            },
        }
    }
}

fn collapse(t: &str) -> String {
    let mut s = String::with_capacity(t.len());
    let mut prev_space = false;
    for ch in t.chars() {
        if ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r' {
            if !prev_space {
                s.push(' ');
            }
            prev_space = true;
        } else {
            s.push(ch);
            prev_space = false;
        }
    }
    s
}

fn push_fmt(out: &mut String, text: &str, (bold, italic): (bool, bool), blank: bool) {
    if blank || (!bold && !italic) {
        out.push_str(text);
        return;
    }
    let mut t = text.to_string();
    if italic {
        t = format!("<em>{t}</em>");
    }
    if bold {
        t = format!("<strong>{t}</strong>");
    }
    out.push_str(&t);
}
