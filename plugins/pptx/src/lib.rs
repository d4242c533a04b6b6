//! Distill converter plugin `pptx`: PowerPoint (.pptx, .pptm) → HTML.
//!
//! One `<section>` per slide in presentation order, headed `<h2>Slide N: title</h2>`;
//! text frames in reading order (title first, then by position), bulleted and
//! numbered paragraphs as lists with levels, tables, hyperlinks, bold/italic,
//! picture alt texts, and the speaker notes under `<h3>Notes</h3>`.
//! Metadata: title (docProps/core.xml, else the first slide's title), numPages =
//! number of slides.

use distill_sdk::documents::{archive, html, ooxml, xml};

use archive::Archive;
use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value, json, serde_json};
use html::{ListNest, esc, safe_href};
use ooxml::{Rels, read_rels};
use xml::Element;

/// The plugin.
pub struct Pptx;

/// Most slides converted.
const MAX_SLIDES: usize = 2000;

impl ConverterPlugin for Pptx {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description(
                "PowerPoint presentations (.pptx, .pptm) to HTML, one section per slide with speaker notes.",
            )
            .extension("pptx")
            .extension("pptm")
            .content_type("application/vnd.openxmlformats-officedocument.presentationml.presentation")
            .content_type("application/vnd.ms-powerpoint.presentation.macroenabled.12")
            .memory_limit_mib(512)
    }

    fn convert(file: &FileInput, _options: &Value) -> Result<Document, PluginError> {
        convert_bytes(&file.bytes)
    }
}

distill_sdk::export_plugin!(converter: Pptx);

fn unsupported(msg: impl Into<String>) -> PluginError {
    PluginError::UnsupportedInput(msg.into())
}

/// Converts PPTX bytes.
pub fn convert_bytes(bytes: &[u8]) -> Result<Document, PluginError> {
    let mut zip = Archive::open(bytes, "PPTX")?;
    let pres_part = "ppt/presentation.xml";
    let Some(pres_xml) = zip.read_string(pres_part)? else {
        let hint = zip.kind_hint("a PowerPoint presentation");
        return Err(unsupported(format!(
            "not a PowerPoint presentation: no ppt/presentation.xml{hint}"
        )));
    };
    let pres = xml::parse(&pres_xml, pres_part)?;
    let pres_rels = read_rels(&mut zip, pres_part)?;
    let mut slide_parts = Vec::new();
    if let Some(list) = pres.path(&["presentation", "sldIdLst"]) {
        for s in list.children_named("sldId") {
            if let Some(rel) = s.attr("r:id").and_then(|id| pres_rels.get(id)) {
                slide_parts.push(rel.part.clone());
            }
        }
    }
    let mut warnings = Vec::new();
    if slide_parts.len() > MAX_SLIDES {
        warnings.push(format!(
            "only the first {MAX_SLIDES} of {} slides are included",
            slide_parts.len()
        ));
        slide_parts.truncate(MAX_SLIDES);
    }

    let mut out = String::new();
    let mut first_title = None;
    for (i, part) in slide_parts.iter().enumerate() {
        let n = i + 1;
        let Some(text) = zip.read_string(part)? else {
            warnings.push(format!("slide {n} ({part}) is missing from the archive"));
            continue;
        };
        let slide = xml::parse(&text, part)?;
        drop(text);
        let rels = read_rels(&mut zip, part)?;
        let Some(tree) = slide.find("spTree") else {
            continue;
        };
        let mut shapes = Vec::new();
        collect_shapes(tree, &mut shapes, 0);
        let title = shapes
            .iter()
            .find(|s| s.title)
            .map(|s| plain_text(s.el))
            .filter(|t| !t.is_empty());
        if first_title.is_none() {
            first_title = title.clone();
        }
        html::open_slide(&mut out, n, title.as_deref());
        // Reading order: title, then top-to-bottom, left-to-right (shapes without a
        // position keep document order, after the positioned ones above them).
        let mut order: Vec<usize> = (0..shapes.len()).filter(|&i| !shapes[i].title).collect();
        order.sort_by_key(|&i| {
            shapes[i]
                .pos
                .map(|(x, y)| (y / 100_000, x))
                .unwrap_or((i64::MAX, 0))
        });
        for i in order {
            render_shape(&shapes[i], &rels, &mut out);
        }
        // Speaker notes.
        if let Some(notes_rel) = rels.of_kind("notesSlide") {
            let notes_part = notes_rel.part.clone();
            if let Some(text) = zip.read_string(&notes_part)? {
                let notes = xml::parse(&text, &notes_part)?;
                let notes_rels = read_rels(&mut zip, &notes_part)?;
                let mut body = String::new();
                if let Some(tree) = notes.find("spTree") {
                    let mut shapes = Vec::new();
                    collect_shapes(tree, &mut shapes, 0);
                    for s in shapes.iter_mut().filter(|s| s.ph_type.as_deref() == Some("body")) {
                        s.bulleted = false;
                        render_shape(s, &notes_rels, &mut body);
                    }
                }
                if !body.trim().is_empty() {
                    out.push_str("<h3>Notes</h3>\n");
                    out.push_str(&body);
                }
            }
        }
        out.push_str("</section>\n");
    }

    let mut meta = serde_json::Map::new();
    let core_title = ooxml::core_props(&mut zip).ok().and_then(|p| p.title);
    let title = core_title.or(first_title);
    if let Some(t) = &title {
        meta.insert("title".into(), json!(t));
    }
    meta.insert("numPages".into(), json!(slide_parts.len()));
    let mut doc = Document::html(html::page(title.as_deref(), &out)).with_metadata(Value::Object(meta));
    for w in warnings {
        doc = doc.with_warning(w);
    }
    Ok(doc)
}

