//! ODT: the page header and footer of the master pages, the body's blocks
//! (headings, paragraphs, lists, tables, sections, indexes, frames), and the
//! footnotes and endnotes collected on the way.

use crate::Ctx;
use crate::drawing::{paragraph_frames, render_frame};
use crate::inline::render_inline;
use crate::lists::{list_items, list_kind, render_list};
use crate::tables::render_table;
use distill_sdk::documents::html::roman;
use distill_sdk::documents::xml::Element;

/// Writes header, body, notes and footer of `office:text`; `styles` is the
/// parsed styles.xml (where the master pages are).
pub(crate) fn render_text(text: &Element, styles_root: Option<&Element>, ctx: &mut Ctx, out: &mut String) {
    // Page header/footer from the master pages.
    let (headers, footers) = styles_root.map(|s| master_parts(s, ctx)).unwrap_or_default();
    for h in &headers {
        out.push_str(&format!("<div data-part=\"header\">\n{h}</div>\n"));
    }
    out.push_str("<div data-part=\"body\">\n");
    render_blocks(text, ctx, out, 0);
    out.push_str("</div>\n");
    render_notes(ctx, out);
    for f in &footers {
        out.push_str(&format!("<div data-part=\"footer\">\n{f}</div>\n"));
    }
}

fn master_parts(styles: &Element, ctx: &mut Ctx) -> (Vec<String>, Vec<String>) {
    let mut headers = Vec::new();
    let mut footers = Vec::new();
    let mut masters = Vec::new();
    styles.find_all("master-page", &mut masters);
    for m in masters {
        for (name, list) in [("header", &mut headers), ("footer", &mut footers)] {
            if let Some(h) = m.child(name) {
                let mut s = String::new();
                render_blocks(h, ctx, &mut s, 0);
                if !s.trim().is_empty() && !list.contains(&s) {
                    list.push(s);
                }
            }
        }
    }
    (headers, footers)
}

pub(crate) fn render_notes(ctx: &mut Ctx, out: &mut String) {
    let notes = std::mem::take(&mut ctx.notes);
    for (endnote, title) in [(false, "Footnotes"), (true, "Endnotes")] {
        let items: Vec<&String> = notes.iter().filter(|n| n.0 == endnote).map(|n| &n.1).collect();
        if items.is_empty() {
            continue;
        }
        let kind = if endnote { "endnotes" } else { "footnotes" };
        out.push_str(&format!(
            "<div data-part=\"{kind}\">\n<hr>\n<p><strong>{title}</strong></p>\n"
        ));
        for (n, i) in items.iter().enumerate() {
            let label = if endnote {
                roman(n + 1)
            } else {
                (n + 1).to_string()
            };
            out.push_str(&format!("<p>[{label}] {}</p>\n", i.trim()));
        }
        out.push_str("</div>\n");
    }
}

pub(crate) fn render_blocks(parent: &Element, ctx: &mut Ctx, out: &mut String, depth: usize) {
    if depth > 64 {
        return;
    }
    let children: Vec<&Element> = parent.elements().collect();
    let mut k = 0;
    while k < children.len() {
        let e = children[k];
        k += 1;
        match e.name.as_str() {
            "list" => {
                let style = e.attr("text:style-name").map(str::to_string);
                let mut items: Vec<&Element> = list_items(e).collect();
                while k < children.len()
                    && (children[k].name == "soft-page-break"
                        || (children[k].name == "list"
                            && list_kind(ctx, children[k].attr("text:style-name"))
                                == list_kind(ctx, style.as_deref())))
                {
                    items.extend(list_items(children[k]));
                    k += 1;
                }
                render_list(&items, ctx, out, style, 1, depth + 1);
            }
            "h" => {
                let lvl: u8 = e
                    .attr("text:outline-level")
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(1)
                    .clamp(1, 6);
                let content = render_inline(e, ctx, depth);
                if !content.trim().is_empty() {
                    if ctx.first_heading.is_none() {
                        ctx.first_heading = Some(e.text().trim().to_string());
                    }
                    out.push_str(&format!("<h{lvl}>{}</h{lvl}>\n", content.trim()));
                }
            }
            "p" => {
                let content = render_inline(e, ctx, depth);
                let frames = paragraph_frames(e, ctx, depth);
                if !content.trim().is_empty() {
                    if let Some(h) = ctx.heading_of(e.attr("text:style-name")) {
                        if ctx.first_heading.is_none() {
                            ctx.first_heading = Some(e.text().trim().to_string());
                        }
                        out.push_str(&format!("<h{h}>{}</h{h}>\n", content.trim()));
                    } else {
                        out.push_str(&format!("<p>{}</p>\n", content.trim()));
                    }
                }
                out.push_str(&frames);
            }
            "table" => render_table(e, ctx, out, depth + 1),
            "section"
            | "index-body"
            | "table-of-content"
            | "alphabetical-index"
            | "illustration-index"
            | "table-index"
            | "bibliography"
            | "user-index"
            | "object-index"
            | "text-box"
            | "deletion-placeholder" => render_blocks(e, ctx, out, depth + 1),
            "index-title" => render_blocks(e, ctx, out, depth + 1),
            "frame" => render_frame(e, ctx, out, depth + 1),
            "tracked-changes" => {}
            _ => {}
        }
    }
}
