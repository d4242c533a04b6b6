//! Markdown post-processing after conversion, as upstream does it: newlines
//! inside link text are escaped, "Skip to content" links dropped, runs of blank
//! lines collapsed and trailing spaces trimmed. Unlike upstream, fenced code
//! blocks and code spans are left alone (an unbalanced `[` in code does not
//! escape every later newline, and blank lines in code are kept).

/// Applies every post-processing step: one pass that escapes newlines in
/// link text and tidies whitespace, then (rarely needed, the renderer already
/// drops them) skip-link removal.
pub fn postprocess(md: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: SIMD128 is part of the wasm features wasmtime enables by
        // default; a runtime without it refuses the component when compiling
        // it, so this never runs there.
        unsafe { postprocess_simd128(md) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    postprocess_all(md)
}

/// [`postprocess_all`] compiled with SIMD128, so the line and bracket
/// scans (`crate::scan`, SIMD128 functions) inline into its loops instead
/// of being a call per line (as `crate::parse::tree` does for the tokenizer).
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
unsafe fn postprocess_simd128(md: &str) -> String {
    postprocess_all(md)
}

#[inline(always)]
fn postprocess_all(md: &str) -> String {
    let (out, maybe_skip_link) = tidy(md, true);
    if maybe_skip_link && has_skip_link(&out) {
        tidy_whitespace(&remove_skip_links(&out))
    } else {
        out
    }
}

/// The fence (a run of at least three backticks or tildes, after any
/// indentation) opening a fenced code block on this line, if any. As in
/// CommonMark, a backtick fence's info string cannot hold a backtick (so a
/// code span at a line start is not a fence).
#[inline(always)]
fn fence_of(line: &str) -> Option<&str> {
    let t = line.trim_start_matches(' ');
    let c = *t.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = t.bytes().take_while(|&b| b == c).count();
    let info_ok = c == b'~' || !t[n..].contains('`');
    (n >= 3 && info_ok).then(|| &t[..n])
}

/// Whether `line` closes a block opened by `fence`.
#[inline(always)]
fn closes(line: &str, fence: &str) -> bool {
    let t = line.trim();
    let c = fence.as_bytes()[0];
    t.len() >= fence.len() && t.bytes().all(|b| b == c)
}

/// Splits `md` into lines, marking those inside fenced code blocks (fence lines included).
#[inline(always)]
fn lines_with_code(md: &str) -> impl Iterator<Item = (&str, bool)> {
    let mut open: Option<&str> = None;
    let mut rest = Some(md);
    let lines = std::iter::from_fn(move || {
        let text = rest?;
        match crate::scan::find(text.as_bytes(), b'\n') {
            Some(i) => {
                rest = Some(&text[i + 1..]);
                Some(&text[..i])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    });
    lines.map(move |line| match open {
        Some(fence) => {
            if closes(line, fence) {
                open = None;
            }
            (line, true)
        }
        None => {
            open = fence_of(line);
            (line, open.is_some())
        }
    })
}

/// Inside `[...]` (bracket depth > 0) every newline becomes a backslash-newline,
/// so a multi-line link label stays one link. Code is skipped; a blank line
/// ends any open bracket (a label cannot span paragraphs).
pub fn escape_newlines_in_link_text(md: &str) -> String {
    let mut out = String::with_capacity(md.len() + 16);
    let mut depth = 0usize;
    for (n, (line, code)) in lines_with_code(md).enumerate() {
        if n > 0 {
            if depth > 0 && !code && !line.trim().is_empty() && !out.ends_with('\\') {
                out.push('\\');
            }
            out.push('\n');
        }
        depth = if code || line.trim().is_empty() {
            0
        } else {
            bracket_depth(line, depth, &mut false)
        };
        out.push_str(line);
    }
    out
}

/// The bracket depth after `line`, starting from `depth` (escaped brackets
/// and code spans on the line do not count). Sets `skip_link` where the line
/// may hold a skip link: a `]` before `(#`, or a code span holding a `]`.
#[inline(always)]
fn bracket_depth(line: &str, mut depth: usize, skip_link: &mut bool) -> usize {
    let b = line.as_bytes();
    let mut i = 0;
    while let Some(p) = crate::scan::find3(&b[i..], b'[', b']', b'`').map(|p| i + p) {
        if b[p] == b']' && b[p + 1..].starts_with(b"(#") {
            *skip_link = true;
        }
        // An odd run of backslashes before it escapes the character.
        if b[..p].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 1 {
            i = p + 1;
            continue;
        }
        match b[p] {
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            _ => {
                // Skip a code span closed on this line.
                let run = b[p..].iter().take_while(|&&c| c == b'`').count();
                let mut j = p + run;
                let mut end = p + run;
                while let Some(k) = crate::scan::find(&b[j..], b'`').map(|k| j + k) {
                    let len = b[k..].iter().take_while(|&&c| c == b'`').count();
                    if len == run {
                        end = k + len;
                        break;
                    }
                    j = k + len;
                }
                *skip_link |= crate::scan::find(&b[p..end], b']').is_some();
                i = end;
                continue;
            }
        }
        i = p + 1;
    }
    depth
}

const SKIP_LABEL: &[u8] = b"[skip to content";

/// Whether `md` has a `[Skip to Content](#` link (any case).
#[inline(always)]
fn has_skip_link(md: &str) -> bool {
    let b = md.as_bytes();
    let mut from = 0;
    while let Some(p) = crate::scan::find2(&b[from..], *b"](").map(|p| from + p) {
        if b.get(p + 2) == Some(&b'#')
            && p >= SKIP_LABEL.len()
            && b[p - SKIP_LABEL.len()..p].eq_ignore_ascii_case(SKIP_LABEL)
        {
            return true;
        }
        from = p + 2;
    }
    false
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

/// Trims trailing whitespace (keeping markdown's two-space hard breaks),
/// collapses three or more newlines into two outside fenced code, and trims
/// the whole text.
pub fn tidy_whitespace(md: &str) -> String {
    tidy(md, false).0
}

/// [`tidy_whitespace`], also escaping newlines in link text when `escape`;
/// then with whether the result may hold a skip link (see
/// [`has_skip_link`]: such a link lies within one line, at a `]`).
///
/// Most lines come out as they are: a run of them is copied in one piece
/// when a line that changes (or the end) is reached. Most lines hold no
/// bracket or backtick: the next one in `md` is found by one scan ahead
/// ([`Marks`]), so such a line is not scanned again for its bracket
/// depth, which it leaves as it was.
#[inline(always)]
fn tidy(md: &str, escape: bool) -> (String, bool) {
    let mut out = String::with_capacity(md.len() + 16);
    // `out` followed by `md[copied..]` up to the current line is the output so far.
    let mut copied = 0;
    let mut blank_run = 0;
    let mut depth = 0usize;
    let mut marks = Marks {
        md: md.as_bytes(),
        next: 0,
    };
    let mut maybe_skip_link = false;
    for (line, code) in lines_with_code(md) {
        let start = line.as_ptr() as usize - md.as_ptr() as usize;
        let end = start + line.len();
        let trimmed = trim_end(line);
        if trimmed.is_empty() {
            blank_run += 1;
            depth = 0;
            if blank_run > 1 && !code {
                out.push_str(&md[copied..start]);
                copied = (end + 1).min(md.len());
                continue;
            }
        } else {
            blank_run = 0;
        }
        if escape && depth > 0 && !code && !trimmed.is_empty() {
            out.push_str(&md[copied..start]);
            copied = start;
            out.pop();
            if !out.ends_with('\\') {
                out.push('\\');
            }
            out.push('\n');
        }
        let hard_break = !code && !trimmed.is_empty() && line.ends_with("  ");
        let as_is = trimmed.len() == line.len() || hard_break && trimmed.len() + 2 == line.len();
        if !as_is || end == md.len() {
            out.push_str(&md[copied..start]);
            out.push_str(trimmed);
            if hard_break {
                out.push_str("  ");
            }
            out.push('\n');
            copied = (end + 1).min(md.len());
        }
        if escape && !trimmed.is_empty() && marks.any_in(start, start + trimmed.len()) {
            if code {
                maybe_skip_link |= has_skip_link(trimmed);
            } else {
                depth = bracket_depth(trimmed, depth, &mut maybe_skip_link);
            }
        }
        if code {
            depth = 0;
        }
    }
    out.push_str(&md[copied..]);
    out.truncate(out.trim_end().len());
    let lead = out.len() - out.trim_start().len();
    out.drain(..lead);
    (out, maybe_skip_link)
}

/// `line` without trailing whitespace (as [`str::trim_end`]), without a
/// call when it ends in ASCII other than whitespace (most lines).
#[inline(always)]
fn trim_end(line: &str) -> &str {
    match line.as_bytes().last() {
        Some(&c) if c < 0x80 && !matches!(c, b'\t'..=b'\r' | b' ') => line,
        _ => line.trim_end(),
    }
}

/// The `[`, `]` and backticks of a text, found one scan ahead of the lines
/// that ask for them.
struct Marks<'a> {
    md: &'a [u8],
    /// The first such byte at or after the last position asked about
    /// (`md.len()` if none).
    next: usize,
}

impl Marks<'_> {
    /// Whether `md[from..end]` holds a `[`, `]` or backtick; `from` never
    /// goes back between calls.
    #[inline(always)]
    fn any_in(&mut self, from: usize, end: usize) -> bool {
        if self.next < from {
            self.next =
                crate::scan::find3(&self.md[from..], b'[', b']', b'`').map_or(self.md.len(), |p| from + p);
        }
        self.next < end
    }
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
    fn code_does_not_open_link_text() {
        let md = "```\nx = a[0\n```\n\nnext\nline `[` and\nmore";
        assert_eq!(escape_newlines_in_link_text(md), md);
    }

    #[test]
    fn postprocess_escapes_removes_and_tidies() {
        assert_eq!(
            postprocess("[a\nb](x)\n\n\n\n[Skip to Content](#main)\n# Hi\n"),
            "[a\\\nb](x)\n\n# Hi"
        );
        assert_eq!(
            postprocess("  [x `]` y\nz](u)\n\nnext\nline"),
            "[x `]` y\\\nz](u)\n\nnext\nline"
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

    #[test]
    fn code_span_at_line_start_is_not_a_fence() {
        assert_eq!(
            tidy_whitespace("``` ``x`` ``` a\n\n\n\nb"),
            "``` ``x`` ``` a\n\nb"
        );
    }

    #[test]
    fn blank_lines_in_code_are_kept() {
        assert_eq!(
            tidy_whitespace("```\na\n\n\n\nb\n```\n\n\n\nc"),
            "```\na\n\n\n\nb\n```\n\nc"
        );
    }

    #[test]
    fn non_ascii_whitespace_before_hard_break() {
        // Used to slice inside the no-break space and panic.
        assert_eq!(tidy_whitespace("a\u{a0}  \nb"), "a  \nb");
    }
}

#[cfg(test)]
#[path = "postprocess_tests.rs"]
mod against_reference;
