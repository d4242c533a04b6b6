//! Byte search for the tokenizer's and post-processing's loops, 16 bytes at
//! a time (64 per loop iteration in wasm): SIMD128 in the wasm plugin
//! (wasmtime enables it by default), SSE2 on x86_64, plain loops elsewhere;
//! and the byte-class tables those loops index.

/// HTML whitespace: space, tab, line feed, carriage return, form feed.
pub const HTML_WS: &[u8] = b" \t\n\r\x0c";

/// `table` with `class` set on every byte of `bytes`: builds the hot loops'
/// 256-entry byte-class tables at compile time.
pub const fn mark(mut table: [u8; 256], bytes: &[u8], class: u8) -> [u8; 256] {
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] |= class;
        i += 1;
    }
    table
}

/// Index of the first byte in `hay` equal to `a`, `b` or `c`.
#[inline(always)]
pub fn find3(hay: &[u8], a: u8, b: u8, c: u8) -> Option<usize> {
    #[cfg(any(target_arch = "wasm32", target_arch = "x86_64"))]
    {
        // SAFETY: reads stay within `hay`; on wasm the feature is validated
        // when the module is compiled.
        let at = unsafe { simd::find3(hay, a, b, c) };
        (at < hay.len()).then_some(at)
    }
    #[cfg(not(any(target_arch = "wasm32", target_arch = "x86_64")))]
    hay.iter().position(|&x| x == a || x == b || x == c)
}

/// Whether a link destination has no byte `push_url` changes or counts:
/// none below `!` (spaces, line breaks, controls) and no `( ) < > \\`.
/// A `false` may be wrong only towards caution (other controls).
pub fn url_is_plain(url: &[u8]) -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: SIMD128 is part of the wasm features wasmtime enables by
        // default; loads stay within `url`.
        unsafe { simd::url_is_plain(url) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    url.iter().all(|&c| url_byte_is_plain(c))
}

/// One byte of [`url_is_plain`].
fn url_byte_is_plain(c: u8) -> bool {
    c > b' ' && !matches!(c, b'(' | b')' | b'<' | b'>' | b'\\')
}

/// Index of the first `needle` in `hay`.
#[inline(always)]
pub fn find(hay: &[u8], needle: u8) -> Option<usize> {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: as in `find3`.
        let at = unsafe { simd::find1(hay, needle) };
        (at < hay.len()).then_some(at)
    }
    #[cfg(not(target_arch = "wasm32"))]
    find3(hay, needle, needle, needle)
}

