//! The tokenizer's hottest searches: the next `<`, `&` or NUL of text, and the quote that
//! closes an attribute value (or the `&` or NUL before it). Most text between tags and most
//! values are short, and a `memchr` call (a call through a pointer, its set-up for 32-byte
//! vectors) costs more than looking at their bytes here: on x86_64 the first [`BLOCKS`]
//! 16-byte blocks are compared at once with SSE2 (part of every x86_64 CPU), elsewhere the
//! first [`WORDS`] 8-byte words by bit tricks; the rest is `memchr`'s.

/// How many 16-byte blocks are looked at (x86_64) before `memchr` takes over: most
/// attribute values and text runs end within 64 bytes.
#[cfg(target_arch = "x86_64")]
const BLOCKS: usize = 4;

/// How many 8-byte words are looked at (other targets) before `memchr` takes over.
#[cfg(not(target_arch = "x86_64"))]
const WORDS: usize = 2;

#[cfg(not(target_arch = "x86_64"))]
const ONES: u64 = 0x0101_0101_0101_0101;
#[cfg(not(target_arch = "x86_64"))]
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `w` equal to `b` (little-endian: byte 0 is the low
/// byte). A borrow can mark a byte above a true match, never below the first one, so the
/// lowest mark is always the first match.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
const fn marks(w: u64, b: u8) -> u64 {
    let v = w ^ (ONES * b as u64);
    v.wrapping_sub(ONES) & !v & HIGH
}

/// The first byte of `hay` equal to `a`, `b` or `c`, the first [`BLOCKS`] blocks looked
/// at here, the rest by `rest`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn find(hay: &[u8], [a, b, c]: [u8; 3], rest: impl Fn(&[u8]) -> Option<usize>) -> Option<usize> {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    // SAFETY (the intrinsics here): SSE2 is part of the x86_64 baseline, enabled in every
    // build for this target.
    let (va, vb, vc) = unsafe {
        (
            _mm_set1_epi8(a as i8),
            _mm_set1_epi8(b as i8),
            _mm_set1_epi8(c as i8),
        )
    };
    let mut at = 0;
    while at < 16 * BLOCKS {
        let Some(block) = hay.get(at..at + 16) else {
            break;
        };
        // SAFETY: SSE2 as above; `block` holds the 16 readable bytes the unaligned load
        // reads. The mask has one bit per byte, byte 0 the lowest.
        let found = unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast());
            let hits = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)),
                _mm_cmpeq_epi8(v, vc),
            );
            _mm_movemask_epi8(hits) as u32
        };
        if found != 0 {
            return Some(at + found.trailing_zeros() as usize);
        }
        at += 16;
    }
    rest(&hay[at..]).map(|i| at + i)
}

/// The first byte of `hay` equal to `a`, `b` or `c`, the first [`WORDS`] words looked
/// at here, the rest by `rest`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn find(hay: &[u8], [a, b, c]: [u8; 3], rest: impl Fn(&[u8]) -> Option<usize>) -> Option<usize> {
    let mut at = 0;
    while at < 8 * WORDS {
        let Some(word) = hay.get(at..at + 8) else {
            break;
        };
        let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
        let found = marks(w, a) | marks(w, b) | marks(w, c);
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
    find(hay, [0, b'<', b'&'], |rest| memchr::memchr3(b'<', b'&', 0, rest))
}

/// The first `quote`, `&` or NUL in `hay` (what `memchr3` finds).
#[inline(always)]
pub(super) fn find_quote_or_ref(quote: u8, hay: &[u8]) -> Option<usize> {
    find(hay, [0, quote, b'&'], |rest| {
        memchr::memchr3(quote, b'&', 0, rest)
    })
}

/// The first `byte` in `hay` (what `memchr` finds).
#[inline(always)]
pub(super) fn find_byte(byte: u8, hay: &[u8]) -> Option<usize> {
    find(hay, [byte; 3], |rest| memchr::memchr(byte, rest))
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
    fn a_match_is_found_in_every_block_and_past_them() {
        // One match (or none) in filler of every length up to past the blocks looked at
        // here: each block, each place in a block, and the part left to `memchr`.
        let filler = b"abc def\x80\xff\x01=/>";
        for len in 0..160 {
            let base: Vec<u8> = (0..len).map(|i| filler[i % filler.len()]).collect();
            for at in std::iter::once(None).chain((0..len).map(Some)) {
                for needle in [b'<', b'&', 0, b'"', b'\''] {
                    let mut hay = base.clone();
                    if let Some(at) = at {
                        hay[at] = needle;
                    }
                    assert_eq!(find_markup(&hay), memchr::memchr3(b'<', b'&', 0, &hay), "{hay:?}");
                    for quote in [b'"', b'\''] {
                        assert_eq!(find_byte(quote, &hay), memchr::memchr(quote, &hay), "{hay:?}");
                        let first = memchr::memchr3(quote, b'&', 0, &hay);
                        assert_eq!(find_quote_or_ref(quote, &hay), first, "{hay:?}");
                    }
                }
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
