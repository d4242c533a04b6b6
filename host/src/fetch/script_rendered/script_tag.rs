//! Whether a body holds `<script` anywhere (ASCII case ignored): a page without it has no
//! script start tag for the check's reader to find, so it runs no script and is never
//! script-rendered, whatever the rest of its markup; [`super::detect_bytes`] answers it
//! without reading its markup. Most pages with script name one near their top, so the
//! search is short on them; on a page without, it is one pass over the body.
//!
//! On x86-64 the candidates (`<`, then `s` and `c` in any case) are found 64 or 16 bytes a
//! step (AVX2 when the CPU has it, else SSE2, part of every x86-64 target), each then
//! compared in full; elsewhere each `<` found by `memchr` is compared.

/// The tag's start, lowercase.
const TAG: &[u8; 7] = b"<script";

/// Whether `body` holds `<script` (ASCII case ignored).
pub(crate) fn has_script_tag(body: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { x86::avx2(body) };
        }
        x86::sse2(body)
    }
    #[cfg(not(target_arch = "x86_64"))]
    memchr::memchr_iter(b'<', body).any(|at| tag_at(body, at))
}

/// Whether `body` holds the tag at `at`.
#[inline(always)]
fn tag_at(body: &[u8], at: usize) -> bool {
    body.get(at..at + TAG.len())
        .is_some_and(|w| w.eq_ignore_ascii_case(TAG))
}

