//! Drawings: frames, groups and shapes that carry text (text boxes, tables,
//! images with their alt text), inside paragraphs and on slides.

use crate::Ctx;
use crate::tables::render_table;
use crate::text::render_blocks;
use distill_sdk::documents::html::esc;
use distill_sdk::documents::xml::Element;

/// Elements of a drawing that can carry text: frames, groups, and shapes
/// (LibreOffice and PowerPoint imports write text boxes as `draw:custom-shape`).
pub(crate) fn is_drawing(name: &str) -> bool {
    matches!(
        name,
        "frame"
            | "g"
            | "custom-shape"
            | "rect"
            | "ellipse"
            | "circle"
            | "polygon"
            | "regular-polygon"
            | "path"
            | "caption"
    )
}

/// Frames and shapes anchored in a paragraph (text boxes, images) rendered after it.
pub(crate) fn paragraph_frames(p: &Element, ctx: &mut Ctx, depth: usize) -> String {
    let mut frames = Vec::new();
    p.find_all("frame", &mut frames);
    p.find_all("custom-shape", &mut frames);
    let mut s = String::new();
    for f in frames {
        render_frame(f, ctx, &mut s, depth + 1);
    }
    s
}

pub(crate) fn render_frame(f: &Element, ctx: &mut Ctx, out: &mut String, depth: usize) {
    if depth > 64 {
        return;
    }
    if f.name == "g" {
        for c in f.elements().filter(|c| is_drawing(&c.name)) {
            render_frame(c, ctx, out, depth + 1);
        }
        return;
    }
    if f.name != "frame" {
        // A shape (text box drawn as a rectangle, callout, ...) holds its paragraphs directly.
        render_blocks(f, ctx, out, depth + 1);
        return;
    }
    for c in f.elements() {
        match c.name.as_str() {
            "text-box" => render_blocks(c, ctx, out, depth + 1),
            "table" => render_table(c, ctx, out, depth + 1),
            // A frame with a text box shows its text; the image alt only when there is none.
            "image" if f.child("text-box").is_none() => {
                let alt = f
                    .child("desc")
                    .or(f.child("title"))
                    .map(|d| d.text())
                    .unwrap_or_default();
                if !alt.trim().is_empty() {
                    out.push_str(&format!("<p><img alt=\"{}\"></p>\n", esc(alt.trim())));
                }
            }
            _ => {}
        }
    }
}
