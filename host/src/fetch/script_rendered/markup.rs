//! The markup reader of the script-rendered check: splits a body, as bytes, into text, tags
//! and skipped runs, and reads attributes and visible text. No UTF-8 validation of the
//! body: every boundary it cuts at is an ASCII byte, so a piece of an invalid body reads
//! as the same piece of its lossy decoding; pieces with non-ASCII bytes whose reading
//! depends on characters (Unicode whitespace, counts) are decoded lossily on their own.

use memchr::memmem;
use std::borrow::Cow;
use std::sync::LazyLock;

use super::finders;
use super::visible::visible_chars;

/// Elements whose content is not markup.
pub(crate) const RAW: &[&str] = &[
    "script", "style", "noscript", "template", "textarea", "title", "xmp",
];

/// A piece of markup.
pub(crate) enum Token<'a> {
    Text(&'a [u8]),
    /// A start tag: its name as written, its attributes' source.
    Start(&'a [u8], &'a [u8]),
    End(&'a [u8]),
    /// A comment, doctype or processing instruction.
    Other,
}

/// Splits markup into tokens; `pos` moves past each.
pub(crate) struct Tokens<'a> {
    src: &'a [u8],
    pos: usize,
}

impl<'a> Tokens<'a> {
    pub(crate) fn new(src: &'a [u8]) -> Tokens<'a> {
        Tokens { src, pos: 0 }
    }

    #[inline(always)]
    pub(crate) fn next_token(&mut self) -> Option<Token<'a>> {
        let rest = &self.src[self.pos..];
        let &first = rest.first()?;
        if first != b'<' {
            let len = finders::lt(rest).unwrap_or(rest.len());
            self.pos += len;
            return Some(Token::Text(&rest[..len]));
        }
        if rest.starts_with(b"<!--") {
            self.pos += COMMENT_END.find(&rest[4..]).map_or(rest.len(), |i| i + 7);
            return Some(Token::Other);
        }
        let is_end = rest.get(1) == Some(&b'/');
        let name_start = if is_end { 2 } else { 1 };
        if !rest.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
            if matches!(rest.get(1), Some(b'!' | b'?' | b'/')) {
                self.pos += finders::gt(rest).map_or(rest.len(), |i| i + 1);
                return Some(Token::Other);
            }
            // A lone '<' is text.
            self.pos += 1;
            return Some(Token::Text(&rest[..1]));
        }
        let close = tag_close(rest);
        self.pos += close.map_or(rest.len(), |i| i + 1);
        let inner = &rest[name_start..close.unwrap_or(rest.len())];
        let name_len = inner
            .iter()
            .position(|&c| c.is_ascii_whitespace() || c == b'/' || c == b'>')
            .unwrap_or(inner.len());
        let name = &inner[..name_len];
        Some(if is_end {
            Token::End(name)
        } else {
            Token::Start(name, &inner[name_len..])
        })
    }

    /// The raw content up to `</name` (ASCII case ignored), and moves past its end tag.
    pub(crate) fn raw_until_end(&mut self, name: &str) -> &'a [u8] {
        let rest = &self.src[self.pos..];
        let name = name.as_bytes();
        let end = finders::all(rest, finders::lt).find(|&at| {
            rest.get(at + 1) == Some(&b'/')
                && rest
                    .get(at + 2..at + 2 + name.len())
                    .is_some_and(|n| n.eq_ignore_ascii_case(name))
        });
        match end {
            Some(at) => {
                let after = &rest[at..];
                self.pos += at + finders::gt(after).map_or(after.len(), |i| i + 1);
                &rest[..at]
            }
            None => {
                self.pos = self.src.len();
                rest
            }
        }
    }
}

/// The end of a comment, searched with one finder built once.
static COMMENT_END: LazyLock<memmem::Finder<'static>> = LazyLock::new(|| memmem::Finder::new(b"-->"));

