//! Tables: rows and cells through content controls, header rows, column
//! spans (`gridSpan`, `gridBefore`) and vertical merges as `rowspan`.

use crate::Ctx;
use crate::blocks::render_blocks;
use crate::runs::on;
use distill_sdk::documents::xml::Element;

struct CellInfo<'a> {
    el: &'a Element,
    col: usize,
    span: usize,
    vmerge: Option<bool>, // Some(true) restart, Some(false) continue
}

pub(crate) fn render_table(tbl: &Element, ctx: &mut Ctx, out: &mut String) {
    let mut rows: Vec<(bool, Vec<CellInfo>)> = Vec::new();
    let mut trs = Vec::new();
    collect_named(tbl, "tr", &mut trs, &["tbl"]);
    for tr in trs {
        let header = tr
            .child("trPr")
            .and_then(|p| p.child("tblHeader"))
            .is_some_and(|h| on(Some(h)));
        let mut tcs = Vec::new();
        collect_named(tr, "tc", &mut tcs, &["tbl"]);
        let mut col = tr
            .child("trPr")
            .and_then(|p| p.child("gridBefore"))
            .and_then(|g| g.attr("val"))
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(0)
            .min(1000);
        let mut cells = Vec::new();
        for tc in tcs {
            let pr = tc.child("tcPr");
            let span = pr
                .and_then(|p| p.child("gridSpan"))
                .and_then(|g| g.attr("val"))
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(1)
                .clamp(1, 1000);
            let vmerge = pr
                .and_then(|p| p.child("vMerge"))
                .map(|v| v.attr("val") == Some("restart"));
            cells.push(CellInfo {
                el: tc,
                col,
                span,
                vmerge,
            });
            col += span;
        }
        rows.push((header, cells));
    }
    out.push_str("<table>\n");
    for (i, (header, cells)) in rows.iter().enumerate() {
        out.push_str("<tr>");
        let tag = if i == 0 || *header { "th" } else { "td" };
        for c in cells {
            if c.vmerge == Some(false) {
                continue;
            }
            let mut rowspan = 1;
            if c.vmerge == Some(true) {
                for (_, next) in rows.iter().skip(i + 1) {
                    if next.iter().any(|n| n.col == c.col && n.vmerge == Some(false)) {
                        rowspan += 1;
                    } else {
                        break;
                    }
                }
            }
            out.push('<');
            out.push_str(tag);
            if c.span > 1 {
                out.push_str(&format!(" colspan=\"{}\"", c.span));
            }
            if rowspan > 1 {
                out.push_str(&format!(" rowspan=\"{rowspan}\""));
            }
            out.push('>');
            let mut inner = String::new();
            render_blocks(c.el, ctx, &mut inner, true);
            out.push_str(inner.trim());
            out.push_str(&format!("</{tag}>"));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

/// Children named `name`, looking through wrappers (sdt, customXml) but not into `stop`.
fn collect_named<'a>(parent: &'a Element, name: &str, out: &mut Vec<&'a Element>, stop: &[&str]) {
    for e in parent.elements() {
        if e.name == name {
            out.push(e);
        } else if !stop.contains(&e.name.as_str())
            && matches!(e.name.as_str(), "sdt" | "sdtContent" | "customXml" | "ins")
        {
            collect_named(e, name, out, stop);
        }
    }
}
