//! Text statistics of one text node for the arena ([`super::arena`]): non-whitespace
//! characters, words, sentence punctuation, a hash of its letters and digits, and the
//! furniture, comment-title, bare-URL and pointer-title checks of [`super::phrases`].

pub(super) use swar::HASH_SEED;
#[cfg(test)]
use swar::high_alphanumeric;

/// Text statistics (characters are non-whitespace characters).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Text {
    pub chars: u32,
    /// Characters inside links.
    pub link_chars: u32,
    pub words: u32,
    pub link_words: u32,
    /// Sentence punctuation (`.,;:!?` and their CJK forms).
    pub punct: u32,
    /// Links (`<a>` elements) owned.
    pub links: u32,
    /// Characters (and link characters) inside inline chrome: buttons styled as links,
    /// share links, inline ads.
    pub chrome_chars: u32,
    pub chrome_link_chars: u32,
    /// Text nodes with letters, and how many of them are furniture ("Share", "Read more",
    /// see [`super::phrases`]): a block whose every text node is furniture is chrome.
    pub text_nodes: u32,
    pub furniture_nodes: u32,
    /// Text nodes that title a comment section ("12 Comments", "2 thoughts on …").
    pub comment_titles: u32,
    /// Link texts that are a bare absolute URL (an address written out: a source, a
    /// reference), not a title.
    pub url_links: u32,
    /// Short texts that title a block of pointers to other pages ("Related posts").
    pub related_titles: u32,
}

impl Text {
    pub(super) fn add(&mut self, o: &Text) {
        self.chars += o.chars;
        self.link_chars += o.link_chars;
        self.words += o.words;
        self.link_words += o.link_words;
        self.punct += o.punct;
        self.links += o.links;
        self.chrome_chars += o.chrome_chars;
        self.chrome_link_chars += o.chrome_link_chars;
        self.text_nodes += o.text_nodes;
        self.furniture_nodes += o.furniture_nodes;
        self.comment_titles += o.comment_titles;
        self.url_links += o.url_links;
        self.related_titles += o.related_titles;
    }

    /// Share of the characters that sit inside links.
    pub fn link_density(&self) -> f32 {
        if self.chars == 0 {
            0.0
        } else {
            self.link_chars as f32 / self.chars as f32
        }
    }
}

/// Where `b`'s first byte that is not ASCII whitespace (`u8::is_ascii_whitespace`) is.
/// The whitespace between tags (most text nodes of a page) is a line break and an
/// indent of a few to a few dozen bytes: on x86_64 sixteen bytes are compared at once
/// with SSE2 (part of every x86_64 CPU), a node of 4 to 15 bytes in one look at its
/// first and last bytes; elsewhere eight bytes a step by bit tricks.
#[cfg(target_arch = "x86_64")]
pub(super) fn first_non_space(b: &[u8]) -> Option<usize> {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_set_epi64x};
    let n = b.len();
    if n < 4 {
        return b.iter().position(|c| !c.is_ascii_whitespace());
    }
    if n < 16 {
        // The first `k` bytes in the low half, the last `k` in the high half (they may
        // overlap: a byte seen twice is marked twice, the first mark is the first byte).
        // With `k` = 4 each half is the 4 bytes and 4 spaces.
        let (k, lo, hi) = if n >= 8 {
            (8, read_u64(b, 0), read_u64(b, n - 8))
        } else {
            const SPACES: u64 = 0x2020_2020_0000_0000;
            (
                4,
                u64::from(read_u32(b, 0)) | SPACES,
                u64::from(read_u32(b, n - 4)) | SPACES,
            )
        };
        // SAFETY: SSE2 is part of the x86_64 baseline, enabled in every build for this
        // target; the vector is built from two values, no memory is read.
        let v = unsafe { _mm_set_epi64x(hi as i64, lo as i64) };
        let other = not_space_16(v);
        return (other != 0).then(|| {
            let j = other.trailing_zeros() as usize;
            if j < 8 { j } else { n - k + (j - 8) }
        });
    }
    let mut i = 0;
    loop {
        // (Past the last whole block, the last sixteen bytes: those it repeats are
        // whitespace.)
        let at = i.min(n - 16);
        let block = &b[at..at + 16];
        // SAFETY: SSE2 as above; `block` holds the 16 readable bytes the unaligned load
        // reads.
        let v: __m128i = unsafe { _mm_loadu_si128(block.as_ptr().cast()) };
        let other = not_space_16(v);
        if other != 0 {
            return Some(at + other.trailing_zeros() as usize);
        }
        i = at + 16;
        if i >= n {
            return None;
        }
    }
}

