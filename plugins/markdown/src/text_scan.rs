//! The wide scan behind the inline writer's fast path: how far a text runs
//! as words the writer copies unchanged, separated by single spaces. In wasm
//! it classifies 16 bytes per step with two SIMD128 nibble lookups, so a
//! paragraph costs a few loop iterations (each pays an epoch check under
//! wasmtime) instead of one per byte and a call per word.

/// Bytes that end a run: whitespace other than a space, the characters the
/// writer may escape (`\ * _ ` [ ] < & ~`), and the lead bytes of the
/// multi-byte spaces and invisible characters it collapses or drops. Kept in
/// step with the classes of `render::inline`.
const STOP_BYTES: &[u8] = b"\t\n\r\x0c\\*_`[]<&~\xc2\xe2\xef";

static STOP: [u8; 256] = crate::scan::mark([0u8; 256], STOP_BYTES, 1);

/// Index of the first byte of `hay` that is a stop byte (see [`STOP_BYTES`])
/// or a space right after a space; `hay.len()` if there is none. `hay[0]`
/// counts as following a non-space.
pub fn stop(hay: &[u8]) -> usize {
    let mut i = 0;
    let mut after_space = false;
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: SIMD128 is part of the wasm features wasmtime enables by
        // default (a runtime without it refuses the component); loads stay
        // within `hay`.
        if let Some(found) = unsafe { simd::stop(hay, &mut i, &mut after_space) } {
            return found;
        }
    }
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
    use super::{HI, LO};
    use core::arch::wasm32::*;

    /// Scans whole 16-byte chunks from `*i`; returns the first stop, or
    /// leaves `*i` at the first unscanned byte and `*after_space` set when
    /// the last scanned byte is a space.
    #[target_feature(enable = "simd128")]
    pub unsafe fn stop(hay: &[u8], i: &mut usize, after_space: &mut bool) -> Option<usize> {
        // SAFETY: both tables are 16 bytes; v128_load has no alignment requirement.
        let (lo_t, hi_t) = unsafe {
            (
                v128_load(LO.as_ptr() as *const v128),
                v128_load(HI.as_ptr() as *const v128),
            )
        };
        let (nibble, space, zero) = (u8x16_splat(0x0f), u8x16_splat(b' '), u8x16_splat(0));
        let mut carry = *after_space as u32;
        while *i + 16 <= hay.len() {
            // SAFETY: `*i + 16 <= hay.len()`.
            let v = unsafe { v128_load(hay.as_ptr().add(*i) as *const v128) };
            let lo = u8x16_swizzle(lo_t, v128_and(v, nibble));
            let hi = u8x16_swizzle(hi_t, u8x16_shr(v, 4));
            let plain = u8x16_bitmask(u8x16_eq(v128_and(lo, hi), zero)) as u32;
            let spaces = u8x16_bitmask(u8x16_eq(v, space)) as u32;
            let stops = (!plain & 0xffff) | (spaces & ((spaces << 1) | carry));
            if stops != 0 {
                return Some(*i + stops.trailing_zeros() as usize);
            }
            carry = spaces >> 15;
            *i += 16;
        }
        *after_space = carry != 0;
        None
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
    fn stops_at_stop_bytes_and_double_spaces() {
        assert_eq!(stop(b""), 0);
        assert_eq!(stop(b" plain words here"), 17);
        assert_eq!(stop(b" a  b"), 3);
        assert_eq!(stop(b"  a"), 1);
        assert_eq!(stop(b" ab_c"), 3);
        assert_eq!(stop(b" ab\nc"), 3);
        assert_eq!(stop(" caf\u{e9} \u{a0}x".as_bytes()), 7);
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
