//! Runs inside a paragraph: text with bold/italic/strike/sub/sup merged across
//! adjacent runs, breaks, symbols, hyperlinks (relationships, anchors, fields),
//! note references, text boxes and image alt texts.

use crate::Ctx;
use crate::blocks::render_blocks;
use crate::fields::{Fields, field_link};
use distill_sdk::documents::html::{esc, roman, safe_href};
use distill_sdk::documents::xml::Element;

#[derive(Clone, Copy, PartialEq, Default)]
struct Fmt {
    bold: bool,
    italic: bool,
    strike: bool,
    sup: bool,
    sub: bool,
}

pub(crate) fn on(e: Option<&Element>) -> bool {
    match e {
        None => false,
        Some(e) => !matches!(e.attr("val"), Some("0" | "false" | "off" | "none")),
    }
}

fn run_fmt(r: &Element) -> Fmt {
    let Some(rpr) = r.child("rPr") else {
        return Fmt::default();
    };
    let va = rpr.child("vertAlign").and_then(|v| v.attr("val"));
    Fmt {
        bold: on(rpr.child("b")),
        italic: on(rpr.child("i")),
        strike: on(rpr.child("strike")) || on(rpr.child("dstrike")),
        sup: va == Some("superscript"),
        sub: va == Some("subscript"),
    }
}

/// Inline HTML builder that merges adjacent runs with the same formatting.
struct Inline {
    out: String,
    cur: Fmt,
}

impl Inline {
    fn open(&mut self, f: Fmt) {
        if f.bold {
            self.out.push_str("<strong>");
        }
        if f.italic {
            self.out.push_str("<em>");
        }
        if f.strike {
            self.out.push_str("<s>");
        }
        if f.sup {
            self.out.push_str("<sup>");
        }
        if f.sub {
            self.out.push_str("<sub>");
        }
    }
    fn close(&mut self) {
        let f = self.cur;
        if f.sub {
            self.out.push_str("</sub>");
        }
        if f.sup {
            self.out.push_str("</sup>");
        }
        if f.strike {
            self.out.push_str("</s>");
        }
        if f.italic {
            self.out.push_str("</em>");
        }
        if f.bold {
            self.out.push_str("</strong>");
        }
        self.cur = Fmt::default();
    }
    fn text(&mut self, s: &str, f: Fmt) {
        if s.is_empty() {
            return;
        }
        if f != self.cur && !s.trim().is_empty() {
            self.close();
            self.open(f);
            self.cur = f;
        }
        self.out.push_str(&esc(s));
    }
    fn raw(&mut self, s: &str) {
        self.close();
        self.out.push_str(s);
    }
}

pub(crate) fn render_inline(p: &Element, ctx: &mut Ctx) -> String {
    let mut inl = Inline {
        out: String::new(),
        cur: Fmt::default(),
    };
    let mut fields = Fields::default();
    inline_children(p, ctx, &mut inl, &mut fields, 0);
    for (_, _, link) in fields.stack.drain(..).rev() {
        if link {
            inl.raw("</a>");
        }
    }
    inl.close();
    inl.out
}

fn inline_children(parent: &Element, ctx: &mut Ctx, inl: &mut Inline, fields: &mut Fields, depth: usize) {
    if depth > 32 {
        return;
    }
    for e in parent.elements() {
        match e.name.as_str() {
            "r" => run(e, ctx, inl, fields),
            "hyperlink" => {
                let href = e
                    .attr("r:id")
                    .and_then(|id| ctx.rels.get(id))
                    .filter(|r| r.external || r.kind.ends_with("/hyperlink"))
                    .map(|r| r.target.clone())
                    .map(|t| match e.attr("anchor") {
                        Some(a) if !t.contains('#') => format!("{t}#{a}"),
                        _ => t,
                    })
                    .or_else(|| e.attr("anchor").map(|a| format!("#{a}")));
                match href.as_deref().and_then(safe_href) {
                    Some(h) => {
                        inl.raw(&format!("<a href=\"{h}\">"));
                        inline_children(e, ctx, inl, fields, depth + 1);
                        inl.raw("</a>");
                    }
                    None => inline_children(e, ctx, inl, fields, depth + 1),
                }
            }
            "fldSimple" => {
                let instr = e.attr("instr").unwrap_or("");
                match field_link(instr).as_deref().and_then(safe_href) {
                    Some(h) => {
                        inl.raw(&format!("<a href=\"{h}\">"));
                        inline_children(e, ctx, inl, fields, depth + 1);
                        inl.raw("</a>");
                    }
                    None => inline_children(e, ctx, inl, fields, depth + 1),
                }
            }
            "ins" | "smartTag" | "customXml" | "sdtContent" | "bdo" | "dir" => {
                inline_children(e, ctx, inl, fields, depth + 1)
            }
            "sdt" => {
                if let Some(c) = e.child("sdtContent") {
                    inline_children(c, ctx, inl, fields, depth + 1)
                }
            }
            "AlternateContent" => {
                if let Some(c) = e.child("Choice").or_else(|| e.child("Fallback")) {
                    inline_children(c, ctx, inl, fields, depth + 1)
                }
            }
            // Deleted text (w:del) and paragraph properties are skipped.
            _ => {}
        }
    }
}

