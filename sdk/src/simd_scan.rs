//! The first byte a SIMD predicate marks, for wasm32 with SIMD128 (plugins' own byte
//! scans share it, e.g. the markdown plugin's). Under wasmtime every loop iteration pays an
//! epoch check, so the loop takes 64 bytes a step, then 16, then one load overlapping the
//! part already scanned for the tail; inputs under 16 bytes go byte by byte.

#[cfg(target_arch = "wasm32")]
use core::arch::wasm32::*;

/// Index of the first byte of `hay` that `hits` marks (a lane of `0xff` in the vector it
/// returns for 16 bytes), or `hay.len()`. `one` is the same test on a single byte, used
/// when `hay` is shorter than a vector. Call it from a function with `simd128` enabled,
/// whose closures inherit the feature.
///
/// # Safety
/// SIMD128 must be available (wasmtime enables it by default and refuses a component
/// that needs it otherwise); loads stay within `hay`.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
#[inline]
pub unsafe fn first_hit(hay: &[u8], hits: impl Fn(v128) -> v128, one: impl Fn(u8) -> bool) -> usize {
    let n = hay.len();
    if n < 16 {
        return hay.iter().position(|&c| one(c)).unwrap_or(n);
    }
    // SAFETY (every use): `at + 16 <= n`; v128_load has no alignment requirement.
    let at = |at: usize| hits(unsafe { v128_load(hay.as_ptr().add(at) as *const v128) });
    let mut i = 0;
    while i + 64 <= n {
        let (m0, m1, m2, m3) = (at(i), at(i + 16), at(i + 32), at(i + 48));
        if v128_any_true(v128_or(v128_or(m0, m1), v128_or(m2, m3))) {
            let bits = u8x16_bitmask(m0) as u64
                | (u8x16_bitmask(m1) as u64) << 16
                | (u8x16_bitmask(m2) as u64) << 32
                | (u8x16_bitmask(m3) as u64) << 48;
            return i + bits.trailing_zeros() as usize;
        }
        i += 64;
    }
    while i + 16 <= n {
        let bits = u8x16_bitmask(at(i)) as u32;
        if bits != 0 {
            return i + bits.trailing_zeros() as usize;
        }
        i += 16;
    }
    if i < n {
        // The last 16 bytes, less those already scanned.
        let last = n - 16;
        let bits = (u8x16_bitmask(at(last)) as u32) >> (i - last);
        if bits != 0 {
            return i + bits.trailing_zeros() as usize;
        }
    }
    n
}