/// Index of the first occurrence of the two bytes `pair` in `hay`.
#[inline(always)]
pub fn find2(hay: &[u8], pair: [u8; 2]) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = find(&hay[from..], pair[0]) {
        let at = from + p;
        if hay.get(at + 1) == Some(&pair[1]) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Whether `b` is [`HTML_WS`] alone (true when empty): eight bytes a
/// step, each tested against a 64-bit set without a branch or a table
/// load, after a first byte tested alone (most text starts with a letter).
#[inline]
pub fn all_html_ws(b: &[u8]) -> bool {
    const SET: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\n' | 1 << b'\r' | 1 << 0x0C;
    let ws = |c: u64| SET.wrapping_shr(c as u32) & u64::from(c < 64);
    if b.first().is_some_and(|&c| ws(c as u64) == 0) {
        return false;
    }
    let mut chunks = b.chunks_exact(8);
    for chunk in &mut chunks {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let mut all = 1;
        for k in 0..8 {
            all &= ws(w >> (8 * k) & 0xff);
        }
        if all == 0 {
            return false;
        }
    }
    chunks.remainder().iter().all(|&c| ws(c as u64) != 0)
}

#[cfg(target_arch = "wasm32")]
mod simd {
    use core::arch::wasm32::*;

    /// Index of the first byte of `hay` equal to `a`, `b` or `c`, or `hay.len()`
    /// ([`distill_sdk::simd_scan::first_hit`]).
    #[target_feature(enable = "simd128")]
    #[inline]
    pub unsafe fn find3(hay: &[u8], a: u8, b: u8, c: u8) -> usize {
        let (va, vb, vc) = (u8x16_splat(a), u8x16_splat(b), u8x16_splat(c));
        let hits = |v| v128_or(v128_or(u8x16_eq(v, va), u8x16_eq(v, vb)), u8x16_eq(v, vc));
        // SAFETY: this function enables simd128; loads stay within `hay`.
        unsafe { distill_sdk::simd_scan::first_hit(hay, hits, |x| x == a || x == b || x == c) }
    }

    /// Index of the first byte of `hay` equal to `a`, or `hay.len()`: one
    /// compare a vector where [`find3`] makes three.
    #[target_feature(enable = "simd128")]
    #[inline]
    pub unsafe fn find1(hay: &[u8], a: u8) -> usize {
        let va = u8x16_splat(a);
        // SAFETY: this function enables simd128; loads stay within `hay`.
        unsafe { distill_sdk::simd_scan::first_hit(hay, |v| u8x16_eq(v, va), |x| x == a) }
    }

    /// [`super::url_is_plain`], 16 bytes at a time with one load
    /// overlapping the scanned part for the tail.
    #[target_feature(enable = "simd128")]
    pub unsafe fn url_is_plain(url: &[u8]) -> bool {
        let n = url.len();
        if n < 16 {
            return url.iter().all(|&c| super::url_byte_is_plain(c));
        }
        let (low, open, close) = (u8x16_splat(b' ' + 1), u8x16_splat(b'('), u8x16_splat(b')'));
        let (lt, gt, backslash) = (u8x16_splat(b'<'), u8x16_splat(b'>'), u8x16_splat(b'\\'));
        // SAFETY (every use): `at + 16 <= n`; v128_load has no alignment requirement.
        macro_rules! any_special {
            ($at:expr) => {{
                let v = unsafe { v128_load(url.as_ptr().add($at) as *const v128) };
                let m = v128_or(
                    v128_or(
                        u8x16_lt(v, low),
                        v128_or(u8x16_eq(v, open), u8x16_eq(v, close)),
                    ),
                    v128_or(
                        u8x16_eq(v, lt),
                        v128_or(u8x16_eq(v, gt), u8x16_eq(v, backslash)),
                    ),
                );
                v128_any_true(m)
            }};
        }
        let mut i = 0;
        while i + 16 <= n {
            if any_special!(i) {
                return false;
            }
            i += 16;
        }
        // The last 16 bytes (overlapping what was scanned: a plain byte
        // stays plain).
        i == n || !any_special!(n - 16)
    }
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use core::arch::x86_64::*;

    /// Index of the first byte of `hay` equal to `a`, `b` or `c`, or
    /// `hay.len()`: 16 bytes at a time, then one load overlapping the
    /// scanned part for the tail; under 16 bytes, byte by byte.
    pub unsafe fn find3(hay: &[u8], a: u8, b: u8, c: u8) -> usize {
        let n = hay.len();
        if n < 16 {
            return hay.iter().position(|&x| x == a || x == b || x == c).unwrap_or(n);
        }
        // SAFETY: SSE2 is part of the x86_64 baseline; every load is of 16
        // bytes at `at` with `at + 16 <= n`.
        unsafe {
            let (va, vb, vc) = (
                _mm_set1_epi8(a as i8),
                _mm_set1_epi8(b as i8),
                _mm_set1_epi8(c as i8),
            );
            let hits = |at: usize| {
                let v = _mm_loadu_si128(hay.as_ptr().add(at) as *const __m128i);
                let m = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)),
                    _mm_cmpeq_epi8(v, vc),
                );
                _mm_movemask_epi8(m) as u32
            };
            let mut i = 0;
            while i + 16 <= n {
                let bits = hits(i);
                if bits != 0 {
                    return i + bits.trailing_zeros() as usize;
                }
                i += 16;
            }
            if i < n {
                let last = n - 16;
                let bits = hits(last) >> (i - last);
                if bits != 0 {
                    return i + bits.trailing_zeros() as usize;
                }
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_alone_at_every_length_and_offset() {
        for len in 0..40 {
            assert!(all_html_ws(&vec![b' '; len]));
            for at in 0..len {
                for c in 0..=255u8 {
                    let mut hay = vec![b'\n'; len];
                    hay[at] = c;
                    assert_eq!(all_html_ws(&hay), HTML_WS.contains(&c), "{len} {at} {c:#04x}");
                }
            }
        }
    }

    #[test]
    fn finds_at_every_offset() {
        for len in 0..140 {
            for at in 0..len {
                let mut hay = vec![b'x'; len];
                hay[at] = b'<';
                assert_eq!(find(&hay, b'<'), Some(at), "{len} {at}");
                assert_eq!(find3(&hay, b'&', b'\r', b'<'), Some(at));
                if at + 1 < len {
                    hay[at + 1] = b'/';
                    assert_eq!(find2(&hay, *b"</"), Some(at));
                }
            }
            assert_eq!(find(&vec![b'x'; len], b'<'), None);
            assert!(url_is_plain(&vec![b'x'; len]));
            for at in 0..len {
                for c in [b' ', b'\t', b'\n', b'(', b')', b'<', b'>', b'\\', 0x01] {
                    let mut url = vec![b'x'; len];
                    url[at] = c;
                    assert!(!url_is_plain(&url), "{len} {at} {c}");
                }
            }
            // The first of several.
            for at in 0..len {
                let mut hay = vec![b'x'; len];
                for j in (at..len).step_by(7) {
                    hay[j] = [b'&', b'\r', b'<'][j % 3];
                }
                assert_eq!(find3(&hay, b'&', b'\r', b'<'), Some(at), "{len} {at}");
            }
        }
    }
}
