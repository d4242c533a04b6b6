//! A forgiving HTML tokenizer over a borrowed `&str`: text (entities decoded),
//! start tags (only the attributes the renderer reads are kept), end tags.
//! Comments, doctypes and processing instructions are skipped; the content of
//! `script`, `style`, `textarea`, `title`, `noscript`, `iframe` and `template`
//! is skipped with the element, so the tree builder never sees it.

use super::entities::{decode, decode_all};
use super::tags::{AttrName, RawText, Tag};
use crate::scan;
use std::borrow::Cow;

/// One stored attribute.
pub struct Attr<'a> {
    pub name: AttrName,
    pub value: Cow<'a, str>,
}

/// A token. A start tag's attributes were appended to the caller's vector.
pub enum Token<'a> {
    Text(Cow<'a, str>),
    Start {
        tag: Tag,
        name: &'a str,
        self_closing: bool,
    },
    End {
        tag: Tag,
        name: &'a str,
    },
}

/// Reads tokens from `src`.
pub struct Tokenizer<'a> {
    src: &'a str,
    pos: usize,
    /// Inside `<xmp>`: the next text runs to this element's end tag, undecoded.
    raw_until: Option<&'a str>,
    /// After `<plaintext>`: everything left is text.
    rest_is_text: bool,
    /// After `<pre>`/`<listing>`: a newline right after the start tag is dropped.
    skip_newline: bool,
}

/// Byte classes for the per-byte loops (tag and attribute names, unquoted
/// values, whitespace runs): one table load and a bit test per byte. Written
/// as comparisons, LLVM lowers these tests to a `br_table` per byte in wasm,
/// which Cranelift compiles to an indirect jump per byte.
const WS: u8 = 1;
const SLASH: u8 = 2;
const GT: u8 = 4;
const EQ: u8 = 8;
const UPPER: u8 = 16;