/// Whether the tag starts at `from` or later, a byte at a time (a short body, a last step).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn tag_from(body: &[u8], from: usize) -> bool {
    (from..body.len()).any(|at| body[at] == b'<' && tag_at(body, at))
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{tag_at, tag_from};
    use std::arch::x86_64::{
        __m128i, __m256i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_set1_epi8, _mm256_testz_si256,
    };

    /// Bytes a step reads past its start: a lane's `<` and the two bytes after it.
    const READ_PAST: usize = 2;

    /// [`super::has_script_tag`] by SSE2, sixteen candidates a step.
    #[inline(always)]
    pub(super) fn sse2(body: &[u8]) -> bool {
        let step = 16;
        let mut at = 0;
        while at + step + READ_PAST <= body.len() {
            // SAFETY: SSE2 is part of every x86-64 target; the loads read
            // `body[at..at + 18]`, in bounds (the loop's condition), unaligned.
            let bits = unsafe {
                let p = body.as_ptr().add(at);
                let case = _mm_set1_epi8(0x20);
                let lt = _mm_cmpeq_epi8(_mm_loadu_si128(p.cast::<__m128i>()), _mm_set1_epi8(b'<' as i8));
                let s = _mm_or_si128(_mm_loadu_si128(p.add(1).cast::<__m128i>()), case);
                let c = _mm_or_si128(_mm_loadu_si128(p.add(2).cast::<__m128i>()), case);
                let s = _mm_cmpeq_epi8(s, _mm_set1_epi8(b's' as i8));
                let c = _mm_cmpeq_epi8(c, _mm_set1_epi8(b'c' as i8));
                _mm_movemask_epi8(_mm_and_si128(lt, _mm_and_si128(s, c))) as u32
            };
            if any_tag(body, at, u64::from(bits)) {
                return true;
            }
            at += step;
        }
        tag_from(body, at)
    }

    /// [`super::has_script_tag`] by AVX2: sixty-four candidates a step (two vectors, one
    /// test), then thirty-two.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn avx2(body: &[u8]) -> bool {
        let mut at = 0;
        while at + 64 + READ_PAST <= body.len() {
            // SAFETY: the caller checked AVX2; the reads end at `at + 66`, in bounds.
            let (low, high) = unsafe { (candidates(body, at), candidates(body, at + 32)) };
            let either = _mm256_or_si256(low, high);
            if _mm256_testz_si256(either, either) == 0 {
                let bits = u64::from(_mm256_movemask_epi8(low) as u32)
                    | (u64::from(_mm256_movemask_epi8(high) as u32) << 32);
                if any_tag(body, at, bits) {
                    return true;
                }
            }
            at += 64;
        }
        while at + 32 + READ_PAST <= body.len() {
            // SAFETY: the caller checked AVX2; the reads end at `at + 34`, in bounds.
            let bits = unsafe { _mm256_movemask_epi8(candidates(body, at)) as u32 };
            if any_tag(body, at, u64::from(bits)) {
                return true;
            }
            at += 32;
        }
        tag_from(body, at)
    }

    /// Per byte of `body[at..at + 32]`, all ones where a candidate starts (`<`, then `s`
    /// and `c` in any case).
    ///
    /// # Safety
    /// The CPU must have AVX2, and `body` at least `at + 34` bytes.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn candidates(body: &[u8], at: usize) -> __m256i {
        debug_assert!(at + 32 + READ_PAST <= body.len());
        // SAFETY: the caller's promises; unaligned loads of `body[at..at + 34]`.
        unsafe {
            let p = body.as_ptr().add(at);
            let case = _mm256_set1_epi8(0x20);
            let lt = _mm256_cmpeq_epi8(
                _mm256_loadu_si256(p.cast::<__m256i>()),
                _mm256_set1_epi8(b'<' as i8),
            );
            let s = _mm256_or_si256(_mm256_loadu_si256(p.add(1).cast::<__m256i>()), case);
            let c = _mm256_or_si256(_mm256_loadu_si256(p.add(2).cast::<__m256i>()), case);
            let s = _mm256_cmpeq_epi8(s, _mm256_set1_epi8(b's' as i8));
            let c = _mm256_cmpeq_epi8(c, _mm256_set1_epi8(b'c' as i8));
            _mm256_and_si256(lt, _mm256_and_si256(s, c))
        }
    }

    /// Whether the tag starts at one of the candidates `bits` marks from `at` on.
    #[inline(always)]
    fn any_tag(body: &[u8], at: usize, mut bits: u64) -> bool {
        while bits != 0 {
            if tag_at(body, at + bits.trailing_zeros() as usize) {
                return true;
            }
            bits &= bits - 1;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(body: &[u8]) -> bool {
        body.windows(TAG.len()).any(|w| w.eq_ignore_ascii_case(TAG))
    }

    /// Every search this target can run, each against the naive one.
    fn check(body: &[u8]) {
        let expected = naive(body);
        assert_eq!(
            has_script_tag(body),
            expected,
            "{:?}",
            String::from_utf8_lossy(body)
        );
        assert_eq!(tag_from(body, 0), expected);
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(x86::sse2(body), expected, "sse2 {body:?}");
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2.
                assert_eq!(unsafe { x86::avx2(body) }, expected, "avx2 {body:?}");
            }
        }
    }

    #[test]
    fn the_tag_is_found_at_every_offset_in_any_case_and_near_misses_are_not() {
        let words: &[&[u8]] = &[
            b"<script",
            b"<SCRIPT",
            b"<ScRiPt",
            b"<sCRIPt",
            b"<scrip",
            b"<scripT",
            b"<sc",
            b"< script",
            b"<\x73cript",
            b"<\xd3cript",
            b"<s\xc3ript",
            b"\x1cscript",
            b"<scr\xc9pt",
            b"<span",
            b"script",
        ];
        // Across the vector steps and their ends, on fillers with bytes past ASCII too.
        for filler in [b'x', b' ', 0x80, 0xff, b'<'] {
            for len in 0..150 {
                for at in 0..=len {
                    for word in words {
                        let mut body = vec![filler; len + word.len()];
                        body[at..at + word.len()].copy_from_slice(word);
                        check(&body);
                        // A body that ends inside the word.
                        check(&body[..at + word.len() - 1]);
                    }
                }
            }
        }
    }

    #[test]
    fn random_bodies_of_the_pieces_that_matter_agree_with_the_naive_search() {
        let pieces: &[&[u8]] = &[
            b"<", b"s", b"S", b"c", b"C", b"ript", b"RiPt", b"<sc", b"<SC", b"<s", b"x", b"\xd3", b"\xf3",
            b" ", b"<scr", b"ipt",
        ];
        let mut found = 0;
        for body in crate::fetch::script_rendered::pieced_bodies(0x2545_f491_4f6c_dd1d, pieces, 0..40, 20_000)
        {
            check(&body);
            found += usize::from(naive(&body));
        }
        assert!((500..19_500).contains(&found), "{found}");
    }
}