fn run(r: &Element, ctx: &mut Ctx, inl: &mut Inline, fields: &mut Fields) {
    let fmt = run_fmt(r);
    for e in r.elements() {
        // Inside a field's instruction part nothing is shown.
        let hidden = fields.stack.last().is_some_and(|(_, in_result, _)| !in_result);
        match e.name.as_str() {
            "fldChar" => match e.attr("fldCharType") {
                Some("begin") => fields.stack.push((String::new(), false, false)),
                Some("separate") => {
                    if let Some(top) = fields.stack.last_mut() {
                        top.1 = true;
                        if let Some(h) = field_link(&top.0).as_deref().and_then(safe_href) {
                            top.2 = true;
                            inl.raw(&format!("<a href=\"{h}\">"));
                        }
                    }
                }
                Some("end") => {
                    if let Some((_, _, true)) = fields.stack.pop() {
                        inl.raw("</a>");
                    }
                }
                _ => {}
            },
            "instrText" => {
                if let Some(top) = fields.stack.last_mut()
                    && top.0.len() < 4096
                {
                    top.0.push_str(&e.text());
                }
            }
            _ if hidden => {}
            "t" => inl.text(&e.text(), fmt),
            "tab" | "ptab" => inl.text(" ", fmt),
            // Page and column breaks are not line breaks.
            "br" | "cr" if !matches!(e.attr("type"), Some("page" | "column")) => inl.raw("<br>"),
            "noBreakHyphen" => inl.text("-", fmt),
            "softHyphen" => {}
            "sym" => {
                if let Some(c) = e.attr("char").and_then(|c| u32::from_str_radix(c, 16).ok()) {
                    // Symbol fonts use the private use area F0xx.
                    let c = if (0xF000..0xF100).contains(&c) {
                        c - 0xF000
                    } else {
                        c
                    };
                    if let Some(ch) = char::from_u32(c).filter(|c| !c.is_control()) {
                        inl.text(&ch.to_string(), fmt);
                    }
                }
            }
            "footnoteReference" | "endnoteReference" => {
                if let Some(id) = e.attr("id") {
                    let list = if e.name == "footnoteReference" {
                        &mut ctx.footnote_refs
                    } else {
                        &mut ctx.endnote_refs
                    };
                    let n = match list.iter().position(|x| x == id) {
                        Some(i) => i + 1,
                        None => {
                            list.push(id.to_string());
                            list.len()
                        }
                    };
                    let label = if e.name == "footnoteReference" {
                        n.to_string()
                    } else {
                        roman(n)
                    };
                    inl.raw(&format!("[{label}]"));
                }
            }
            "drawing" | "pict" | "object" => {
                // Text boxes carry paragraphs; show their text inline.
                let mut boxes = Vec::new();
                e.find_all("txbxContent", &mut boxes);
                for b in boxes.into_iter().take(16) {
                    let mut inner = String::new();
                    render_blocks(b, ctx, &mut inner, true);
                    if !inner.trim().is_empty() {
                        inl.raw(&format!(" {} ", inner.trim()));
                    }
                }
                if let Some(alt) = e.find("docPr").and_then(|d| d.attr("descr").or(d.attr("title")))
                    && !alt.trim().is_empty()
                {
                    inl.raw(&format!("<img alt=\"{}\">", esc(alt.trim())));
                }
            }
            "AlternateContent" => {
                if let Some(c) = e.child("Choice").or_else(|| e.child("Fallback")) {
                    run(c, ctx, inl, fields);
                }
            }
            _ => {}
        }
    }
}
