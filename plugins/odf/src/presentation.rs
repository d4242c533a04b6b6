//! ODP: one `<section>` per `draw:page`, headed `<h2>Slide N: title</h2>`,
//! the other frames in document order (page numbers, dates, headers and
//! footers left out), speaker notes under `<h3>Notes</h3>`.

use crate::Ctx;
use crate::drawing::{is_drawing, render_frame};
use crate::text::render_notes;
use distill_sdk::documents::html;
use distill_sdk::documents::xml::Element;

/// Writes the slides of `office:presentation`; answers the number of slides
/// and the first slide title.
pub(crate) fn render_presentation(
    pres: &Element,
    ctx: &mut Ctx,
    out: &mut String,
) -> (usize, Option<String>) {
    let mut first_title = None;
    let pages: Vec<&Element> = pres.children_named("page").collect();
    for (i, page) in pages.iter().enumerate() {
        let n = i + 1;
        let frames: Vec<&Element> = page.elements().filter(|e| is_drawing(&e.name)).collect();
        let is_title = |f: &Element| matches!(f.attr("presentation:class"), Some("title"));
        let title = frames
            .iter()
            .find(|f| is_title(f))
            .map(|f| f.text().trim().to_string())
            .filter(|t| !t.is_empty());
        if first_title.is_none() {
            first_title = title.clone();
        }
        html::open_slide(out, n, title.as_deref());
        for f in frames.iter().filter(|f| !is_title(f)) {
            if matches!(
                f.attr("presentation:class"),
                Some("page-number" | "date-time" | "footer" | "header")
            ) {
                continue;
            }
            render_frame(f, ctx, out, 1);
        }
        if let Some(notes) = page.child("notes") {
            let mut nb = String::new();
            for f in notes
                .elements()
                .filter(|f| f.attr("presentation:class") == Some("notes"))
            {
                render_frame(f, ctx, &mut nb, 1);
            }
            if !nb.trim().is_empty() {
                out.push_str("<h3>Notes</h3>\n");
                out.push_str(&nb);
            }
        }
        render_notes(ctx, out);
        out.push_str("</section>\n");
    }
    (pages.len(), first_title)
}
