//! HTML of the converted document: page headers, the body, footnotes (as
//! `[n] text` after a rule, the way the docx converter writes them), then page
//! footers. Headings, lists and tables come from each story's blocks.

use crate::story::{Block, Story};

/// The stories of a document, in reading order of their kind.
pub struct Stories<'a> {
    pub headers: Vec<&'a Story>,
    pub body: &'a Story,
    /// Footnote number and text, in the order of their markers.
    pub footnotes: Vec<(usize, &'a Story)>,
    pub footers: Vec<&'a Story>,
}

/// The whole document's HTML.
pub fn document(s: &Stories) -> String {
    let mut out = String::new();
    for html in distinct(&s.headers) {
        out.push_str(&format!("<div data-part=\"header\">\n{html}</div>\n"));
    }
    out.push_str("<div data-part=\"body\">\n");
    out.push_str(&blocks(&s.body.blocks));
    out.push_str("</div>\n");
    let notes: Vec<(usize, String)> = s
        .footnotes
        .iter()
        .map(|(n, st)| (*n, blocks(&st.blocks)))
        .collect();
    if !notes.is_empty() {
        out.push_str("<div data-part=\"footnotes\">\n<hr>\n<p><strong>Footnotes</strong></p>\n");
        for (n, html) in notes {
            match html.strip_prefix("<p>") {
                Some(rest) => out.push_str(&format!("<p>[{n}] {rest}")),
                None => out.push_str(&format!("<p>[{n}]</p>\n{html}")),
            }
        }
        out.push_str("</div>\n");
    }
    for html in distinct(&s.footers) {
        out.push_str(&format!("<div data-part=\"footer\">\n{html}</div>\n"));
    }
    out
}

/// The non-empty HTML of each story, without repeats (first-page, left and
/// right variants of a header often hold the same text).
fn distinct(stories: &[&Story]) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for st in stories {
        let html = blocks(&st.blocks);
        if !html.trim().is_empty() && !seen.contains(&html) {
            seen.push(html);
        }
    }
    seen
}

/// The HTML of a story's blocks.
pub fn blocks(blocks: &[Block]) -> String {
    let mut out = String::new();
    let mut open_list: Option<&str> = None;
    for b in blocks {
        let list_tag = match b {
            Block::P {
                list: Some((_, ordered)),
                ..
            } => Some(if *ordered { "ol" } else { "ul" }),
            _ => None,
        };
        if let Some(t) = open_list
            && list_tag != Some(t)
        {
            out.push_str(&format!("</{t}>\n"));
            open_list = None;
        }
        match b {
            Block::P {
                html,
                heading: Some(h),
                ..
            } => {
                // Headings are bold anyway: drop a <strong> wrapping the whole text.
                let inner = html
                    .strip_prefix("<strong>")
                    .and_then(|s| s.strip_suffix("</strong>"))
                    .filter(|s| !s.contains("<strong>"))
                    .unwrap_or(html);
                out.push_str(&format!("<h{h}>{inner}</h{h}>\n"))
            }
            Block::P {
                html, list: Some(_), ..
            } => {
                if open_list.is_none() {
                    let t = list_tag.unwrap_or("ul");
                    out.push_str(&format!("<{t}>\n"));
                    open_list = Some(t);
                }
                out.push_str(&format!("<li>{html}</li>\n"));
            }
            Block::P { html, .. } => out.push_str(&format!("<p>{}</p>\n", html.replace('\n', "<br>"))),
            Block::Table(rows) => table(rows, &mut out),
        }
    }
    if let Some(t) = open_list {
        out.push_str(&format!("</{t}>\n"));
    }
    out
}

fn table(rows: &[Vec<String>], out: &mut String) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    out.push_str("<table>\n");
    for (i, row) in rows.iter().enumerate() {
        out.push_str("<tr>");
        let tag = if i == 0 { "th" } else { "td" };
        for c in 0..cols {
            out.push_str(&format!(
                "<{tag}>{}</{tag}>",
                row.get(c).map(String::as_str).unwrap_or("")
            ));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}
