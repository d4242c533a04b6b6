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
            at + 1 + finders::quote(q, &b[at + 1..])? + 1
        } else {
            at + 1
        };
    }
}

/// Whether an ASCII byte is whitespace as `char::is_whitespace` has it.
fn ascii_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

/// `s` with leading whitespace (Unicode's, as `str::trim_start`) removed; an invalid
/// sequence (a U+FFFD when decoded) is not whitespace.
fn trim_start(mut s: &[u8]) -> &[u8] {
    while let Some(&b) = s.first() {
        let width = if b < 0x80 {
            if !ascii_space(b) {
                break;
            }
            1
        } else {
            let width = match b {
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                _ => 4,
            };
            let is_space = s
                .get(..width)
                .and_then(|c| std::str::from_utf8(c).ok())
                .is_some_and(|c| c.chars().all(char::is_whitespace));
            if !is_space {
                break;
            }
            width
        };
        s = &s[width..];
    }
    s
}

/// `s` decoded (invalid sequences replaced), borrowed when valid.
pub(crate) fn lossy(s: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(s)
}

/// The value of attribute `name` (lowercase) in a start tag's attribute source: the
/// first `name` (its first byte as given, the rest in any case) after whitespace or at
/// the start, followed by `=`; whether inside a quoted value or not.
pub(crate) fn attribute<'a>(attrs: &'a [u8], name: &str) -> Option<&'a [u8]> {
    let name = name.as_bytes();
    if all_ascii(attrs) {
        return ascii_attribute(attrs, name).map(|eq| value_after(&attrs[eq + 1..]));
    }
    attribute_by_name(attrs, name)
}

/// Whether `s` is all ASCII: a long one's bytes OR-ed together, which the compiler does
/// many bytes a step (no early exit: attribute sources are a few dozen bytes).
fn all_ascii(s: &[u8]) -> bool {
    if s.len() < 48 {
        return s.is_ascii();
    }
    s.iter().fold(0u8, |acc, &b| acc | b) < 0x80
}

/// [`attribute`] found by its name's first byte: each one is looked at, in order.
fn attribute_by_name<'a>(attrs: &'a [u8], name: &[u8]) -> Option<&'a [u8]> {
    let mut from = 0;
    for at in memchr::memchr_iter(name[0], attrs) {
        if at < from
            || !attrs
                .get(at..at + name.len())
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        {
            continue;
        }
        from = at + name.len();
        let before_ok = at == 0 || attrs[at - 1].is_ascii_whitespace();
        let rest = trim_start(&attrs[from..]);
        if !before_ok || rest.first() != Some(&b'=') {
            continue;
        }
        return Some(value_after(&rest[1..]));
    }
    None
}

/// [`attribute`]'s `=` in an ASCII attribute source: the first `=` that ends `name` (its
/// first byte as given, the rest in any case; whitespace between allowed) at the start or
/// after whitespace. Each such name has its own `=`, so the first `=` in order is the
/// first name in order, as [`attribute_by_name`] finds it; a tag's attributes hold fewer
/// `=` than they hold of most letters (`i` of `id` in class names), each a `memchr` stop.
fn ascii_attribute(attrs: &[u8], name: &[u8]) -> Option<usize> {
    finders::all(attrs, finders::eq).find(|&eq| {
        let end = attrs[..eq]
            .iter()
            .rposition(|&b| !ascii_space(b))
            .map_or(0, |i| i + 1);
        let Some(at) = end.checked_sub(name.len()) else {
            return false;
        };
        attrs[at] == name[0]
            && attrs[at + 1..end].eq_ignore_ascii_case(&name[1..])
            && (at == 0 || attrs[at - 1].is_ascii_whitespace())
    })
}

/// An attribute's value from what follows its `=`: quoted, or up to whitespace or `>`.
fn value_after(after: &[u8]) -> &[u8] {
    let value = trim_start(after);
    match value.first() {
        Some(&q @ (b'"' | b'\'')) => {
            let body = &value[1..];
            &body[..finders::quote(q, body).unwrap_or(body.len())]
        }
        _ => {
            let end = value
                .iter()
                .position(|&c| c.is_ascii_whitespace() || c == b'>')
                .unwrap_or(value.len());
            &value[..end]
        }
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
    fn an_ascii_attribute_is_the_one_its_name_finds() {
        // Names with and without their `=`, in values and in other names, any case,
        // whitespace of every kind around the `=`, quotes, stray `>`.
        let pieces = [
            "id",
            "ID",
            "iD",
            "Id",
            "type",
            "TYPE",
            "tYpe",
            "data-id",
            "=",
            " ",
            "\t",
            "\n",
            "\u{b}",
            "\u{c}",
            "\r",
            "\"",
            "'",
            ">",
            "root",
            "x",
            "i",
            "d",
            "/",
            "class",
            "ii",
            "id=",
            " id =",
            "type=",
            "\ttype\u{b}=",
            "=root",
        ];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            x = x
                .wrapping_mul(0x5851_f42d_4c95_7f2d)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) as usize % n
        };
        let mut found = 0;
        for _ in 0..200_000 {
            let mut attrs = String::new();
            for _ in 0..next(14) {
                attrs.push_str(pieces[next(pieces.len())]);
            }
            for name in ["id", "type"] {
                let got = attribute(attrs.as_bytes(), name);
                assert_eq!(
                    got,
                    attribute_by_name(attrs.as_bytes(), name.as_bytes()),
                    "{attrs:?} {name}"
                );
                found += usize::from(got.is_some());
            }
        }
        assert!(found > 10_000, "{found}");
    }
}