/// Where the `>` closing the tag that starts `s` is. A quote opens a value
/// only right after `=` (whitespace between allowed), as in HTML (a stray
/// quote elsewhere is text). Jumps from one `>` or quote to the next.
#[inline(always)]
fn tag_close(b: &[u8]) -> Option<usize> {
    let mut i = 1;
    loop {
        let at = i + finders::tag_stop(b.get(i..)?)?;
        let q = b[at];
        if q == b'>' {
            return Some(at);
        }
        // The last non-space byte before the quote (never before the tag's
        // first byte, `<`): a value's own closing quote is not `=`. Mostly the
        // byte right before it.
        let opens = match b[at - 1] {
            b'=' => true,
            c if !c.is_ascii_whitespace() => false,
            _ => b[1..at].iter().rev().find(|c| !c.is_ascii_whitespace()) == Some(&b'='),
        };
        i = if opens {
            let after = at + 1 + finders::quote(q, &b[at + 1..])? + 1;
            // Most tags end right after their last value's quote: no search for it.
            if b.get(after) == Some(&b'>') {
                return Some(after);
            }
            after
        } else {
            at + 1
        };
    }
}

/// Whether an ASCII byte is whitespace as `char::is_whitespace` has it.
fn ascii_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

/// `s` decoded (invalid sequences replaced), borrowed when valid.
pub(crate) fn lossy(s: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(s)
}

/// The value of attribute `name` (lowercase) in a start tag's attribute source, read as
/// HTML's tokenizer reads attributes ([`Attributes`]): its name in any case, the first of
/// a repeated name, `""` for a name without `=`; never a piece of another's value.
pub(crate) fn attribute<'a>(attrs: &'a [u8], name: &str) -> Option<&'a [u8]> {
    let name = name.as_bytes();
    Attributes::new(attrs).find_map(|(n, value)| n.eq_ignore_ascii_case(name).then_some(value))
}

/// The attributes of a start tag's attribute source, name and value, as HTML's tokenizer
/// splits them: `/` and whitespace (HTML's: tab, line feed, form feed, carriage return,
/// space) between them; a name runs to whitespace, `/`, `=` or `>` (a leading `=` is part
/// of it); `=` (whitespace around it allowed) and a value, quoted (to the same quote) or
/// up to whitespace or `>`; a `>` outside a value ends the tag. Bytes: every boundary is
/// ASCII, so the pieces are those of the source's lossy decoding.
pub(crate) struct Attributes<'a> {
    s: &'a [u8],
    pos: usize,
}

impl<'a> Attributes<'a> {
    pub(crate) fn new(s: &'a [u8]) -> Attributes<'a> {
        Attributes { s, pos: 0 }
    }

    /// Moves past whitespace; the byte there, if any.
    fn skip_space(&mut self) -> Option<u8> {
        while let Some(&b) = self.s.get(self.pos) {
            if !b.is_ascii_whitespace() {
                return Some(b);
            }
            self.pos += 1;
        }
        None
    }

    /// Moves past bytes not in `stop` (nor whitespace); what it passed.
    fn run_until(&mut self, stop: impl Fn(u8) -> bool) -> &'a [u8] {
        let start = self.pos;
        while let Some(&b) = self.s.get(self.pos) {
            if b.is_ascii_whitespace() || stop(b) {
                break;
            }
            self.pos += 1;
        }
        &self.s[start..self.pos]
    }
}

impl<'a> Iterator for Attributes<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        while self.skip_space()? == b'/' {
            self.pos += 1;
        }
        if self.s[self.pos] == b'>' {
            return None;
        }
        let start = self.pos;
        self.pos += 1;
        self.run_until(|b| matches!(b, b'/' | b'=' | b'>'));
        let name = &self.s[start..self.pos];
        if self.skip_space() != Some(b'=') {
            return Some((name, &[]));
        }
        self.pos += 1;
        let value = match self.skip_space() {
            Some(q @ (b'"' | b'\'')) => {
                let body = &self.s[self.pos + 1..];
                let len = finders::quote(q, body).unwrap_or(body.len());
                self.pos = (self.pos + 2 + len).min(self.s.len());
                &body[..len]
            }
            _ => self.run_until(|b| b == b'>'),
        };
        Some((name, value))
    }
}

