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
        named_in_one_look_up(src, start, in_attr).unwrap_or_else(|| named_by_prefix(src, start, in_attr))
    }
}

/// A named reference's one or two code points (`c2` is 0 for one) as [`Decoded`].
fn decoded(c1: u32, c2: u32) -> Option<Decoded> {
    let first = char::from_u32(c1)?;
    Some(match char::from_u32(c2) {
        Some(second) if c2 != 0 => Decoded::new(&[first, second]),
        _ => Decoded::new(&[first]),
    })
}

/// The named reference at `start` found with at most one look-up of the table, where
/// that is enough to know what [`named_by_prefix`] (one look-up per prefix) finds; None
/// (the outer one) when it is not. It rests on two facts of the table (tested): it lists
/// every prefix of its names, so that walk reaches any name the text holds, and no name
/// goes on past a `;`. Let `run` be the letters and digits from `start`:
/// - `run;` named with a value is the longest match (nothing goes on past the `;`), and a
///   match ending in `;` is never taken back by the attribute rule;
/// - in an attribute value with no `;` after `run`, any shorter match is followed by a
///   letter or digit and taken back, so only `run` itself can count, and only when no `=`
///   follows it.
fn named_in_one_look_up(src: &[u8], start: usize, in_attr: bool) -> Option<Option<(Decoded, usize)>> {
    let after = start
        + src[start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
    let next = src.get(after).copied();
    if next == Some(b';') {
        let found = valued(&src[start..=after])?;
        return Some(Some((found, after + 1)));
    }
    if !in_attr {
        return None;
    }
    if next == Some(b'=') {
        return Some(None);
    }
    Some(valued(&src[start..after]).map(|found| (found, after)))
}

/// What the table gives the name `key` (ASCII), when it is a name with a value.
fn valued(key: &[u8]) -> Option<Decoded> {
    let key = std::str::from_utf8(key).ok()?;
    let &(c1, c2) = NAMED_ENTITIES.get(key)?;
    if c1 == 0 {
        return None;
    }
    decoded(c1, c2)
}

/// Named references the long way: the longest name the table gives a value, looked up
/// prefix by prefix, with the attribute rule for a match without `;`.
fn named_by_prefix(src: &[u8], start: usize, in_attr: bool) -> Option<(Decoded, usize)> {
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
    Some((decoded(c1, c2)?, end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;

    /// What [`named_in_one_look_up`] rests on.
    #[test]
    fn the_table_lists_every_prefix_and_names_end_at_their_semicolon() {
        // (The table also holds the empty name, which no look-up asks for.)
        for name in NAMED_ENTITIES.keys().filter(|name| !name.is_empty()) {
            assert!(!name[..name.len() - 1].contains(';'), "{name}");
            for end in 1..name.len() {
                assert!(NAMED_ENTITIES.get(&name[..end]).is_some(), "{name} at {end}");
            }
        }
    }

    /// A reference found: its text and the index after it.
    type Found = Option<(String, usize)>;

    /// The one look-up (with its fallback) and the prefix walk on `src`.
    fn both(src: &str, in_attr: bool) -> (Found, Found) {
        let src = src.as_bytes();
        let named = |found: Option<(Decoded, usize)>| found.map(|(d, end)| (d.as_str().to_string(), end));
        let one = named_in_one_look_up(src, 0, in_attr).unwrap_or_else(|| named_by_prefix(src, 0, in_attr));
        (named(one), named(named_by_prefix(src, 0, in_attr)))
    }

    #[test]
    fn one_look_up_finds_what_the_prefix_walk_finds() {
        let suffixes = ["", ";", "x", "=", " ", "1", ";;", "amp;", "&"];
        let names: Vec<&str> = NAMED_ENTITIES.keys().copied().collect();
        for name in &names {
            for suffix in suffixes {
                for in_attr in [false, true] {
                    let src = format!("{name}{suffix}");
                    let (fast, walk) = both(&src, in_attr);
                    assert_eq!(fast, walk, "{src:?} in_attr={in_attr}");
                }
            }
        }
        let mut rng = TestRng::new(11);
        let pieces = [
            "amp", "lt", "gt", "quot", "nbsp", "not", "in", "copy", "a", "b", "x", "1", ";", "=", "&", " ",
            "é", "\"",
        ];
        for _ in 0..100_000 {
            let mut src = String::from(["a", "n", "l", "q", "c", "g"][rng.below(6)]);
            src.push_str(&rng.string_of(&pieces, 6));
            let in_attr = rng.below(2) == 0;
            let (fast, walk) = both(&src, in_attr);
            assert_eq!(fast, walk, "{src:?} in_attr={in_attr}");
        }
    }
}
