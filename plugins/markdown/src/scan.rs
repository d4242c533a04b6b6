//! Byte search for the tokenizer's hot loops, 16 bytes at a time: SIMD128 in
//! the wasm plugin (wasmtime enables it by default), SSE2 on x86_64, plain
//! loops elsewhere; and the byte-class tables those loops index.

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
pub fn find3(hay: &[u8], a: u8, b: u8, c: u8) -> Option<usize> {
    let mut i = 0;
    #[cfg(any(target_arch = "wasm32", target_arch = "x86_64"))]
    {
        // SAFETY: reads stay within `hay` (16-byte chunks before its end); on
        // wasm the feature is validated when the module is compiled.
        if let Some(found) = unsafe { simd::find3(hay, a, b, c, &mut i) } {
            return Some(found);
        }
    }
    hay[i..]
        .iter()
        .position(|&x| x == a || x == b || x == c)
        .map(|p| i + p)
}

/// Index of the first `needle` in `hay`.
pub fn find(hay: &[u8], needle: u8) -> Option<usize> {
    find3(hay, needle, needle, needle)
}

/// Index of the first occurrence of the two bytes `pair` in `hay`.
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

#[cfg(target_arch = "wasm32")]
mod simd {
    use core::arch::wasm32::*;

    /// Scans whole 16-byte chunks from `*i`; returns a match or leaves `*i`
    /// at the first unscanned byte.
    #[target_feature(enable = "simd128")]
    pub unsafe fn find3(hay: &[u8], a: u8, b: u8, c: u8, i: &mut usize) -> Option<usize> {
        let (va, vb, vc) = (u8x16_splat(a), u8x16_splat(b), u8x16_splat(c));
        while *i + 16 <= hay.len() {
            // SAFETY: `*i + 16 <= hay.len()`; v128_load has no alignment requirement.
            let v = unsafe { v128_load(hay.as_ptr().add(*i) as *const v128) };
            let m = v128_or(v128_or(u8x16_eq(v, va), u8x16_eq(v, vb)), u8x16_eq(v, vc));
            let bits = u8x16_bitmask(m);
            if bits != 0 {
                return Some(*i + bits.trailing_zeros() as usize);
            }
            *i += 16;
        }
        None
    }
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use core::arch::x86_64::*;

    /// Scans whole 16-byte chunks from `*i`; returns a match or leaves `*i`
    /// at the first unscanned byte.
    pub unsafe fn find3(hay: &[u8], a: u8, b: u8, c: u8, i: &mut usize) -> Option<usize> {
        // SAFETY: SSE2 is part of the x86_64 baseline; loads stay within `hay`.
        unsafe {
            let (va, vb, vc) = (
                _mm_set1_epi8(a as i8),
                _mm_set1_epi8(b as i8),
                _mm_set1_epi8(c as i8),
            );
            while *i + 16 <= hay.len() {
                let v = _mm_loadu_si128(hay.as_ptr().add(*i) as *const __m128i);
                let m = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)),
                    _mm_cmpeq_epi8(v, vc),
                );
                let bits = _mm_movemask_epi8(m) as u32;
                if bits != 0 {
                    return Some(*i + bits.trailing_zeros() as usize);
                }
                *i += 16;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_at_every_offset() {
        for len in 0..40 {
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
        }
    }
}