struct Shape<'a> {
    el: &'a Element,
    title: bool,
    ph_type: Option<String>,
    /// A body-like placeholder: paragraphs are bullets unless told otherwise.
    bulleted: bool,
    pos: Option<(i64, i64)>,
}

fn collect_shapes<'a>(tree: &'a Element, out: &mut Vec<Shape<'a>>, depth: usize) {
    if depth > 32 {
        return;
    }
    for e in tree.elements() {
        match e.name.as_str() {
            "sp" | "graphicFrame" | "pic" | "cxnSp" => {
                let nv = e.elements().find(|c| c.name.starts_with("nv"));
                let ph = nv.and_then(|n| n.child("nvPr")).and_then(|p| p.child("ph"));
                let ph_type = ph.map(|p| p.attr("type").unwrap_or("body").to_string());
                let title = matches!(ph_type.as_deref(), Some("title" | "ctrTitle"));
                let bulleted = matches!(ph_type.as_deref(), Some("body" | "obj"));
                let pos = e
                    .elements()
                    .find(|c| c.name == "spPr" || c.name == "xfrm")
                    .and_then(|p| {
                        if p.name == "xfrm" {
                            Some(p)
                        } else {
                            p.child("xfrm")
                        }
                    })
                    .and_then(|x| x.child("off"))
                    .and_then(|o| Some((o.attr("x")?.parse().ok()?, o.attr("y")?.parse().ok()?)));
                out.push(Shape {
                    el: e,
                    title,
                    ph_type,
                    bulleted,
                    pos,
                });
            }
            "grpSp" => collect_shapes(e, out, depth + 1),
            "AlternateContent" => {
                if let Some(c) = e.child("Choice").or_else(|| e.child("Fallback")) {
                    collect_shapes(c, out, depth + 1);
                }
            }
            _ => {}
        }
    }
}

fn plain_text(shape: &Element) -> String {
    let mut paras = Vec::new();
    shape.find_all("p", &mut paras);
    let lines: Vec<String> = paras
        .iter()
        .map(|p| {
            let mut s = String::new();
            for r in p.elements() {
                match r.name.as_str() {
                    "r" | "fld" => s.push_str(&r.child("t").map(|t| t.text()).unwrap_or_default()),
                    "br" => s.push(' '),
                    _ => {}
                }
            }
            s.trim().to_string()
        })
        .filter(|s| !s.is_empty())
        .collect();
    lines.join(" ")
}

