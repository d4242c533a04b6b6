//! Recovers the first line(s) of page 1 when pdf-inspector's markdown lost them.
//!
//! On documents under three pages pdf-inspector strips an isolated block of up
//! to two lines at the top of a page when it is set smaller than the body text
//! (its running-header rule). A title set a little smaller than the body — a
//! bold capitals "SERVICE AGREEMENT" at 10.5 pt over 11 pt text, a letterhead
//! or memo title — goes with it. Page 1's top lines are read again from the
//! positioned text; those whose words are missing from the page's markdown are
//! put back in front of it (bold lines as a `##` heading, as pdf-inspector
//! writes a bold line of body size).

use pdf_inspector::TextItem;
use std::collections::HashSet;

/// Most top lines put back (pdf-inspector's edge block is at most two).
const MAX_LINES: usize = 2;

/// One text line of the page: its text and whether every run is bold.
#[derive(Debug, PartialEq)]
pub struct Line {
    pub text: String,
    pub bold: bool,
}

/// Page 1's markdown with its lost top lines put back; `None` when nothing
/// was lost or the page's positions cannot be read.
pub fn recover(pdf: &[u8], page1_markdown: &str) -> Option<String> {
    let pages: HashSet<u32> = [1].into();
    let items = pdf_inspector::extractor::extract_text_with_positions_mem_pages(pdf, Some(&pages)).ok()?;
    let lost = lost_top_lines(&top_lines(&items, MAX_LINES), page1_markdown);
    if lost.is_empty() {
        return None;
    }
    let mut out = String::new();
    for line in lost {
        let text = escape(&line.text);
        if line.bold {
            out.push_str(&format!("## {text}\n\n"));
        } else {
            out.push_str(&format!("{text}\n\n"));
        }
    }
    out.push_str(page1_markdown.trim_start());
    Some(out)
}

/// The lines from the top of the page until the first one the markdown has.
pub fn lost_top_lines(lines: &[Line], markdown: &str) -> Vec<Line> {
    let md = normalize(&strip_tags(markdown));
    let mut lost = Vec::new();
    for line in lines {
        let key = normalize(&line.text);
        if md.contains(&key) {
            break;
        }
        // Page numbers and rules are furniture indeed; right-to-left text is
        // reordered in the markdown, so its absence cannot be told this way.
        if key.chars().filter(|c| c.is_alphabetic()).count() < 2 || line.text.chars().any(is_rtl) {
            break;
        }
        lost.push(Line {
            text: line.text.clone(),
            bold: line.bold,
        });
    }
    lost
}

/// The first `max` visible horizontal text lines of page 1, top down.
pub fn top_lines(items: &[TextItem], max: usize) -> Vec<Line> {
    let mut runs: Vec<&TextItem> = items
        .iter()
        .filter(|it| {
            it.page == 1
                && matches!(it.item_type, pdf_inspector::types::ItemType::Text)
                && it.render_mode != Some(3)
                && it.is_horizontal()
                && !it.text.trim().is_empty()
        })
        .collect();
    runs.sort_by(|a, b| b.line_y().total_cmp(&a.line_y()));
    let mut lines: Vec<Vec<&TextItem>> = Vec::new();
    for run in runs {
        let same_line = lines.last().is_some_and(|line: &Vec<&TextItem>| {
            (line[0].line_y() - run.line_y()).abs() <= 0.3 * line[0].font_size.max(run.font_size).max(1.0)
        });
        if same_line {
            lines.last_mut().unwrap().push(run);
        } else if lines.len() == max {
            break;
        } else {
            lines.push(vec![run]);
        }
    }
    lines.into_iter().map(join).collect()
}

/// The text of one line's runs, left to right, with a space at visible gaps.
fn join(mut runs: Vec<&TextItem>) -> Line {
    runs.sort_by(|a, b| a.x.total_cmp(&b.x));
    let mut text = String::new();
    let mut right: Option<f32> = None;
    for r in &runs {
        if let Some(end) = right
            && r.x - end > 0.15 * r.font_size
            && !text.ends_with(' ')
        {
            text.push(' ');
        }
        text.push_str(&r.text);
        right = Some(r.x + r.width);
    }
    Line {
        text: text.split_whitespace().collect::<Vec<_>>().join(" "),
        bold: runs.iter().all(|r| r.is_bold),
    }
}

/// Hebrew, Arabic, Syriac, Thaana, N'Ko... and their presentation forms.
fn is_rtl(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
}

/// Lowercase letters and digits only: markup, spacing and hyphenation differ
/// between the markdown and the raw runs.
fn normalize(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The markdown without inline HTML tags (`<u>`, `<br>`...).
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// Escapes the characters that would turn a plain line into markup.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '*' | '_' | '<' | '[' | ']' | '`' | '#' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str, bold: bool) -> Line {
        Line {
            text: text.into(),
            bold,
        }
    }

    #[test]
    fn only_missing_top_lines_come_back() {
        let lines = [
            line("SERVICE AGREEMENT", true),
            line("This agreement is made", false),
        ];
        let md = "This agreement is made between the parties.";
        assert_eq!(lost_top_lines(&lines, md), vec![line("SERVICE AGREEMENT", true)]);
        // Present in another shape (heading, emphasis, spacing, hyphenation): not lost.
        for md in [
            "# Service Agreement\n\nThis agreement",
            "**SERVICE** <u>AGREE</u>MENT",
            "|SERVICE AGREE-|\nMENT",
        ] {
            assert!(lost_top_lines(&lines, md).is_empty(), "{md}");
        }
        // A lost page number is furniture; right-to-left lines are left alone.
        assert!(lost_top_lines(&[line("- 1 -", false)], "Body").is_empty());
        assert!(lost_top_lines(&[line("תקציר הדוח", false)], "Body").is_empty());
        assert_eq!(lost_top_lines(&[line("会議録", true)], "本文").len(), 1);
    }

    #[test]
    fn markup_characters_are_escaped() {
        assert_eq!(escape("A*B_C [x] #1"), "A\\*B\\_C \\[x\\] \\#1");
    }
}
