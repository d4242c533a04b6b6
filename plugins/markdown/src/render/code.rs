//! Code: `<pre>` as a fenced block (language from `language-x`/`lang-x`
//! classes or `data-lang` on the `<pre>`, its `<code>`, or an enclosing
//! container), and inline `<code>` as a code span whose backtick fence is
//! longer than any backtick run inside.

use super::inline::Inline;
use super::{Renderer, Role, role};
use crate::parse::{AttrName, Element, Kind, NodeId, Tag};

/// The language named by a class list: `language-x`, `lang-x`,
/// `highlight-source-x`, or SyntaxHighlighter's `brush: x` (MDN).
pub fn language_from_class(class: &str) -> Option<&str> {
    let mut tokens = class.split_ascii_whitespace();
    while let Some(token) = tokens.next() {
        let lang = match token.strip_prefix("brush:") {
            Some("") => tokens.next(),
            Some(lang) => Some(lang),
            None => token
                .strip_prefix("language-")
                .or_else(|| token.strip_prefix("lang-"))
                .or_else(|| token.strip_prefix("highlight-source-")),
        };
        if let Some(lang) = lang.and_then(clean_language) {
            return Some(lang);
        }
    }
    None
}

/// A language name usable after a fence (`c++`, `objective-c`, `c#`), or `None`.
fn clean_language(lang: &str) -> Option<&str> {
    let end = lang
        .bytes()
        .position(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'#' | b'_' | b'.')))
        .unwrap_or(lang.len());
    let lang = &lang[..end];
    (!lang.is_empty() && !lang.eq_ignore_ascii_case("none")).then_some(lang)
}

/// The longest run of `c` in `s`.
fn longest_run(s: &str, c: u8) -> usize {
    let (mut best, mut run) = (0, 0);
    for b in s.bytes() {
        run = if b == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

impl<'d, 'a> Renderer<'d, 'a> {
    /// The language of a `<pre>`: its own class/`data-lang`, then its first
    /// `<code>` child's, then an enclosing container's.
    fn code_language(&self, id: NodeId, pre: &'d Element<'a>) -> Option<&'d str> {
        let own = |e: &'d Element<'a>| {
            self.attr(e, AttrName::Class)
                .and_then(language_from_class)
                .or_else(|| self.attr(e, AttrName::DataLang).and_then(clean_language))
        };
        own(pre)
            .or_else(|| {
                self.doc
                    .children(id)
                    .filter_map(|c| self.doc.element(c))
                    .find(|e| e.tag == Tag::Code)
                    .and_then(own)
            })
            .or(self.lang_hint.get())
    }

    /// A fenced code block; empty when the `<pre>` has no text.
    pub(super) fn pre(&self, id: NodeId, e: &'d Element<'a>) -> String {
        let mut text = String::new();
        self.pre_text(id, &mut text);
        let body = text.trim_end();
        // Drop leading blank lines (but keep the first line's indentation).
        let first_line = body.len() - body.trim_start().len();
        let start = body[..first_line].rfind('\n').map_or(0, |i| i + 1);
        let body = &body[start..];
        if body.is_empty() {
            return String::new();
        }
        let fence = "`".repeat(longest_run(body, b'`').max(2) + 1);
        let lang = self.code_language(id, e).unwrap_or("");
        let mut out = String::with_capacity(body.len() + 2 * fence.len() + lang.len() + 2);
        out.push_str(&fence);
        out.push_str(lang);
        out.push('\n');
        out.push_str(body);
        out.push('\n');
        out.push_str(&fence);
        out
    }

    /// The text of preformatted content: whitespace kept, `<br>` and block
    /// edges as newlines, no-break spaces as spaces.
    fn pre_text(&self, id: NodeId, out: &mut String) {
        for child in self.doc.children(id) {
            match &self.doc.node(child).kind {
                Kind::Text(t) => {
                    if t.contains('\u{a0}') {
                        out.push_str(&t.replace('\u{a0}', " "));
                    } else {
                        out.push_str(t);
                    }
                }
                Kind::Element(e) => match e.tag {
                    Tag::Br => out.push('\n'),
                    Tag::Img | Tag::Input => {}
                    tag => match role(self.doc, child, tag) {
                        Role::Drop => {}
                        Role::Inline => self.pre_text(child, out),
                        _ => {
                            if !out.is_empty() && !out.ends_with('\n') {
                                out.push('\n');
                            }
                            self.pre_text(child, out);
                            if !out.is_empty() && !out.ends_with('\n') {
                                out.push('\n');
                            }
                        }
                    },
                },
                Kind::Root => {}
            }
        }
    }

    /// The text of an element for a code span: `<br>` as a space, dropped
    /// elements skipped.
    pub(super) fn plain_text(&self, id: NodeId, out: &mut String) {
        for child in self.doc.children(id) {
            match &self.doc.node(child).kind {
                Kind::Text(t) => out.push_str(t),
                Kind::Element(e) => match e.tag {
                    Tag::Br => out.push(' '),
                    tag if role(self.doc, child, tag) == Role::Drop => {}
                    _ => self.plain_text(child, out),
                },
                Kind::Root => {}
            }
        }
    }

    /// `` `code` ``, with a longer fence when the code holds backticks.
    pub(super) fn code_span(&self, id: NodeId, inl: &mut Inline) {
        let mut raw = String::new();
        self.plain_text(id, &mut raw);
        let is_ws = |c: char| c.is_whitespace();
        if raw.starts_with(is_ws) {
            inl.space();
        }
        let mut code = String::with_capacity(raw.len());
        for word in raw.split(is_ws).filter(|w| !w.is_empty()) {
            if !code.is_empty() {
                code.push(' ');
            }
            code.push_str(word);
        }
        if !code.is_empty() {
            let ticks = longest_run(&code, b'`') + 1;
            let pad = code.starts_with('`') || code.ends_with('`');
            inl.raw_with(|s| {
                s.extend(std::iter::repeat_n('`', ticks));
                if pad {
                    s.push(' ');
                }
                s.push_str(&code);
                if pad {
                    s.push(' ');
                }
                s.extend(std::iter::repeat_n('`', ticks));
            });
        }
        if raw.ends_with(is_ws) {
            inl.space();
        }
    }
}