fn render_shape(shape: &Shape, rels: &Rels, out: &mut String) {
    let e = shape.el;
    match e.name.as_str() {
        "sp" => {
            if let Some(body) = e.child("txBody") {
                if matches!(shape.ph_type.as_deref(), Some("sldNum" | "dt" | "ftr" | "sldImg")) {
                    return;
                }
                render_text_body(body, rels, shape.bulleted, out);
            }
        }
        "graphicFrame" => {
            if let Some(tbl) = e.find("tbl") {
                render_table(tbl, rels, out);
            }
        }
        "pic" => {
            if let Some(alt) = e
                .find("cNvPr")
                .and_then(|c| c.attr("descr"))
                .filter(|a| !a.trim().is_empty())
            {
                out.push_str(&format!("<p><img alt=\"{}\"></p>\n", esc(alt.trim())));
            }
        }
        _ => {}
    }
}

fn render_text_body(body: &Element, rels: &Rels, bulleted: bool, out: &mut String) {
    let mut lists = ListNest::default();
    for p in body.children_named("p") {
        let content = render_runs(p, rels);
        let ppr = p.child("pPr");
        let lvl: usize = ppr
            .and_then(|p| p.attr("lvl"))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
            .min(8);
        let list = match ppr {
            Some(pp) if pp.child("buNone").is_some() => None,
            Some(pp) if pp.child("buAutoNum").is_some() => Some(true),
            Some(pp) if pp.child("buChar").is_some() || pp.child("buBlip").is_some() => Some(false),
            _ if bulleted => Some(false),
            _ => None,
        };
        if content.trim().is_empty() {
            continue;
        }
        match list {
            Some(ordered) => lists.item(out, lvl + 1, ordered, content.trim()),
            None => {
                lists.close(out, 0);
                out.push_str("<p>");
                out.push_str(content.trim());
                out.push_str("</p>\n");
            }
        }
    }
    lists.close(out, 0);
}

fn on(v: Option<&str>) -> bool {
    matches!(v, Some("1" | "true"))
}

fn render_runs(p: &Element, rels: &Rels) -> String {
    let mut s = String::new();
    for r in p.elements() {
        match r.name.as_str() {
            "r" | "fld" => {
                let text = r.child("t").map(|t| t.text()).unwrap_or_default();
                if text.is_empty() {
                    continue;
                }
                let rpr = r.child("rPr");
                let bold = on(rpr.and_then(|r| r.attr("b")));
                let italic = on(rpr.and_then(|r| r.attr("i")));
                let mut t = esc(&text);
                if !text.trim().is_empty() {
                    if italic {
                        t = format!("<em>{t}</em>");
                    }
                    if bold {
                        t = format!("<strong>{t}</strong>");
                    }
                }
                let link = rpr
                    .and_then(|r| r.child("hlinkClick"))
                    .and_then(|h| h.attr("r:id"))
                    .and_then(|id| rels.get(id))
                    .filter(|rel| rel.external)
                    .and_then(|rel| safe_href(&rel.target));
                match link {
                    Some(h) => s.push_str(&format!("<a href=\"{h}\">{t}</a>")),
                    None => s.push_str(&t),
                }
            }
            "br" => s.push_str("<br>"),
            _ => {}
        }
    }
    // Merge adjacent identical formatting produced run by run.
    s.replace("</strong><strong>", "").replace("</em><em>", "")
}

fn render_table(tbl: &Element, rels: &Rels, out: &mut String) {
    out.push_str("<table>\n");
    for (i, tr) in tbl.children_named("tr").enumerate() {
        out.push_str("<tr>");
        let tag = if i == 0 { "th" } else { "td" };
        for tc in tr.children_named("tc") {
            if on(tc.attr("hMerge")) || on(tc.attr("vMerge")) {
                continue;
            }
            out.push('<');
            out.push_str(tag);
            for (attr, html_attr) in [("gridSpan", "colspan"), ("rowSpan", "rowspan")] {
                if let Some(n) = tc
                    .attr(attr)
                    .and_then(|v| v.parse::<u32>().ok())
                    .filter(|n| *n > 1)
                {
                    out.push_str(&format!(" {html_attr}=\"{}\"", n.min(1000)));
                }
            }
            out.push('>');
            if let Some(body) = tc.child("txBody") {
                let parts: Vec<String> = body
                    .children_named("p")
                    .map(|p| render_runs(p, rels))
                    .filter(|s| !s.trim().is_empty())
                    .collect();
                out.push_str(&parts.join("<br>"));
            }
            out.push_str(&format!("</{tag}>"));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

#[cfg(test)]
mod tests;