static CLASS: [u8; 256] = {
    let t = crate::scan::mark([0u8; 256], crate::scan::HTML_WS, WS);
    let t = crate::scan::mark(t, b"/", SLASH);
    let t = crate::scan::mark(t, b">", GT);
    let t = crate::scan::mark(t, b"=", EQ);
    crate::scan::mark(t, b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", UPPER)
};

#[inline(always)]
fn is(b: u8, classes: u8) -> bool {
    CLASS[b as usize] & classes != 0
}

/// HTML whitespace: space, tab, line feed, carriage return, form feed.
#[inline(always)]
pub(super) fn is_ws(b: u8) -> bool {
    is(b, WS)
}

/// The tag for a name as written (any case).
pub(super) fn tag_of(name: &str) -> Tag {
    let bytes = name.as_bytes();
    if !bytes.iter().any(|&c| is(c, UPPER)) {
        return Tag::from_lowercase(bytes);
    }
    if bytes.len() > 16 {
        return Tag::Other;
    }
    let mut buf = [0u8; 16];
    for (d, s) in buf.iter_mut().zip(bytes) {
        *d = s.to_ascii_lowercase();
    }
    Tag::from_lowercase(&buf[..bytes.len()])
}

impl<'a> Tokenizer<'a> {
    pub fn new(src: &'a str) -> Self {
        let src = src.strip_prefix('\u{FEFF}').unwrap_or(src);
        Tokenizer {
            src,
            pos: 0,
            raw_until: None,
            rest_is_text: false,
            skip_newline: false,
        }
    }

    /// The next token, or `None` at the end of the input.
    pub fn next(&mut self, attrs: &mut Vec<Attr<'a>>) -> Option<Token<'a>> {
        let src = self.src;
        loop {
            if self.pos >= src.len() {
                return None;
            }
            if self.rest_is_text {
                let text = &src[self.pos..];
                self.pos = src.len();
                return Some(Token::Text(Cow::Borrowed(text)));
            }
            if let Some(name) = self.raw_until.take() {
                let end = self.find_end_tag(self.pos, name);
                let text = &src[self.pos..end];
                self.pos = end;
                if !text.is_empty() {
                    return Some(Token::Text(Cow::Borrowed(text)));
                }
                continue;
            }
            if src.as_bytes()[self.pos] == b'<' && self.opens_markup(self.pos) {
                if let Some(token) = self.markup(attrs) {
                    return Some(token);
                }
                continue;
            }
            let start = self.pos;
            let (end, special) = self.text_end(start);
            self.pos = end;
            let mut text = &src[start..end];
            if std::mem::take(&mut self.skip_newline) {
                text = text
                    .strip_prefix("\r\n")
                    .or_else(|| text.strip_prefix('\n'))
                    .unwrap_or(text);
            }
            if !text.is_empty() {
                let text = if special {
                    Cow::Owned(decode_all(text, false))
                } else {
                    Cow::Borrowed(text)
                };
                return Some(Token::Text(text));
            }
        }
    }

    /// Whether the `<` at `at` starts a tag, comment or declaration (else it is text).
    fn opens_markup(&self, at: usize) -> bool {
        let b = self.src.as_bytes();
        match b.get(at + 1) {
            Some(c) if c.is_ascii_alphabetic() => true,
            Some(b'!' | b'?') => true,
            Some(b'/') => b.get(at + 2).is_some(),
            _ => false,
        }
    }

    /// The end of the text starting at `start` (the next `<` that opens
    /// markup), and whether the text holds a `&` or `\r` to decode.
    fn text_end(&self, start: usize) -> (usize, bool) {
        let b = self.src.as_bytes();
        let mut from = start;
        let mut special = false;
        loop {
            let found = if special {
                scan::find(&b[from..], b'<')
            } else {
                scan::find3(&b[from..], b'<', b'&', b'\r')
            };
            let Some(i) = found else {
                return (b.len(), special);
            };
            let at = from + i;
            if b[at] != b'<' {
                special = true;
            } else if at != start && self.opens_markup(at) {
                return (at, special);
            }
            from = at + 1;
        }
    }

    /// Reads the markup at `self.pos` (a `<`). `None` when it produced no token
    /// (comment, doctype, skipped raw-text element, tag cut off by the end).
    fn markup(&mut self, attrs: &mut Vec<Attr<'a>>) -> Option<Token<'a>> {
        let src = self.src;
        let b = src.as_bytes();
        let at = self.pos;
        self.skip_newline = false;
        match b[at + 1] {
            b'!' => {
                self.pos = if src[at..].starts_with("<!--") {
                    let body = at + 4;
                    if src[body..].starts_with('>') {
                        body + 1
                    } else if src[body..].starts_with("->") {
                        body + 2
                    } else {
                        let mut from = body;
                        loop {
                            match scan::find(&b[from..], b'>') {
                                None => break src.len(),
                                Some(i) if from + i >= body + 2 && &b[from + i - 2..from + i] == b"--" => {
                                    break from + i + 1;
                                }
                                Some(i) => from += i + 1,
                            }
                        }
                    }
                } else {
                    self.after_gt(at + 2)
                };
                None
            }
            b'?' => {
                self.pos = self.after_gt(at + 2);
                None
            }
            b'/' => {
                let start = at + 2;
                if !b[start].is_ascii_alphabetic() {
                    self.pos = self.after_gt(start);
                    return None;
                }
                let end = start
                    + b[start..]
                        .iter()
                        .take_while(|&&c| !is(c, WS | SLASH | GT))
                        .count();
                let name = &src[start..end];
                let Some(close) = scan::find(&b[end..], b'>') else {
                    self.pos = src.len();
                    return None;
                };
                self.pos = end + close + 1;
                Some(Token::End {
                    tag: tag_of(name),
                    name,
                })
            }
            _ => self.start_tag(attrs),
        }
    }

    /// Position just after the next `>` at or after `from` (or the end).
    fn after_gt(&self, from: usize) -> usize {
        scan::find(&self.src.as_bytes()[from..], b'>').map_or(self.src.len(), |i| from + i + 1)
    }

    /// Reads a start tag at `self.pos`.
    fn start_tag(&mut self, attrs: &mut Vec<Attr<'a>>) -> Option<Token<'a>> {
        let src = self.src;
        let b = src.as_bytes();
        let first_attr = attrs.len();
        let start = self.pos + 1;
        let mut i = start
            + b[start..]
                .iter()
                .take_while(|&&c| !is(c, WS | SLASH | GT))
                .count();
        let name = &src[start..i];
        let tag = tag_of(name);
        let mut self_closing = false;
        loop {
            while i < b.len() && is_ws(b[i]) {
                i += 1;
            }
            if i >= b.len() {
                // A tag cut off by the end of the input is dropped.
                attrs.truncate(first_attr);
                self.pos = b.len();
                return None;
            }
            match b[i] {
                b'>' => {
                    i += 1;
                    break;
                }
                b'/' => {
                    i += 1;
                    if b.get(i) == Some(&b'>') {
                        self_closing = true;
                        i += 1;
                        break;
                    }
                    continue;
                }
                _ => {}
            }
            let name_start = i;
            i += 1;
            while i < b.len() && !is(b[i], WS | SLASH | GT | EQ) {
                i += 1;
            }
            let attr_name = &b[name_start..i];
            while i < b.len() && is_ws(b[i]) {
                i += 1;
            }
            let mut value = "";
            if b.get(i) == Some(&b'=') {
                i += 1;
                while i < b.len() && is_ws(b[i]) {
                    i += 1;
                }
                match b.get(i) {
                    Some(&q @ (b'"' | b'\'')) => {
                        let Some(len) = scan::find(&b[i + 1..], q) else {
                            attrs.truncate(first_attr);
                            self.pos = b.len();
                            return None;
                        };
                        value = &src[i + 1..i + 1 + len];
                        i += len + 2;
                    }
                    Some(b'>') | None => {}
                    Some(_) => {
                        let len = b[i..].iter().take_while(|&&c| !is(c, WS | GT)).count();
                        value = &src[i..i + len];
                        i += len;
                    }
                }
            }
            if let Some(known) = AttrName::parse(attr_name)
                && !attrs[first_attr..].iter().any(|a| a.name == known)
            {
                attrs.push(Attr {
                    name: known,
                    value: decode(value, true),
                });
            }
        }
        self.pos = i;
        match tag.raw_text() {
            RawText::No => {
                self.skip_newline = matches!(tag, Tag::Pre | Tag::Listing);
            }
            RawText::Skip => {
                attrs.truncate(first_attr);
                let end = self.find_end_tag(i, name);
                self.pos = self.after_gt(end);
                return None;
            }
            RawText::Keep => self.raw_until = Some(name),
            RawText::Rest => self.rest_is_text = true,
        }
        Some(Token::Start {
            tag,
            name,
            self_closing,
        })
    }

    /// Where the end tag `</name` (any case, followed by a delimiter) starts at
    /// or after `from`; the end of the input if there is none.
    fn find_end_tag(&self, from: usize, name: &str) -> usize {
        let src = self.src;
        let b = src.as_bytes();
        let mut cursor = from;
        while let Some(i) = scan::find2(&b[cursor..], *b"</") {
            let at = cursor + i;
            let name_end = at + 2 + name.len();
            if name_end <= b.len()
                && b[at + 2..name_end].eq_ignore_ascii_case(name.as_bytes())
                && b.get(name_end).is_none_or(|&c| is(c, WS | SLASH | GT))
            {
                return at;
            }
            cursor = at + 2;
        }
        src.len()
    }
}
