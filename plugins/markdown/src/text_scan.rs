//! The wide scan behind the inline writer's fast path: how far a text runs
//! as words the writer copies unchanged, separated by single spaces. In wasm
//! it classifies 16 bytes per step with two SIMD128 nibble lookups, so a
//! paragraph costs a few loop iterations (each pays an epoch check under
//! wasmtime) instead of one per byte and a call per word. Also what the
//! writer does with a multi-byte character behind a lead byte: collapse it
//! ([`ws_len`]), drop it ([`invisible_len`]), or copy it like a letter.
//! The writer's other loops scan the same way: where a run of ASCII
//! whitespace ends ([`ascii_ws_end`]) and where a word may end
//! ([`word_stop`]).

/// Bytes that end a run: whitespace other than a space, the characters the
/// writer may escape (`\ * _ ` [ ] < & ~`), and the lead bytes of the
/// multi-byte spaces and invisible characters it collapses or drops. Kept in
/// step with the classes of `render::inline`.
const STOP_BYTES: &[u8] = b"\t\n\r\x0c\\*_`[]<&~\xc2\xe2\xef";

static STOP: [u8; 256] = crate::scan::mark([0u8; 256], STOP_BYTES, 1);

/// Index of the first byte of `hay` that is a stop byte (see [`STOP_BYTES`])
/// or a space right after a space; `hay.len()` if there is none. `hay[0]`
/// counts as following a non-space. A lead byte stops only where its
/// character is collapsed or dropped ([`copied_as_is`]): curly quotes and
/// dashes, common in prose, are copied like letters.
#[inline(always)]
pub fn stop(hay: &[u8]) -> usize {
    let mut from = 0;
    loop {
        let at = from + stop_byte(&hay[from..]);
        if at < hay.len() && copied_as_is(hay, at) {
            // Not a space, so the next byte follows a non-space.
            from = at + 1;
            continue;
        }
        return at;
    }
}

/// Whether the byte at `i` is a lead byte of the stop set (0xC2, 0xE2,
/// 0xEF) whose character the writer copies as is: neither a collapsible
/// space nor an invisible character.
#[inline(always)]
pub fn copied_as_is(b: &[u8], i: usize) -> bool {
    matches!(b[i], 0xC2 | 0xE2 | 0xEF) && ws_len(b, i) == 0 && invisible_len(b, i) == 0
}

/// Length of the collapsible whitespace character at `i` (ASCII whitespace,
/// no-break space, the Unicode fixed-width spaces), or 0. Inlined: called
/// per word, a call was 3 % of the plugin's time in wasm.
#[inline(always)]
pub fn ws_len(b: &[u8], i: usize) -> usize {
    match b[i] {
        b' ' | b'\t' | b'\n' | b'\r' | 0x0C => 1,
        0xC2 if b.get(i + 1) == Some(&0xA0) => 2,
        0xE2 => match (b.get(i + 1), b.get(i + 2)) {
            (Some(0x80), Some(0x80..=0x8A | 0xAF)) | (Some(0x81), Some(0x9F)) => 3,
            _ => 0,
        },
        _ => 0,
    }
}

/// Length of an invisible character at `i` that is dropped (soft hyphen,
/// zero-width space, byte-order mark), or 0.
#[inline(always)]
pub fn invisible_len(b: &[u8], i: usize) -> usize {
    match (b[i], b.get(i + 1), b.get(i + 2)) {
        (0xC2, Some(0xAD), _) => 2,
        (0xE2, Some(0x80), Some(0x8B)) | (0xEF, Some(0xBB), Some(0xBF)) => 3,
        _ => 0,
    }
}

/// Index of the first byte of `hay` at or after `from` that is not ASCII
/// HTML whitespace (space, tab, line feed, form feed, carriage return);
/// `hay.len()` if there is none.
#[inline(always)]
pub fn ascii_ws_end(hay: &[u8], from: usize) -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: as in `stop_byte`.
        unsafe { simd::ws_end(hay, from) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    ws_end_bytewise(hay, from)
}

