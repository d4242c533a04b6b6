//! Character references: `&#...;` / `&#x...;` with the spec's replacements, and named
//! references matched longest-first against the full table html5ever uses
//! (`markup5ever::data::NAMED_ENTITIES`, which also lists every prefix), with the legacy
//! rule for attribute values (`&amp=` or `&ampx` stay text when no `;` was matched).

use super::{Construct, Tokenizer};
use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

/// Up to two decoded characters, without allocating.
pub(super) struct Decoded {
    buf: [u8; 8],
    len: usize,
}

impl Decoded {
    fn new(chars: &[char]) -> Decoded {
        let mut d = Decoded { buf: [0; 8], len: 0 };
        for c in chars {
            d.len += c.encode_utf8(&mut d.buf[d.len..]).len();
        }
        d
    }

    pub(super) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or_default()
    }
}

/// The character a numeric reference's value stands for.
fn numeric_char(n: u32, too_big: bool) -> char {
    match n {
        _ if too_big || n > 0x10FFFF => '\u{fffd}',
        0 | 0xD800..=0xDFFF => '\u{fffd}',
        0x80..=0x9F => {
            C1_REPLACEMENTS[(n - 0x80) as usize].unwrap_or_else(|| char::from_u32(n).unwrap_or('\u{fffd}'))
        }
        n => char::from_u32(n).unwrap_or('\u{fffd}'),
    }
}

impl<B: Construct> Tokenizer<'_, B> {
    /// At `&` (index `amp`): the decoded reference and the index after it, or None when
    /// the `&` is text.
    pub(super) fn char_ref(&self, amp: usize, in_attr: bool) -> Option<(Decoded, usize)> {
        self.char_ref_bounded(amp, self.src.len(), in_attr)
    }

    /// [`Self::char_ref`] reading no further than `end`.
    pub(super) fn char_ref_bounded(&self, amp: usize, end: usize, in_attr: bool) -> Option<(Decoded, usize)> {
        let src = &self.src[..end];
        match src.get(amp + 1).copied()? {
            b'#' => Self::numeric(src, amp + 2),
            b if b.is_ascii_alphanumeric() => Self::named(src, amp + 1, in_attr),
            _ => None,
        }
    }

    fn numeric(src: &[u8], start: usize) -> Option<(Decoded, usize)> {
        let (base, mut at) = match src.get(start) {
            Some(b'x' | b'X') => (16, start + 1),
            _ => (10, start),
        };
        let digits = at;
        let mut n: u32 = 0;
        let mut too_big = false;
        while let Some(d) = src.get(at).and_then(|&b| (b as char).to_digit(base)) {
            n = n.wrapping_mul(base);
            if n > 0x10FFFF {
                too_big = true;
            }
            n = n.wrapping_add(d);
            at += 1;
        }
        if at == digits {
            return None;
        }
        if src.get(at) == Some(&b';') {
            at += 1;
        }
        Some((Decoded::new(&[numeric_char(n, too_big)]), at))
    }

    fn named(src: &[u8], start: usize, in_attr: bool) -> Option<(Decoded, usize)> {
        let mut best: Option<((u32, u32), usize)> = None;
        let mut at = start;
        while at < src.len() {
            let b = src[at];
            if !(b.is_ascii_alphanumeric() || b == b';') {
                break;
            }
            let key = std::str::from_utf8(&src[start..=at]).ok()?;
            match NAMED_ENTITIES.get(key) {
                Some(&m) => {
                    if m.0 != 0 {
                        best = Some((m, at + 1));
                    }
                }
                None => break,
            }
            at += 1;
        }
        let ((c1, c2), end) = best?;
        let next = src.get(end).copied();
        if src[end - 1] != b';' && in_attr && next.is_some_and(|b| b == b'=' || b.is_ascii_alphanumeric()) {
            return None;
        }
        let first = char::from_u32(c1)?;
        let decoded = match char::from_u32(c2) {
            Some(second) if c2 != 0 => Decoded::new(&[first, second]),
            _ => Decoded::new(&[first]),
        };
        Some((decoded, end))
    }
}
