//! [`Tokens`]: reads a token stream (the plugin's side). Every string is a
//! slice of the stream's text, found by lengths: no per-byte scanning. A
//! stream that does not follow the format ends the iteration early (see
//! [`Tokens::is_complete`]); it never panics. A start tag's attributes are
//! checked once, when the tag is read (a broken one ends the stream there);
//! iterating them then reads the same bytes without the checks, or
//! [`Tokens::next_with_attrs`] hands them over as they are checked.

use crate::names::name_of;
use crate::{ATTRS, FORMAT_VERSION, OP_END, OP_START, OP_TEXT, TAGS};

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Token<'a> {
    /// A run of text, entity-decoded.
    Text(&'a str),
    /// A start tag: its id in [`TAGS`] (0 for other names), its name and its attributes.
    Start {
        tag: u8,
        name: &'a str,
        attrs: Attrs<'a>,
    },
    /// An end tag.
    End { tag: u8, name: &'a str },
}

/// One attribute: its id in [`ATTRS`] (0 for other names), name and value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attr<'a> {
    pub id: u8,
    pub name: &'a str,
    pub value: &'a str,
}

/// The attributes of a start tag, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Attrs<'a> {
    cursor: Cursor<'a>,
    left: u32,
}

impl<'a> Iterator for Attrs<'a> {
    type Item = Attr<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Attr<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        // SAFETY: `Tokens::read` hands out an `Attrs` only after stepping
        // past all `left` attributes from this same position with the
        // checked `Cursor::attr`, so each one read here was checked once.
        Some(unsafe { self.cursor.attr_checked_before() })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left as usize))
    }
}

#[cfg(test)]
impl<'a> Attrs<'a> {
    /// The attributes read with every check (as the decoder once read them
    /// a second time), for tests against the iteration.
    pub(crate) fn checked(mut self) -> impl Iterator<Item = Attr<'a>> {
        std::iter::from_fn(move || {
            if self.left == 0 {
                return None;
            }
            self.left -= 1;
            let attr = self.cursor.attr();
            if attr.is_none() {
                self.left = 0;
            }
            attr
        })
    }
}

/// A position in the stream: in `ops` and in `text`.
#[derive(Clone, Debug, PartialEq)]
struct Cursor<'a> {
    ops: &'a [u8],
    text: &'a str,
    at: usize,
    text_at: usize,
}

impl<'a> Cursor<'a> {
    #[inline(always)]
    fn byte(&mut self) -> Option<u8> {
        let b = *self.ops.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    #[inline(always)]
    fn varint(&mut self) -> Option<u32> {
        let first = self.byte()?;
        if first < 0x80 {
            return Some(first as u32);
        }
        let mut n = (first & 0x7f) as u32;
        for shift in [7, 14, 21, 28] {
            let b = self.byte()?;
            n |= ((b & 0x7f) as u32).checked_shl(shift)?;
            if b < 0x80 {
                return Some(n);
            }
        }
        None
    }

    /// The next `len` bytes of text.
    #[inline(always)]
    fn string(&mut self, len: u32) -> Option<&'a str> {
        let end = self.text_at.checked_add(len as usize)?;
        let s = self.text.get(self.text_at..end)?;
        self.text_at = end;
        Some(s)
    }

    /// A name: an id into `list`, or 0 and the name's text.
    #[inline(always)]
    fn name(&mut self, list: &'static [&'static str]) -> Option<(u8, &'a str)> {
        let id = self.byte()?;
        if id == 0 {
            let len = self.varint()?;
            return Some((0, self.string(len)?));
        }
        Some((id, name_of(list, id)?))
    }

    #[inline(always)]
    fn attr(&mut self) -> Option<Attr<'a>> {
        let (id, name) = self.name(ATTRS)?;
        let len = self.varint()?;
        let value = self.string(len)?;
        Some(Attr { id, name, value })
    }

    /// The attribute [`Cursor::attr`] reads here, without its checks (the
    /// decoder's attributes are checked once, when their tag is read).
    ///
    /// # Safety
    /// `attr` returned `Some` from this same position of the same stream:
    /// every byte read below is in `ops`, a non-zero id is in `ATTRS`, and
    /// every string lies within `text` on character boundaries.
    #[inline(always)]
    unsafe fn attr_checked_before(&mut self) -> Attr<'a> {
        debug_assert!(self.clone().attr().is_some());
        // SAFETY (the three calls): this function's contract.
        let id = unsafe { self.byte_unchecked() };
        let name = match id {
            0 => unsafe {
                let len = self.varint_unchecked();
                self.string_unchecked(len)
            },
            id => unsafe { ATTRS.get_unchecked(id as usize - 1) },
        };
        let value = unsafe {
            let len = self.varint_unchecked();
            self.string_unchecked(len)
        };
        Attr { id, name, value }
    }

    /// # Safety
    /// `at` is within `ops`.
    #[inline(always)]
    unsafe fn byte_unchecked(&mut self) -> u8 {
        // SAFETY: the caller's.
        let b = unsafe { *self.ops.get_unchecked(self.at) };
        self.at += 1;
        b
    }

    /// # Safety
    /// [`Cursor::varint`] read a varint here.
    #[inline(always)]
    unsafe fn varint_unchecked(&mut self) -> u32 {
        let (mut n, mut shift) = (0u32, 0);
        loop {
            // SAFETY: the caller's: the varint's bytes are in `ops`, at most
            // five of them, so `shift` stays under 32.
            let b = unsafe { self.byte_unchecked() };
            n |= ((b & 0x7f) as u32) << shift;
            if b < 0x80 {
                return n;
            }
            shift += 7;
        }
    }

    /// # Safety
    /// [`Cursor::string`] read `len` bytes here.
    #[inline(always)]
    unsafe fn string_unchecked(&mut self, len: u32) -> &'a str {
        let end = self.text_at + len as usize;
        // SAFETY: the caller's: `text_at..end` is within `text`, on
        // character boundaries.
        let s = unsafe { self.text.get_unchecked(self.text_at..end) };
        self.text_at = end;
        s
    }
}