/// `s` without surrounding whitespace (as `str::trim`), when it is ASCII: a borrowed
/// slice; otherwise its lossy decoding, trimmed.
pub(crate) fn trimmed(s: &[u8]) -> Cow<'_, [u8]> {
    if s.is_ascii() {
        let start = s.iter().position(|&b| !ascii_space(b)).unwrap_or(s.len());
        let end = s.iter().rposition(|&b| !ascii_space(b)).map_or(start, |i| i + 1);
        Cow::Borrowed(&s[start..end])
    } else {
        Cow::Owned(lossy(s).trim().as_bytes().to_vec())
    }
}

/// Whether an attribute source ends with `/` once trailing whitespace (Unicode's) is off.
fn self_closing(attrs: &[u8]) -> bool {
    if attrs.is_ascii() {
        attrs.iter().rev().find(|&&b| !ascii_space(b)) == Some(&b'/')
    } else {
        lossy(attrs).trim_end().ends_with('/')
    }
}

/// Whether two tag names are the same once ASCII-lowercased (and decoded, when not ASCII).
pub(crate) fn same_name(a: &[u8], b: &[u8]) -> bool {
    a.eq_ignore_ascii_case(b)
        || (!(a.is_ascii() && b.is_ascii()) && lossy(a).to_ascii_lowercase() == lossy(b).to_ascii_lowercase())
}

/// The `RAW` name `name` is, ASCII case ignored.
pub(crate) fn raw_name(name: &[u8]) -> Option<&'static str> {
    RAW.iter()
        .copied()
        .find(|r| name.eq_ignore_ascii_case(r.as_bytes()))
}

/// Visible characters of markup (raw elements skipped), e.g. a `<noscript>`'s text.
pub(crate) fn text_of(markup: &[u8]) -> String {
    let mut tokens = Tokens::new(markup);
    let mut out = String::new();
    while let Some(token) = tokens.next_token() {
        match token {
            Token::Text(t) => {
                out.push_str(&lossy(t));
                out.push(' ');
            }
            Token::Start(name, _) => {
                if let Some(raw) = raw_name(name) {
                    tokens.raw_until_end(raw);
                }
            }
            _ => {}
        }
    }
    out
}

/// The visible characters inside the element whose start tag `tokens` just
/// passed, through its end tag (same-name elements nested inside counted).
pub(crate) fn element_text(tokens: &mut Tokens<'_>, name: &[u8]) -> usize {
    let mut depth = 1usize;
    let mut visible = 0;
    while let Some(token) = tokens.next_token() {
        match token {
            Token::Text(t) => visible += visible_chars(t),
            Token::Start(n, attrs) => {
                if let Some(raw) = raw_name(n) {
                    tokens.raw_until_end(raw);
                } else if same_name(n, name) && !self_closing(attrs) {
                    depth += 1;
                }
            }
            Token::End(n) if same_name(n, name) => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    visible
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_split_as_html_splits_them() {
        let id =
            |attrs: &str| attribute(attrs.as_bytes(), "id").map(|v| String::from_utf8_lossy(v).into_owned());
        let cases: &[(&str, Option<&str>)] = &[
            (" id=root", Some("root")),
            (" ID=\"root\"", Some("root")),
            (" Id = 'app'", Some("app")),
            ("\tiD\n=\x0c__next\r", Some("__next")),
            ("/id=root", Some("root")),
            (" class=x/id=root", None),
            (" class=x /id=root/", Some("root/")),
            (" class=\"a\"id=app", Some("app")),
            // Inside another attribute's value, quoted or not, it is no attribute.
            (" class='x id=app'", None),
            (" title=\"id=root\" data-x=1", None),
            (" data-id=root", None),
            (" data-x=a id=root", Some("root")),
            (" x=a=' id=root '", Some("root")),
            // The first of a repeated name counts, with or without a value.
            (" id=a id=root", Some("a")),
            (" id id=root", Some("")),
            (" id=", Some("")),
            (" id='root", Some("root")),
            (" =id=root", None),
            (" \u{a0}id=root", None),
            (" id\u{a0}=root", None),
            (" x>id=root", None),
            ("", None),
        ];
        for &(attrs, expected) in cases {
            assert_eq!(id(attrs).as_deref(), expected, "{attrs:?}");
        }
    }
}
