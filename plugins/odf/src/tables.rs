//! Tables: header row, column and row spans, repeated rows and cells
//! (empty repeats not expanded), cells holding paragraphs, lists and tables.

use crate::Ctx;
use crate::inline::render_inline;
use crate::lists::{list_items, render_list};
use distill_sdk::documents::xml::Element;

pub(crate) fn render_table(t: &Element, ctx: &mut Ctx, out: &mut String, depth: usize) {
    if depth > 64 {
        return;
    }
    let mut rows = Vec::new();
    collect_rows(t, &mut rows, 0);
    out.push_str("<table>\n");
    let mut rendered = 0usize;
    for (i, row) in rows.iter().enumerate() {
        // Repeated empty rows (common at the end of sheets/tables) are not expanded.
        let repeat: usize = row
            .attr("table:number-rows-repeated")
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        let mut cells = String::new();
        let tag = if i == 0 { "th" } else { "td" };
        let mut any = false;
        for c in row.elements() {
            if c.name == "covered-table-cell" {
                continue;
            }
            if c.name != "table-cell" {
                continue;
            }
            let rep: usize = c
                .attr("table:number-columns-repeated")
                .and_then(|v| v.parse().ok())
                .unwrap_or(1);
            let mut inner = String::new();
            for (j, p) in c.elements().enumerate() {
                match p.name.as_str() {
                    "p" | "h" => {
                        let s = render_inline(p, ctx, depth);
                        if !s.trim().is_empty() {
                            if j > 0 && !inner.is_empty() {
                                inner.push_str("<br>");
                            }
                            inner.push_str(s.trim());
                        }
                    }
                    "list" => {
                        let items: Vec<&Element> = list_items(p).collect();
                        render_list(
                            &items,
                            ctx,
                            &mut inner,
                            p.attr("text:style-name").map(str::to_string),
                            1,
                            depth + 1,
                        )
                    }
                    "table" => render_table(p, ctx, &mut inner, depth + 1),
                    _ => {}
                }
            }
            if !inner.is_empty() {
                any = true;
            }
            let mut attrs = String::new();
            for (a, h) in [
                ("table:number-columns-spanned", "colspan"),
                ("table:number-rows-spanned", "rowspan"),
            ] {
                if let Some(n) = c.attr(a).and_then(|v| v.parse::<u32>().ok()).filter(|n| *n > 1) {
                    attrs.push_str(&format!(" {h}=\"{}\"", n.min(1000)));
                }
            }
            for _ in 0..if inner.is_empty() { rep.min(1) } else { rep.min(64) } {
                cells.push_str(&format!("<{tag}{attrs}>{inner}</{tag}>"));
            }
        }
        if !any && repeat > 1 {
            continue;
        }
        for _ in 0..repeat.min(if any { 64 } else { 1 }) {
            out.push_str(&format!("<tr>{cells}</tr>\n"));
            rendered += 1;
        }
        if rendered > 100_000 {
            break;
        }
    }
    out.push_str("</table>\n");
}

fn collect_rows<'a>(t: &'a Element, out: &mut Vec<&'a Element>, depth: usize) {
    if depth > 8 {
        return;
    }
    for e in t.elements() {
        match e.name.as_str() {
            "table-row" => out.push(e),
            "table-header-rows" | "table-rows" | "table-row-group" => collect_rows(e, out, depth + 1),
            _ => {}
        }
    }
}