/// The tokens of a stream, in order.
#[derive(Clone, Debug)]
pub struct Tokens<'a> {
    cursor: Cursor<'a>,
    failed: bool,
}

impl<'a> Tokens<'a> {
    /// Reads `ops` and `text`. A stream of another format version (or an
    /// empty one: no stream was sent) has no tokens.
    pub fn new(ops: &'a [u8], text: &'a str) -> Self {
        let known = ops.first() == Some(&FORMAT_VERSION);
        Tokens {
            cursor: Cursor {
                ops: if known { ops } else { &[] },
                text,
                at: 1,
                text_at: 0,
            },
            failed: !known && !ops.is_empty(),
        }
    }

    /// Whether a stream was sent at all (`ops` is not empty).
    pub fn is_present(ops: &[u8]) -> bool {
        !ops.is_empty()
    }

    /// After the iteration: whether every token was read (false when the
    /// stream broke off or was of an unknown version).
    pub fn is_complete(&self) -> bool {
        !self.failed
            && self.cursor.at >= self.cursor.ops.len()
            && self.cursor.text_at == self.cursor.text.len()
    }

    /// The next token, as [`Iterator::next`] gives it, except that a start
    /// tag's attributes go to `on_attr` as they are read and checked (one
    /// pass over them, not a check and then a read) and the token's `attrs`
    /// is empty. A broken attribute ends the stream there as with `next`,
    /// after `on_attr` has had the ones before it: a caller that drops what
    /// it built from an incomplete stream ([`Tokens::is_complete`]) gets
    /// what it gets with `next`.
    #[inline(always)]
    pub fn next_with_attrs(&mut self, on_attr: impl FnMut(Attr<'a>)) -> Option<Token<'a>> {
        if self.failed || self.cursor.at >= self.cursor.ops.len() {
            return None;
        }
        let token = self.read(Some(on_attr));
        if token.is_none() {
            self.failed = true;
        }
        token
    }

    /// One token; a start tag's attributes go to `on_attr` when there is one.
    #[inline(always)]
    fn read(&mut self, on_attr: Option<impl FnMut(Attr<'a>)>) -> Option<Token<'a>> {
        let c = &mut self.cursor;
        match c.byte()? {
            OP_TEXT => {
                let len = c.varint()?;
                Some(Token::Text(c.string(len)?))
            }
            OP_START => {
                let (tag, name) = c.name(TAGS)?;
                let count = c.varint()?;
                let Some(mut on_attr) = on_attr else {
                    let attrs = Attrs {
                        cursor: c.clone(),
                        left: count,
                    };
                    // Step past the attributes (lengths only).
                    for _ in 0..count {
                        c.attr()?;
                    }
                    return Some(Token::Start { tag, name, attrs });
                };
                for _ in 0..count {
                    on_attr(c.attr()?);
                }
                let attrs = Attrs {
                    cursor: c.clone(),
                    left: 0,
                };
                Some(Token::Start { tag, name, attrs })
            }
            OP_END => {
                let (tag, name) = c.name(TAGS)?;
                Some(Token::End { tag, name })
            }
            _ => None,
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Token<'a>> {
        if self.failed || self.cursor.at >= self.cursor.ops.len() {
            return None;
        }
        let token = self.read(None::<fn(Attr<'a>)>);
        if token.is_none() {
            self.failed = true;
        }
        token
    }
}
