//! Markdown post-processing after conversion, as upstream does it: newlines
//! inside link text are escaped, "Skip to content" links dropped, runs of blank
//! lines collapsed and trailing spaces trimmed.

/// Applies every post-processing step.
pub fn postprocess(md: &str) -> String {
    let md = escape_newlines_in_link_text(md);
    let md = remove_skip_links(&md);
    tidy_whitespace(&md)
}

/// Inside `[...]` (bracket depth > 0) every newline becomes a backslash-newline,
/// so a multi-line link label stays one link.
pub fn escape_newlines_in_link_text(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut depth = 0usize;
    let mut prev_backslash = false;
    for ch in md.chars() {
        match ch {
            '[' if !prev_backslash => depth += 1,
            ']' if !prev_backslash => depth = depth.saturating_sub(1),
            '\n' if depth > 0 => {
                if !out.ends_with('\\') {
                    out.push('\\');
                }
            }
            _ => {}
        }
        prev_backslash = ch == '\\' && !prev_backslash;
        out.push(ch);
    }
    out
}

/// Removes `[Skip to content](#...)` links (label case-insensitive).
pub fn remove_skip_links(md: &str) -> String {
    const LABEL: &str = "[skip to content](#";
    let lower = md.to_ascii_lowercase();
    if !lower.contains(LABEL) {
        return md.to_string();
    }
    let mut out = String::with_capacity(md.len());
    let mut i = 0;
    while let Some(pos) = lower[i..].find(LABEL) {
        let start = i + pos;
        let after = start + LABEL.len();
        match md[after..].find(')') {
            Some(end) => {
                out.push_str(&md[i..start]);
                i = after + end + 1;
            }
            None => break,
        }
    }
    out.push_str(&md[i..]);
    out
}

/// Trims trailing spaces (keeping markdown's two-space hard breaks), collapses
/// three or more newlines into two, and trims the whole text.
pub fn tidy_whitespace(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut blank_run = 0;
    for line in md.split('\n') {
        let trimmed = line.trim_end();
        let line = if line.ends_with("  ") && !trimmed.is_empty() {
            &line[..trimmed.len() + 2]
        } else {
            trimmed
        };
        if line.is_empty() {
            blank_run += 1;
            if blank_run > 1 {
                continue;
            }
        } else {
            blank_run = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newline_in_link_text_is_escaped() {
        assert_eq!(
            escape_newlines_in_link_text("[a\nb](http://x)\nnext"),
            "[a\\\nb](http://x)\nnext"
        );
    }

    #[test]
    fn skip_link_removed() {
        assert_eq!(remove_skip_links("[Skip to Content](#main)\n# Hi"), "\n# Hi");
    }

    #[test]
    fn blank_lines_collapse() {
        assert_eq!(tidy_whitespace("a  \n\n\n\nb   \n"), "a  \n\nb");
    }
}
