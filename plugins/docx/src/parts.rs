//! The parts around the body: page headers and footers referenced from the
//! section properties (empty and repeated ones left out), and the footnotes
//! and endnotes in the order the body cites them.

use crate::Ctx;
use crate::blocks::{render_blocks, strip_tags};
use distill_sdk::PluginError;
use distill_sdk::documents::archive::{Archive, resolve};
use distill_sdk::documents::html::roman;
use distill_sdk::documents::xml::{self, Element};
use std::collections::HashMap;

/// Relationship ids of the headers and of the footers the sections reference, in order.
pub(crate) fn section_references(body: &Element) -> (Vec<String>, Vec<String>) {
    let mut header_ids = Vec::new();
    let mut footer_ids = Vec::new();
    let mut sect = Vec::new();
    body.find_all("sectPr", &mut sect);
    for s in &sect {
        for h in s.children_named("headerReference") {
            if let Some(id) = h.attr("r:id") {
                push_unique(&mut header_ids, id);
            }
        }
        for f in s.children_named("footerReference") {
            if let Some(id) = f.attr("r:id") {
                push_unique(&mut footer_ids, id);
            }
        }
    }
    (header_ids, footer_ids)
}

fn push_unique(list: &mut Vec<String>, id: &str) {
    if !list.iter().any(|x| x == id) {
        list.push(id.to_string());
    }
}

/// Writes the header or footer parts `ids`, each in a `<div data-part="{kind}">`.
pub(crate) fn write_headers_footers(
    zip: &mut Archive,
    ids: &[String],
    kind: &str,
    ctx: &mut Ctx,
    out: &mut String,
) -> Result<(), PluginError> {
    for part in render_parts(zip, ids, ctx)? {
        out.push_str(&format!("<div data-part=\"{kind}\">\n"));
        out.push_str(&part);
        out.push_str("</div>\n");
    }
    Ok(())
}

fn render_parts(zip: &mut Archive, ids: &[String], ctx: &mut Ctx) -> Result<Vec<String>, PluginError> {
    let mut seen = Vec::<String>::new();
    for id in ids {
        let Some(rel) = ctx.rels.get(id) else { continue };
        let part = rel.part.clone();
        let Some(text) = zip.read_string(&part)? else {
            continue;
        };
        let root = xml::parse(&text, &part)?;
        let Some(el) = root.elements().next() else {
            continue;
        };
        let mut html = String::new();
        render_blocks(el, ctx, &mut html, false);
        // Skip empty or duplicate (first page / even page copies) headers.
        let plain = strip_tags(&html);
        if plain.trim().is_empty() || seen.iter().any(|s| strip_tags(s) == plain) {
            continue;
        }
        seen.push(html);
    }
    Ok(seen)
}

/// Writes the footnotes, then the endnotes the body cited (numbered 1, 2, ... and
/// i, ii, ...); a cited notes part that is missing becomes a warning.
pub(crate) fn write_notes(
    zip: &mut Archive,
    main: &str,
    ctx: &mut Ctx,
    out: &mut String,
    warnings: &mut Vec<String>,
) -> Result<(), PluginError> {
    let rels = ctx.rels;
    for (kind, part_name, list) in [
        (
            "footnotes",
            "footnotes.xml",
            std::mem::take(&mut ctx.footnote_refs),
        ),
        ("endnotes", "endnotes.xml", std::mem::take(&mut ctx.endnote_refs)),
    ] {
        if list.is_empty() {
            continue;
        }
        let part = rels
            .iter()
            .find(|r| {
                r.kind.ends_with(&format!("/{}", &kind[..kind.len() - 1]))
                    || r.kind.ends_with(&format!("/{kind}"))
            })
            .map(|r| r.part.clone())
            .unwrap_or_else(|| resolve(main, part_name));
        let Some(text) = zip.read_string(&part)? else {
            warnings.push(format!("the document references {kind} but has no {part}"));
            continue;
        };
        let notes = xml::parse(&text, &part)?;
        let note_tag = &kind[..kind.len() - 1];
        let mut by_id: HashMap<&str, &Element> = HashMap::new();
        if let Some(root) = notes.child(kind) {
            for n in root.children_named(note_tag) {
                if let Some(id) = n.attr("id") {
                    by_id.insert(id, n);
                }
            }
        }
        let title = if kind == "footnotes" {
            "Footnotes"
        } else {
            "Endnotes"
        };
        out.push_str(&format!(
            "<div data-part=\"{kind}\">\n<hr>\n<p><strong>{title}</strong></p>\n"
        ));
        for (i, id) in list.iter().enumerate() {
            let label = if kind == "endnotes" {
                roman(i + 1)
            } else {
                (i + 1).to_string()
            };
            let mut inner = String::new();
            if let Some(n) = by_id.get(id.as_str()) {
                render_blocks(n, ctx, &mut inner, true);
            }
            out.push_str(&format!("<p>[{label}] {}</p>\n", inner.trim()));
        }
        out.push_str("</div>\n");
    }
    Ok(())
}
