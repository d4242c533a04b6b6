//! The tokenizer's hottest searches: the next `<`, `&` or NUL of text, and the quote that
//! closes an attribute value (or the `&` or NUL before it). Most text between tags and most values are short, and
//! a `memchr` call costs more than looking at a couple of 8-byte words for the bytes at
//! once, so the first [`WORDS`] words are looked at here and the rest is `memchr`'s.

/// How many 8-byte words are looked at before `memchr` takes over.
const WORDS: usize = 2;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `w` equal to `b` (little-endian: byte 0 is the low
/// byte). A borrow can mark a byte above a true match, never below the first one, so the
/// lowest mark is always the first match.
#[inline(always)]
const fn marks(w: u64, b: u8) -> u64 {
    let v = w ^ (ONES * b as u64);
    v.wrapping_sub(ONES) & !v & HIGH
}

/// The first byte of `hay` for which `mark` leaves a mark in its word, the first
/// [`WORDS`] words looked at here, the rest by `rest`.
#[inline(always)]
fn find(hay: &[u8], mark: impl Fn(u64) -> u64, rest: impl Fn(&[u8]) -> Option<usize>) -> Option<usize> {
    let mut at = 0;
    while at < 8 * WORDS {
        let Some(word) = hay.get(at..at + 8) else {
            break;
        };
        let found = mark(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        if found != 0 {
            return Some(at + found.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    rest(&hay[at..]).map(|i| at + i)
}

/// The first `<`, `&` or NUL in `hay` (what `memchr3` finds).
#[inline(always)]
pub(super) fn find_markup(hay: &[u8]) -> Option<usize> {
    find(
        hay,
        |w| marks(w, 0) | marks(w, b'<') | marks(w, b'&'),
        |rest| memchr::memchr3(b'<', b'&', 0, rest),
    )
}

/// The first `quote`, `&` or NUL in `hay` (what `memchr3` finds).
#[inline(always)]
pub(super) fn find_quote_or_ref(quote: u8, hay: &[u8]) -> Option<usize> {
    find(
        hay,
        |w| marks(w, 0) | marks(w, quote) | marks(w, b'&'),
        |rest| memchr::memchr3(quote, b'&', 0, rest),
    )
}

/// The first `byte` in `hay` (what `memchr` finds).
#[inline(always)]
pub(super) fn find_byte(byte: u8, hay: &[u8]) -> Option<usize> {
    find(hay, |w| marks(w, byte), |rest| memchr::memchr(byte, rest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;

    #[test]
    fn the_searches_find_what_memchr_finds() {
        let mut rng = TestRng::new(5);
        let pieces = [
            "a", "<", "&", "\0", "\"", "'", " ", "\u{80}", "\u{ff}", "é", "<&", "abcdefgh", "\u{1}", "\u{7f}",
        ];
        for _ in 0..200_000 {
            let hay = rng.string_of(&pieces, 12);
            let hay = hay.as_bytes();
            assert_eq!(find_markup(hay), memchr::memchr3(b'<', b'&', 0, hay), "{hay:?}");
            for quote in [b'"', b'\''] {
                assert_eq!(find_byte(quote, hay), memchr::memchr(quote, hay), "{hay:?}");
                let first = memchr::memchr3(quote, b'&', 0, hay);
                assert_eq!(find_quote_or_ref(quote, hay), first, "{hay:?}");
            }
        }
    }

    #[test]
    fn a_mark_above_a_match_does_not_hide_it() {
        // A zero byte's borrow marks 0x01 above it; 0x80 bytes test the `!v` part.
        for hay in [
            &b"\0\x01\x01\x01\x01\x01\x01\x01x"[..],
            b"a\x80\x80<\x80&\0\x81\x01",
            b"\x3d\x3c\x3c",
        ] {
            assert_eq!(find_markup(hay), memchr::memchr3(b'<', b'&', 0, hay));
        }
    }
}
