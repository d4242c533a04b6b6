//! Lists: `text:list` items with nested lists, ordered or bulleted per level by
//! their list style, sibling lists of one kind merged.

use crate::Ctx;
use crate::inline::render_inline;
use crate::tables::render_table;
use distill_sdk::documents::xml::Element;

/// Whether level 1 of list style `style` is numbered.
pub(crate) fn list_kind(ctx: &Ctx, style: Option<&str>) -> bool {
    style
        .and_then(|s| ctx.list_styles.get(s))
        .and_then(|l| l.get(&1))
        .copied()
        .unwrap_or(false)
}

pub(crate) fn list_items(list: &Element) -> impl Iterator<Item = &Element> {
    list.elements()
        .filter(|e| e.name == "list-item" || e.name == "list-header")
}

fn has_text(item: &Element) -> bool {
    item.elements()
        .any(|c| (c.name == "p" || c.name == "h") && !c.text().trim().is_empty())
}

/// Renders one list made of `items` (consecutive sibling lists are merged: LibreOffice
/// writes one `text:list` per paragraph in presentations).
pub(crate) fn render_list(
    items: &[&Element],
    ctx: &mut Ctx,
    out: &mut String,
    style: Option<String>,
    level: u32,
    depth: usize,
) {
    if depth > 64 || items.is_empty() {
        return;
    }
    let ordered = style
        .as_deref()
        .and_then(|s| ctx.list_styles.get(s))
        .and_then(|l| l.get(&level.min(10)))
        .copied()
        .unwrap_or(false);
    let tag = if ordered { "ol" } else { "ul" };
    out.push_str(&format!("<{tag}>\n"));
    let mut i = 0;
    while i < items.len() {
        let item = items[i];
        out.push_str("<li>");
        let mut first = true;
        let mut nested: Vec<&Element> = Vec::new();
        let mut nested_style = None;
        for c in item.elements() {
            match c.name.as_str() {
                "p" | "h" => {
                    let content = render_inline(c, ctx, depth);
                    if !content.trim().is_empty() {
                        if !first {
                            out.push_str("<br>");
                        }
                        out.push_str(content.trim());
                        first = false;
                    }
                }
                "list" => {
                    nested_style = nested_style.or(c.attr("text:style-name").map(str::to_string));
                    nested.extend(list_items(c));
                }
                "table" => render_table(c, ctx, out, depth + 1),
                _ => {}
            }
        }
        // Following items that only hold a deeper list belong to this item.
        let mut j = i + 1;
        while j < items.len() && !has_text(items[j]) {
            for c in items[j].children_named("list") {
                nested_style = nested_style.or(c.attr("text:style-name").map(str::to_string));
                nested.extend(list_items(c));
            }
            j += 1;
        }
        if !nested.is_empty() {
            render_list(
                &nested,
                ctx,
                out,
                nested_style.or(style.clone()),
                level + 1,
                depth + 1,
            );
        }
        out.push_str("</li>\n");
        i = j;
    }
    out.push_str(&format!("</{tag}>\n"));
}
