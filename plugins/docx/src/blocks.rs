//! Block content: paragraphs (headings, list items, plain or compact) and
//! tables in order, looking through content controls, custom XML and insertions.

use crate::Ctx;
use crate::runs::render_inline;
use crate::tables::render_table;
use distill_sdk::documents::html::ListNest;
use distill_sdk::documents::xml::Element;

/// Renders the block-level children of `parent` (body, cell, header, note, ...).
/// `compact`: paragraphs joined by `<br>` (table cells, notes).
pub(crate) fn render_blocks(parent: &Element, ctx: &mut Ctx, out: &mut String, compact: bool) {
    let mut blocks: Vec<&Element> = Vec::new();
    flatten_blocks(parent, &mut blocks, 0);
    let mut lists = ListNest::default();
    let mut first = true;
    for b in blocks {
        match b.name.as_str() {
            "p" => {
                let ppr = b.child("pPr");
                let style_id = ppr.and_then(|p| p.child("pStyle")).and_then(|s| s.attr("val"));
                let outline = ppr
                    .and_then(|p| p.child("outlineLvl"))
                    .and_then(|o| o.attr("val"))
                    .and_then(|v| v.parse().ok());
                let content = render_inline(b, ctx);
                let heading = if compact {
                    None
                } else {
                    ctx.heading_level(style_id, outline)
                };
                let list = if heading.is_some() {
                    None
                } else {
                    ctx.list_info(ppr, style_id)
                };
                if let Some((lvl, ordered)) = list {
                    lists.item(out, lvl as usize + 1, ordered, &content);
                    continue;
                }
                lists.close(out, 0);
                if content.trim().is_empty() {
                    continue;
                }
                if let Some(h) = heading {
                    if ctx.first_heading.is_none() {
                        let t = strip_tags(&content).trim().to_string();
                        if !t.is_empty() {
                            ctx.first_heading = Some(unescape_basic(&t));
                        }
                    }
                    out.push_str(&format!("<h{h}>{}</h{h}>\n", content.trim()));
                } else if compact {
                    if !first {
                        out.push_str("<br>");
                    }
                    out.push_str(&content);
                } else {
                    out.push_str("<p>");
                    out.push_str(&content);
                    out.push_str("</p>\n");
                }
                first = false;
            }
            "tbl" => {
                lists.close(out, 0);
                render_table(b, ctx, out);
                first = false;
            }
            _ => {}
        }
    }
    lists.close(out, 0);
}

fn unescape_basic(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// Collects paragraphs and tables, looking through content controls and custom XML.
fn flatten_blocks<'a>(parent: &'a Element, out: &mut Vec<&'a Element>, depth: usize) {
    if depth > 64 {
        return;
    }
    for e in parent.elements() {
        match e.name.as_str() {
            "p" | "tbl" => out.push(e),
            "sdt" => {
                if let Some(c) = e.child("sdtContent") {
                    flatten_blocks(c, out, depth + 1);
                }
            }
            "customXml" | "ins" | "smartTag" | "sdtContent" => flatten_blocks(e, out, depth + 1),
            "AlternateContent" => {
                if let Some(c) = e.child("Choice").or_else(|| e.child("Fallback")) {
                    flatten_blocks(c, out, depth + 1);
                }
            }
            _ => {}
        }
    }
}

/// The text of rendered HTML, tags left out.
pub(crate) fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}
