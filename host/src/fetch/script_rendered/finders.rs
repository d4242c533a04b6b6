//! The byte searches of the check's reader. Its tokens are short, so `memchr`'s own
//! cost per call counts: on x86-64 the first 64 bytes are searched in line, sixteen at a
//! time, and past them, with AVX2, the crate's searchers for the reader's few bytes are
//! built once and held (no per-call dispatch, no needle set up again); elsewhere
//! `memchr`'s functions. Same answers either way.

#[cfg(target_arch = "x86_64")]
use memchr::arch::x86_64::avx2::memchr::{One, Three};
#[cfg(target_arch = "x86_64")]
use std::sync::LazyLock;

/// The single bytes searched for, in the order of `Searchers::ones`.
const BYTES: [u8; 4] = [b'<', b'>', b'"', b'\''];
/// Where `tag_stop`'s three bytes are in [`BYTES`].
const TAG_STOP: [usize; 3] = [1, 2, 3];

#[cfg(target_arch = "x86_64")]
struct Searchers {
    ones: [One; 4],
    tag_stop: Three,
}

/// `None` without AVX2.
#[cfg(target_arch = "x86_64")]
static AVX2: LazyLock<Option<Searchers>> = LazyLock::new(|| {
    let [Some(lt), Some(gt), Some(double), Some(single)] = BYTES.map(One::new) else {
        return None;
    };
    let [a, b, c] = TAG_STOP.map(|i| BYTES[i]);
    Some(Searchers {
        ones: [lt, gt, double, single],
        tag_stop: Three::new(a, b, c)?,
    })
});

/// The first `BYTES[which]` in `h`.
#[inline(always)]
fn find(which: usize, h: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(at) = near(h, [BYTES[which]]) {
        return Some(at);
    }
    find_far(which, h)
}

/// [`find`] by the held searcher.
#[inline(always)]
fn find_far(which: usize, h: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(s) = &*AVX2 {
        return s.ones[which].find(h);
    }
    memchr::memchr(BYTES[which], h)
}

/// The first of any of `needles` in the first 64 bytes of `h`, sixteen at a time in line;
/// `None` when they hold none or `h` runs out first (the search goes on with `memchr`).
/// Most of the reader's searches end within a tag or a short text, where `memchr`'s own
/// set-up (a call, its length checks, a first unaligned 32-byte step) costs more. Written
/// out: as a loop the compiler keeps it rolled, a few instructions more a search.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn near<const N: usize>(h: &[u8], needles: [u8; N]) -> Option<usize> {
    if let Some(at) = first_sixteen(h, needles)? {
        return Some(at);
    }
    if let Some(at) = first_sixteen(&h[16..], needles)? {
        return Some(16 + at);
    }
    if let Some(at) = first_sixteen(&h[32..], needles)? {
        return Some(32 + at);
    }
    Some(48 + first_sixteen(&h[48..], needles)??)
}

/// The first of any of `needles` in the first sixteen bytes of `h` by one SSE2 step (part
/// of every x86-64 target): `None` when `h` is shorter, `Some(None)` when they hold none.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn first_sixteen<const N: usize>(h: &[u8], needles: [u8; N]) -> Option<Option<usize>> {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let head = h.get(..16)?;
    // SAFETY: SSE2 is part of every x86-64 target; the load reads `head`'s 16 bytes,
    // with no alignment requirement.
    let bits = unsafe {
        let v = _mm_loadu_si128(head.as_ptr().cast::<__m128i>());
        let mut hits = _mm_cmpeq_epi8(v, _mm_set1_epi8(needles[0] as i8));
        for &n in &needles[1..] {
            hits = _mm_or_si128(hits, _mm_cmpeq_epi8(v, _mm_set1_epi8(n as i8)));
        }
        _mm_movemask_epi8(hits) as u32
    };
    Some((bits != 0).then(|| bits.trailing_zeros() as usize))
}

/// The first `<` in `h`.
#[inline(always)]
pub(crate) fn lt(h: &[u8]) -> Option<usize> {
    find(0, h)
}

/// The first `>` in `h`.
#[inline(always)]
pub(crate) fn gt(h: &[u8]) -> Option<usize> {
    find(1, h)
}

/// The first `quote` (`"`; anything else is taken for `'`) in `h`.
#[inline(always)]
pub(crate) fn quote(quote: u8, h: &[u8]) -> Option<usize> {
    find(if quote == b'"' { 2 } else { 3 }, h)
}

/// The first `>`, `"` or `'` in `h`.
#[inline(always)]
pub(crate) fn tag_stop(h: &[u8]) -> Option<usize> {
    let [a, b, c] = TAG_STOP.map(|i| BYTES[i]);
    #[cfg(target_arch = "x86_64")]
    if let Some(at) = near(h, [a, b, c]) {
        return Some(at);
    }
    far_tag_stop(h)
}

/// [`tag_stop`] by the held searcher.
#[inline(always)]
fn far_tag_stop(h: &[u8]) -> Option<usize> {
    let [a, b, c] = TAG_STOP.map(|i| BYTES[i]);
    #[cfg(target_arch = "x86_64")]
    if let Some(s) = &*AVX2 {
        return s.tag_stop.find(h);
    }
    memchr::memchr3(a, b, c, h)
}

/// Every position `find` (one of the searches above) finds in `h`, in order.
pub(crate) fn all(h: &[u8], find: fn(&[u8]) -> Option<usize>) -> impl Iterator<Item = usize> + '_ {
    let mut from = 0;
    std::iter::from_fn(move || {
        let at = from + find(h.get(from..)?)?;
        from = at + 1;
        Some(at)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_search_finds_what_memchr_finds() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for len in 0..300 {
            let mut hay: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    b"ab<>=\"'x"[(state % 8) as usize]
                })
                .collect();
            // Long stretches without any needle too, past what one vector step reads.
            if len > 100 {
                hay[..len - 3].fill(b'x');
            }
            assert_eq!(lt(&hay), memchr::memchr(b'<', &hay));
            assert_eq!(gt(&hay), memchr::memchr(b'>', &hay));
            assert_eq!(quote(b'"', &hay), memchr::memchr(b'"', &hay));
            assert_eq!(quote(b'\'', &hay), memchr::memchr(b'\'', &hay));
            assert_eq!(tag_stop(&hay), memchr::memchr3(b'>', b'"', b'\'', &hay));
            assert!(all(&hay, lt).eq(memchr::memchr_iter(b'<', &hay)));
        }
        // One needle at every offset, across the in-line steps and past them.
        for len in 0..140 {
            for at in 0..len {
                for needle in *b"<>=\"'" {
                    let mut hay = vec![b'x'; len];
                    hay[at] = needle;
                    let one = |b: u8| (b == needle).then_some(at);
                    assert_eq!(lt(&hay), one(b'<'));
                    assert_eq!(gt(&hay), one(b'>'));
                    assert_eq!(quote(b'"', &hay), one(b'"'));
                    assert_eq!(quote(b'\'', &hay), one(b'\''));
                    let stop = matches!(needle, b'>' | b'"' | b'\'').then_some(at);
                    assert_eq!(tag_stop(&hay), stop, "{len} {at}");
                }
            }
        }
    }
}