/// Bit `i` set when byte `i` of `v` is not ASCII whitespace (tab, line feed, form feed,
/// carriage return, space).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn not_space_16(v: std::arch::x86_64::__m128i) -> u32 {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
    // SAFETY: SSE2 is part of the x86_64 baseline, enabled in every build for this target.
    let space = unsafe {
        let is = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
        let a = _mm_or_si128(is(b' '), is(b'\n'));
        let c = _mm_or_si128(is(b'\t'), is(b'\r'));
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, c), is(0x0c))) as u32
    };
    !space & 0xffff
}

/// The eight bytes of `b` from `at` (little-endian).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn read_u64(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// The four bytes of `b` from `at` (little-endian).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn read_u32(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

/// Where `b`'s first byte that is not ASCII whitespace (`u8::is_ascii_whitespace`) is:
/// eight bytes a step, the last step overlapping the one before it.
#[cfg(not(target_arch = "x86_64"))]
pub(super) fn first_non_space(b: &[u8]) -> Option<usize> {
    if b.len() < 8 {
        return b.iter().position(|c| !c.is_ascii_whitespace());
    }
    let mut i = 0;
    loop {
        // (Past the last whole step, the last eight bytes: those it repeats are whitespace.)
        let at = i.min(b.len() - 8);
        let mut word = [0u8; 8];
        word.copy_from_slice(&b[at..at + 8]);
        let other = not_space(u64::from_le_bytes(word));
        if other != 0 {
            return Some(at + (other.trailing_zeros() / 8) as usize);
        }
        i = at + 8;
        if i >= b.len() {
            return None;
        }
    }
}

/// The high bit of each byte of `x` that is not ASCII whitespace (tab, line feed, form
/// feed, carriage return, space), exactly: no carry crosses bytes.
#[cfg(not(target_arch = "x86_64"))]
fn not_space(x: u64) -> u64 {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = LOW << 7;
    // The high bit of each byte of `v` that is not zero.
    let nonzero = |v: u64| (((v & !HIGH) + !HIGH) | v) & HIGH;
    let differs = |c: u8| nonzero(x ^ (LOW * u64::from(c)));
    differs(b' ') & differs(b'\n') & differs(b'\t') & differs(b'\r') & differs(0x0c)
}

/// Statistics of one text node, and the hash of its letters and digits (ASCII lower-cased):
/// see [`swar`] for the counting loop and the hash.
#[cfg(test)]
pub(super) fn text_stats(s: &str, in_link: bool, in_chrome: bool, in_heading: bool) -> (Text, u64) {
    let start = s
        .bytes()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(s.len());
    text_stats_from(s, start, in_link, in_chrome, in_heading)
}

/// [`text_stats`] of `s`, whose bytes before `start` are ASCII whitespace (the caller has
/// already read them): the count starts there. (Out of line: inlined into the arena's
/// walk, its word loop ran short of registers.)
#[inline(never)]
pub(super) fn text_stats_from(
    s: &str,
    start: usize,
    in_link: bool,
    in_chrome: bool,
    in_heading: bool,
) -> (Text, u64) {
    let b = s.as_bytes();
    let (chars, words, punct, h) = swar::counts(s, start);
    let mut t = Text {
        chars,
        words,
        punct,
        ..Text::default()
    };
    if in_link {
        t.link_chars = t.chars;
        t.link_words = t.words;
    }
    if in_chrome {
        t.chrome_chars = t.chars;
        t.chrome_link_chars = t.link_chars;
    }
    if t.words > 0 {
        t.text_nodes = 1;
        t.comment_titles = u32::from(in_heading && t.words <= 16 && super::phrases::is_comment_title(s));
        // (Both need the trimmed text to open with one byte: most texts are ruled out by
        // the byte at `start`, without trimming them.)
        let first = b[start];
        let bare_url = may_open_with(first, b'h') && super::phrases::is_bare_url(s);
        let (furniture, pointer) = if t.words <= 6 {
            super::phrases::short_text_kinds(s)
        } else {
            (false, false)
        };
        t.furniture_nodes = u32::from(
            furniture
                || (in_link && may_open_with(first, b'/') && super::phrases::is_bare_path(s))
                || (!in_link && bare_url),
        );
        t.url_links = u32::from(in_link && bare_url);
        t.related_titles = u32::from(pointer);
    }
    (t, h)
}

/// Whether a text whose first byte past ASCII whitespace (`u8::is_ascii_whitespace`) is
/// `first` may, trimmed as `str::trim` trims, open with the ASCII byte `want`: an ASCII
/// byte other than U+000B (which `str::trim` also trims) is where the trimmed text opens.
#[inline]
fn may_open_with(first: u8, want: u8) -> bool {
    first == want || first == 0x0b || first >= 0x80
}

#[cfg(test)]
mod corpus;
mod swar;

#[cfg(test)]
mod tests;
