//! Links and images: `[text](url "title")` and `![alt](src "title")`. Links
//! without an `href` (or `javascript:`) keep just their text; links with no
//! visible content are dropped; an image inside a link makes an image link.

use super::Renderer;
use super::inline::{Break, Inline};
use crate::parse::{AttrName, Element, NodeId};

/// Appends a link destination: spaces and angle brackets percent-encoded,
/// parentheses too unless balanced, line breaks removed.
pub fn push_url(out: &mut String, url: &str) {
    if crate::scan::url_is_plain(url.as_bytes()) {
        // Nothing to encode and no parenthesis (most URLs): found with a wide scan.
        out.push_str(url);
        return;
    }
    let mut depth = 0i32;
    let mut balanced = true;
    let mut clean = true;
    for c in url.bytes() {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                balanced &= depth >= 0;
            }
            b' ' | b'\t' | b'\n' | b'\r' | b'<' | b'>' | b'\\' => clean = false,
            _ => {}
        }
    }
    balanced &= depth == 0;
    if clean && balanced {
        out.push_str(url);
        return;
    }
    for c in url.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '\t' | '\n' | '\r' => {}
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '\\' => out.push_str("%5C"),
            '(' if !balanced => out.push_str("%28"),
            ')' if !balanced => out.push_str("%29"),
            c => out.push(c),
        }
    }
}

/// Appends ` "title"` (whitespace collapsed, quotes escaped) when `title` has text.
fn push_title(out: &mut String, title: Option<&str>) {
    let Some(title) = title else { return };
    let mut words = title.split_whitespace().peekable();
    if words.peek().is_none() {
        return;
    }
    out.push_str(" \"");
    let mut first = true;
    for word in words {
        if !first {
            out.push(' ');
        }
        first = false;
        for c in word.chars() {
            if matches!(c, '"' | '\\') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
}

/// Appends alt text: whitespace collapsed, brackets and backslashes escaped.
fn push_alt(out: &mut String, alt: &str) {
    let mut first = true;
    for word in alt.split_whitespace() {
        if !first {
            out.push(' ');
        }
        first = false;
        for c in word.chars() {
            if matches!(c, '[' | ']' | '\\') {
                out.push('\\');
            }
            out.push(c);
        }
    }
}

/// An `href` worth linking to.
fn usable_href(href: Option<&str>) -> Option<&str> {
    let href = href?.trim();
    // Bytes, not `&str`: byte 11 may fall inside a multi-byte character.
    let scheme_js = href
        .as_bytes()
        .get(..11)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"javascript:"));
    (!href.is_empty() && !scheme_js).then_some(href)
}

impl<'d, 'a> Renderer<'d, 'a> {
    /// A "Skip to content" / "Jump to navigation" link (page chrome, dropped):
    /// "skip to" or "jump to" and at most two more words.
    fn is_skip_link(&self, id: NodeId) -> bool {
        let mut text = String::new();
        self.plain_text(id, &mut text);
        let words: Vec<String> = text
            .split_whitespace()
            .take(6)
            .map(str::to_ascii_lowercase)
            .collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        matches!(words.as_slice(), ["skip" | "jump", "to", ..] if words.len() <= 4)
    }

    /// `![alt](src "title")`; nothing without a `src`.
    pub(super) fn image(&self, e: &'d Element<'a>, inl: &mut Inline) {
        let Some(src) = self
            .attr(e, AttrName::Src)
            .map(str::trim)
            .filter(|s| !s.is_empty())
        else {
            return;
        };
        let alt = self.attr(e, AttrName::Alt).unwrap_or("");
        let title = self.attr(e, AttrName::Title);
        inl.raw_with(|s| {
            s.push_str("![");
            push_alt(s, alt);
            s.push_str("](");
            push_url(s, src);
            push_title(s, title);
            s.push(')');
        });
    }

    /// `[text](href "title")`, or just the text when there is no usable href.
    pub(super) fn link(&self, id: NodeId, e: &'d Element<'a>, inl: &mut Inline) {
        self.link_around(id, e, id, inl);
    }

    /// The link `id` (element `e`) with the children of `content` as its text.
    pub(super) fn link_around(&self, id: NodeId, e: &'d Element<'a>, content: NodeId, inl: &mut Inline) {
        let Some(href) = usable_href(self.attr(e, AttrName::Href)) else {
            return self.inline_children(content, inl);
        };
        if href.contains('#') && self.is_skip_link(id) {
            return;
        }
        let title = self.attr(e, AttrName::Title);
        let saved = inl.brk;
        if saved == Break::Hard {
            inl.brk = Break::Label;
        }
        inl.label += 1;
        let m = inl.open();
        let outer_start = std::mem::replace(&mut inl.label_start, inl.s.len());
        self.inline_children(content, inl);
        inl.label_start = outer_start;
        inl.label -= 1;
        inl.brk = saved;
        inl.close(m, "[", false, |s| {
            s.push_str("](");
            push_url(s, href);
            push_title(s, title);
            s.push(')');
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{push_url, usable_href};

    /// Fuzz finding (fuzz target `markdown`): an href whose 11th byte falls
    /// inside a multi-byte character panicked on a `&str` slice.
    #[test]
    fn href_with_multibyte_char_at_byte_11() {
        assert_eq!(
            usable_href(Some("doc.ht\u{fffd}\u{fffd}x")),
            Some("doc.ht\u{fffd}\u{fffd}x")
        );
        assert_eq!(usable_href(Some("JavaScript:\u{e9}")), None);
        let md = crate::html_to_markdown("<p><a href=\"doc.ht\u{fffd}\u{fffd}tive\">b</a></p>");
        assert!(md.contains("[b]("), "{md}");
    }

    fn url(u: &str) -> String {
        let mut s = String::new();
        push_url(&mut s, u);
        s
    }

    #[test]
    fn destinations() {
        assert_eq!(url("https://a.b/c?d=e#f"), "https://a.b/c?d=e#f");
        assert_eq!(
            url("https://en.wikipedia.org/wiki/Rust_(language)"),
            "https://en.wikipedia.org/wiki/Rust_(language)"
        );
        assert_eq!(url("https://a.b/x)y"), "https://a.b/x%29y");
        assert_eq!(url("https://a.b/my file.pdf"), "https://a.b/my%20file.pdf");
        assert_eq!(url("https://a.b/<x>"), "https://a.b/%3Cx%3E");
    }
}
