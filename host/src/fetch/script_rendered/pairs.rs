//! Whether a byte pair occurs in a tag's attribute source: the check's pre-tests that
//! spare most tags the search of their attributes. On x86-64 sixteen neighbouring pairs a
//! step by SSE2 (part of every x86-64 target: the source and the source one byte on,
//! compared lane by lane), the last step overlapping the one before, with an exit after
//! each; a shorter source padded into one step. Other targets a byte at a time.

/// A pair: the first and the second byte, each compared once OR-ed with the mask (0x20 to
/// ignore a letter's ASCII case, 0 to take them as they are).
pub(crate) type Pair = (u8, u8, u8);

/// Whether `s` holds one of `pairs` at two neighbouring bytes (no pair's first byte is 0
/// or the mask alone).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn has_pair<const N: usize>(s: &[u8], pairs: [Pair; N]) -> bool {
    debug_assert!(pairs.iter().all(|&(a, _, mask)| a != 0 && a != mask));
    if s.len() > 16 {
        return sixteen_at_a_time(s, pairs);
    }
    // One step over the source padded with zeros: no pair starts with one, case folded or not.
    let mut padded = [0u8; 17];
    padded[..s.len()].copy_from_slice(s);
    sixteen_at_a_time(&padded, pairs)
}

/// Whether `s` holds one of `pairs` at two neighbouring bytes.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn has_pair<const N: usize>(s: &[u8], pairs: [Pair; N]) -> bool {
    s.windows(2).any(|w| {
        pairs
            .iter()
            .any(|&(a, b, mask)| w[0] | mask == a && w[1] | mask == b)
    })
}

/// [`has_pair`] on a source of at least 17 bytes (sixteen pairs).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sixteen_at_a_time<const N: usize>(s: &[u8], pairs: [Pair; N]) -> bool {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_setzero_si128,
    };
    // The last pair starts at `last`; a step reads `s[at..at + 17]`.
    let last = s.len() - 17;
    let mut at = 0;
    loop {
        let step = &s[at..at + 17];
        // SAFETY: SSE2 is part of every x86-64 target; the loads read `step[..16]` and
        // `step[1..17]`, with no alignment requirement.
        let hit = unsafe {
            let firsts = _mm_loadu_si128(step.as_ptr().cast::<__m128i>());
            let seconds = _mm_loadu_si128(step.as_ptr().add(1).cast::<__m128i>());
            let mut hits = _mm_setzero_si128();
            for (a, b, mask) in pairs {
                let mask = _mm_set1_epi8(mask as i8);
                let first = _mm_cmpeq_epi8(_mm_or_si128(firsts, mask), _mm_set1_epi8(a as i8));
                let second = _mm_cmpeq_epi8(_mm_or_si128(seconds, mask), _mm_set1_epi8(b as i8));
                hits = _mm_or_si128(hits, _mm_and_si128(first, second));
            }
            _mm_movemask_epi8(hits) != 0
        };
        if hit {
            return true;
        }
        if at == last {
            return false;
        }
        at = (at + 16).min(last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_at_every_offset_is_found() {
        let naive = |s: &[u8], pairs: &[Pair]| {
            s.windows(2).any(|w| {
                pairs
                    .iter()
                    .any(|&(a, b, mask)| w[0] | mask == a && w[1] | mask == b)
            })
        };
        let id = [(b'i', b'd', 0x20)];
        let three = [(b'r', b'o', 0), (b'a', b'p', 0), (b'_', b'_', 0)];
        for len in 0..80 {
            for at in 0..len {
                for pair in [
                    *b"id", *b"iD", *b"Id", *b"ID", *b"I\x04", *b"ro", *b"rO", *b"Ro", *b"ap", *b"__",
                    *b"pa", *b"i\xc4", *b"\xc9d",
                ] {
                    let mut s = vec![b'x'; len];
                    s[at] = pair[0];
                    if at + 1 < len {
                        s[at + 1] = pair[1];
                    }
                    assert_eq!(has_pair(&s, id), naive(&s, &id), "{s:?}");
                    assert_eq!(has_pair(&s, three), naive(&s, &three), "{s:?}");
                }
            }
        }
    }
}
