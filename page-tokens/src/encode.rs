//! [`Writer`]: builds a token stream (the host's side).

use crate::{FORMAT_VERSION, OP_END, OP_START, OP_TEXT, attr_id, tag_id};

/// Builds the `ops` and `text` of a token stream. Adjacent [`Writer::text`]
/// calls make one text run; `\r\n` and `\r` in text and values become `\n`.
pub struct Writer {
    ops: Vec<u8>,
    text: String,
    /// Bytes of `text` that belong to the text run not yet written to `ops`.
    pending: usize,
}

impl Default for Writer {
    fn default() -> Self {
        Writer::with_capacity(0)
    }
}

impl Writer {
    /// A writer with room for about `text_bytes` of text.
    pub fn with_capacity(text_bytes: usize) -> Self {
        let mut ops = Vec::with_capacity(text_bytes / 4 + 1);
        ops.push(FORMAT_VERSION);
        Writer {
            ops,
            text: String::with_capacity(text_bytes),
            pending: 0,
        }
    }

    /// Appends text (joined with the text just before it, if any).
    pub fn text(&mut self, text: &str) {
        let before = self.text.len();
        push_normalised(&mut self.text, text);
        self.pending += self.text.len() - before;
    }

    /// Ends the current text run (e.g. at a comment, which a tokenizer would
    /// see between two runs).
    pub fn break_text(&mut self) {
        if self.pending > 0 {
            self.ops.push(OP_TEXT);
            push_varint(&mut self.ops, self.pending as u32);
            self.pending = 0;
        }
    }

    /// A start tag named `name` (lower case for HTML) with its attributes
    /// (name, value). Returns the tag's id (0: not listed), which [`Writer::end_id`]
    /// takes for its end tag.
    pub fn start<N: AsRef<str>, V: AsRef<str>>(
        &mut self,
        name: &str,
        attrs: impl Iterator<Item = (N, V)>,
    ) -> u8 {
        self.break_text();
        self.ops.push(OP_START);
        let id = tag_id(name);
        self.name(id, name);
        // The count, written once known: one byte unless 128 or more.
        let count_at = self.ops.len();
        self.ops.push(0);
        let mut count = 0u32;
        for (attr, value) in attrs {
            let attr = attr.as_ref();
            self.name(attr_id(attr), attr);
            let before = self.text.len();
            push_normalised(&mut self.text, value.as_ref());
            push_varint(&mut self.ops, (self.text.len() - before) as u32);
            count += 1;
        }
        if count < 0x80 {
            self.ops[count_at] = count as u8;
        } else {
            let mut bytes = Vec::new();
            push_varint(&mut bytes, count);
            self.ops.splice(count_at..count_at + 1, bytes);
        }
        id
    }

    /// An end tag.
    pub fn end(&mut self, name: &str) {
        self.end_id(tag_id(name), name);
    }

    /// An end tag whose id its start tag's [`Writer::start`] returned (so the name is
    /// not looked up again).
    pub fn end_id(&mut self, id: u8, name: &str) {
        debug_assert_eq!(id, tag_id(name));
        self.break_text();
        self.ops.push(OP_END);
        self.name(id, name);
    }

    fn name(&mut self, id: u8, name: &str) {
        self.ops.push(id);
        if id == 0 {
            push_varint(&mut self.ops, name.len() as u32);
            self.text.push_str(name);
        }
    }

    /// The finished `ops` and `text`.
    pub fn finish(mut self) -> (Vec<u8>, String) {
        self.break_text();
        (self.ops, self.text)
    }
}

/// Appends `s` with `\r\n` and `\r` as `\n` (as an HTML tokenizer reads them).
fn push_normalised(out: &mut String, s: &str) {
    if !has_cr(s.as_bytes()) {
        // Nearly every text and value: copied whole, after one wide scan.
        out.push_str(s);
        return;
    }
    let mut rest = s;
    while let Some(i) = rest.find('\r') {
        out.push_str(&rest[..i]);
        out.push('\n');
        rest = &rest[i + 1..];
        rest = rest.strip_prefix('\n').unwrap_or(rest);
    }
    out.push_str(rest);
}

/// Whether `b` holds a `\r`: 32 bytes per step, each step without an early
/// exit inside, so the compiler makes it a few vector compares; the tail as
/// the last 32 bytes again (overlapping), or under 32 bytes, as 8-byte words
/// (the last overlapping). Cheaper than `str::find` or `contains` on the
/// short strings of a page (each a call into `memchr`), and than a byte loop
/// over the tail.
pub(crate) fn has_cr(b: &[u8]) -> bool {
    let n = b.len();
    if n >= 32 {
        let mut chunks = b.chunks_exact(32);
        for chunk in &mut chunks {
            if any_cr(chunk) {
                return true;
            }
        }
        return !chunks.remainder().is_empty() && any_cr(&b[n - 32..]);
    }
    if n >= 8 {
        let mut hits = 0;
        let mut i = 0;
        while i + 8 <= n {
            hits |= cr_bytes(&b[i..i + 8]);
            i += 8;
        }
        return (hits | cr_bytes(&b[n - 8..])) != 0;
    }
    any_cr(b)
}

/// Whether `chunk` holds a `\r`, without an early exit.
#[inline(always)]
fn any_cr(chunk: &[u8]) -> bool {
    chunk.iter().fold(false, |hit, &c| hit | (c == b'\r'))
}

/// Non-zero when the 8 bytes hold a `\r` (a zero byte of `word ^ 0x0d..`).
#[inline(always)]
fn cr_bytes(bytes: &[u8]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let word = u64::from_le_bytes(bytes.try_into().expect("8 bytes")) ^ (ONES * 0x0d);
    word.wrapping_sub(ONES) & !word & (ONES * 0x80)
}

/// Unsigned LEB128.
pub(crate) fn push_varint(out: &mut Vec<u8>, mut n: u32) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}