/// [`ascii_ws_end`] one byte at a time.
fn ws_end_bytewise(hay: &[u8], mut i: usize) -> usize {
    while i < hay.len() && matches!(hay[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0C) {
        i += 1;
    }
    i
}

/// Index of the first byte of `hay` that is a space or a stop byte (see
/// [`STOP_BYTES`]): where a word may end or hold something to escape or
/// drop; `hay.len()` if there is none. Every byte before it is of no
/// class of the inline writer's.
#[inline(always)]
pub fn word_stop(hay: &[u8]) -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: as in `stop_byte`.
        unsafe { simd::word_stop(hay) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    word_stop_bytewise(hay, 0)
}

/// [`word_stop`] from `i` one byte at a time.
fn word_stop_bytewise(hay: &[u8], i: usize) -> usize {
    hay[i..]
        .iter()
        .position(|&c| c == b' ' || STOP[c as usize] != 0)
        .map_or(hay.len(), |at| i + at)
}

/// [`stop`] without the lead-byte check: the first stop byte or double space.
#[inline(always)]
fn stop_byte(hay: &[u8]) -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: SIMD128 is part of the wasm features wasmtime enables by
        // default (a runtime without it refuses the component); loads stay
        // within `hay`.
        unsafe { simd::stop(hay) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    stop_bytewise(hay, 0, false)
}

/// [`stop_byte`] from `i` one byte at a time; `after_space`: `hay[i - 1]`
/// is a space.
fn stop_bytewise(hay: &[u8], mut i: usize, mut after_space: bool) -> usize {
    while i < hay.len() {
        let c = hay[i];
        if c == b' ' {
            if after_space {
                return i;
            }
            after_space = true;
        } else if STOP[c as usize] != 0 {
            return i;
        } else {
            after_space = false;
        }
        i += 1;
    }
    hay.len()
}

/// Nibble tables: a byte `c` is a stop byte iff `LO[c & 15] & HI[c >> 4] != 0`.
/// Each bit stands for one high nibble holding stop bytes: 0x0_ (bit 0),
/// 0x2_ (1), 0x3_ (2), 0x5_ (3), 0x6_ (4), 0x7_ (5), 0xC_ (6), 0xE_ (7).
#[cfg(any(target_arch = "wasm32", test))]
const HI: [u8; 16] = [1, 0, 2, 4, 0, 8, 16, 32, 0, 0, 0, 0, 64, 0, 128, 0];
/// For each low nibble, the high-nibble bits whose byte with that low nibble
/// is a stop byte: `` ` `` 0x60; 0xC2, 0xE2; `&` 0x26; tab 0x09; LF 0x0A, `*`
/// 0x2A; `[` 0x5B; FF 0x0C, `<` 0x3C, `\` 0x5C; CR 0x0D, `]` 0x5D; `~` 0x7E;
/// `_` 0x5F, 0xEF.
#[cfg(any(target_arch = "wasm32", test))]
const LO: [u8; 16] = [
    16,
    0,
    64 | 128,
    0,
    0,
    0,
    2,
    0,
    0,
    1,
    1 | 2,
    8,
    1 | 4 | 8,
    1 | 8,
    32,
    8 | 128,
];

#[cfg(target_arch = "wasm32")]
mod simd {
    use super::{HI, LO, stop_bytewise, word_stop_bytewise, ws_end_bytewise};
    use core::arch::wasm32::*;

    /// The first byte at or after `$from` of a haystack of `$n >= 16` bytes
    /// that `$mask!(at)` marks (a bit per byte of `at..at + 16`): 16 bytes
    /// per step, then one load overlapping the scanned part for the tail.
    macro_rules! first_marked {
        ($n:expr, $from:expr, $mask:ident) => {{
            let n = $n;
            let mut i = $from;
            while i + 16 <= n {
                let marked = $mask!(i);
                if marked != 0 {
                    return i + marked.trailing_zeros() as usize;
                }
                i += 16;
            }
            if i < n {
                let last = n - 16;
                let marked = $mask!(last) >> (i - last);
                if marked != 0 {
                    return i + marked.trailing_zeros() as usize;
                }
            }
            n
        }};
    }

    /// The nibble tables ([`LO`], [`HI`]) as vectors.
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn tables() -> (v128, v128) {
        // SAFETY: both tables are 16 bytes; v128_load has no alignment requirement.
        unsafe {
            (
                v128_load(LO.as_ptr() as *const v128),
                v128_load(HI.as_ptr() as *const v128),
            )
        }
    }

    /// (stop bytes, spaces) of the 16 bytes of `hay` at `at`, as bit masks.
    /// Safety: `at + 16 <= hay.len()`.
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn classes(hay: &[u8], at: usize, (lo_t, hi_t): (v128, v128)) -> (u32, u32) {
        // SAFETY: the caller's.
        let v = unsafe { v128_load(hay.as_ptr().add(at) as *const v128) };
        let lo = u8x16_swizzle(lo_t, v128_and(v, u8x16_splat(0x0f)));
        let hi = u8x16_swizzle(hi_t, u8x16_shr(v, 4));
        let plain = u8x16_bitmask(u8x16_eq(v128_and(lo, hi), u8x16_splat(0))) as u32;
        (
            !plain & 0xffff,
            u8x16_bitmask(u8x16_eq(v, u8x16_splat(b' '))) as u32,
        )
    }

    /// [`super::ascii_ws_end`]: 16 bytes per step, then one load
    /// overlapping the scanned part for the tail; under 16 bytes, byte by byte.
    #[target_feature(enable = "simd128")]
    #[inline]
    pub unsafe fn ws_end(hay: &[u8], from: usize) -> usize {
        let n = hay.len();
        if n < 16 {
            return ws_end_bytewise(hay, from);
        }
        let (space, nine, four, eleven) =
            (u8x16_splat(b' '), u8x16_splat(9), u8x16_splat(4), u8x16_splat(11));
        // The bytes of the 16 at `at` that are not whitespace, as a bit mask:
        // a space, or 9..=13 but not 11 (vertical tab).
        // SAFETY (every use): `at + 16 <= n`.
        macro_rules! not_ws {
            ($at:expr) => {{
                let v = unsafe { v128_load(hay.as_ptr().add($at) as *const v128) };
                let low = v128_andnot(u8x16_le(u8x16_sub(v, nine), four), u8x16_eq(v, eleven));
                !(u8x16_bitmask(v128_or(u8x16_eq(v, space), low)) as u32) & 0xffff
            }};
        }
        first_marked!(n, from, not_ws)
    }

    /// [`super::word_stop`]: 16 bytes per step, then one load overlapping
    /// the scanned part for the tail; under 16 bytes, byte by byte.
    #[target_feature(enable = "simd128")]
    #[inline]
    pub unsafe fn word_stop(hay: &[u8]) -> usize {
        let n = hay.len();
        if n < 16 {
            return word_stop_bytewise(hay, 0);
        }
        let tables = unsafe { tables() };
        // Stop bytes and spaces of the 16 bytes at `at`, as one bit mask.
        // SAFETY (every use): `at + 16 <= n`.
        macro_rules! stops {
            ($at:expr) => {{
                let (stops, spaces) = unsafe { classes(hay, $at, tables) };
                stops | spaces
            }};
        }
        first_marked!(n, 0, stops)
    }

    /// [`super::stop_byte`]: 32 bytes per loop iteration (each iteration
    /// pays an epoch check under wasmtime), then 16, then one load
    /// overlapping the scanned part for the tail; under 16 bytes, byte by byte.
    #[target_feature(enable = "simd128")]
    #[inline]
    pub unsafe fn stop(hay: &[u8]) -> usize {
        let n = hay.len();
        if n < 16 {
            return stop_bytewise(hay, 0, false);
        }
        let tables = unsafe { tables() };
        // (stop bytes, spaces) of the 16 bytes at `at`, as bit masks.
        // SAFETY (every use): `at + 16 <= n`.
        macro_rules! classes {
            ($at:expr) => {
                unsafe { classes(hay, $at, tables) }
            };
        }
        let mut i = 0;
        // Bit 0: the byte before `i` is a space (`hay[0]` follows a non-space).
        let mut carry = 0u32;
        while i + 32 <= n {
            let (s0, p0) = classes!(i);
            let (s1, p1) = classes!(i + 16);
            let spaces = p0 | p1 << 16;
            let stops = s0 | s1 << 16 | (spaces & ((spaces << 1) | carry));
            if stops != 0 {
                return i + stops.trailing_zeros() as usize;
            }
            carry = spaces >> 31;
            i += 32;
        }
        if i + 16 <= n {
            let (s0, spaces) = classes!(i);
            let stops = s0 | (spaces & ((spaces << 1) | carry));
            if stops != 0 {
                return i + stops.trailing_zeros() as usize;
            }
            i += 16;
        }
        if i < n {
            // The last 16 bytes, less those already scanned: the byte
            // before `i` is among them, so the space rule needs no carry.
            let last = n - 16;
            let (s0, spaces) = classes!(last);
            let stops = (s0 | (spaces & (spaces << 1))) >> (i - last);
            if stops != 0 {
                return i + stops.trailing_zeros() as usize;
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nibble_tables_match_the_stop_set() {
        for c in 0..=255u8 {
            let nibbles = LO[(c & 15) as usize] & HI[(c >> 4) as usize] != 0;
            assert_eq!(nibbles, STOP[c as usize] != 0, "byte {c:#04x}");
        }
    }

    #[test]
    fn whitespace_runs_and_word_stops_at_every_offset() {
        // Every byte value at every position of strings of 1..40 bytes,
        // against the byte loops (the wide scans in wasm mirror them).
        for len in 1..40 {
            for at in 0..len {
                for c in 0..=255u8 {
                    let mut hay = vec![b' '; len];
                    hay[at] = c;
                    let ws = at + usize::from(matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0C));
                    let ws = if ws > at { len } else { at };
                    assert_eq!(ascii_ws_end(&hay, 0), ws, "{len} {at} {c:#04x}");
                    assert_eq!(ascii_ws_end(&hay, at), ws.max(at), "{len} {at} {c:#04x}");
                    hay.fill(b'x');
                    hay[at] = c;
                    let stop = if c == b' ' || STOP_BYTES.contains(&c) {
                        at
                    } else {
                        len
                    };
                    assert_eq!(word_stop(&hay), stop, "{len} {at} {c:#04x}");
                }
            }
        }
        assert_eq!(ascii_ws_end(b"", 0), 0);
        assert_eq!(word_stop(b""), 0);
    }

    #[test]
    fn stops_at_stop_bytes_and_double_spaces() {
        assert_eq!(stop(b""), 0);
        assert_eq!(stop(b" plain words here"), 17);
        assert_eq!(stop(b" a  b"), 3);
        assert_eq!(stop(b"  a"), 1);
        assert_eq!(stop(b" ab_c"), 3);
        assert_eq!(stop(b" ab\nc"), 3);
        assert_eq!(stop(" caf\u{e9} \u{a0}x".as_bytes()), 7);
        // Curly quotes and dashes are copied: no stop.
        assert_eq!(
            stop(" it\u{2019}d \u{2013} \u{201c}so\u{201d} \u{a9}".as_bytes()),
            23
        );
        // Collapsed or dropped characters stop.
        assert_eq!(stop(" a\u{2019}b\u{a0}c".as_bytes()), 6);
        assert_eq!(stop(" a\u{2019}b\u{ad}c".as_bytes()), 6);
        assert_eq!(stop(" a\u{2019}b\u{200b}c".as_bytes()), 6);
        assert_eq!(stop(" a\u{2019}b\u{feff}c".as_bytes()), 6);
        assert_eq!(stop(" a\u{2019}b\u{2009}c".as_bytes()), 6);
        for at in 0..40 {
            let mut hay = vec![b'x'; 40];
            hay[at] = b'*';
            assert_eq!(stop(&hay), at);
            hay[at] = b' ';
            if at + 1 < 40 {
                hay[at + 1] = b' ';
                assert_eq!(stop(&hay), at + 1);
            }
        }
    }
}
