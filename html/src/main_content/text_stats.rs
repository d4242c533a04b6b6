//! Text statistics of one text node for the arena ([`super::arena`]): non-whitespace
//! characters, words, sentence punctuation, a hash of its letters and digits, and the
//! furniture, comment-title, bare-URL and pointer-title checks of [`super::phrases`].

/// The seed of the text hashes (FNV-1a's offset basis).
pub(super) const HASH_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// The multiplier of the text hashes' step (FNV-1a's 64-bit prime).
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

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

/// Classes of bytes for [`text_stats`]: whitespace, sentence punctuation, word (ASCII
/// letter or digit), the lead or continuation byte of a multi-byte character; 0 is any other
/// ASCII character.
const SPACE: u8 = 1;
const PUNCT: u8 = 2;
const WORD: u8 = 4;
const HIGH: u8 = 8;

/// The byte classes, with whitespace as `u8::is_ascii_whitespace` (`vt` false) or as
/// `char::is_whitespace` (`vt` true: U+000B is whitespace too).
const fn byte_classes(vt: bool) -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = if c >= 0x80 {
            HIGH
        } else if c.is_ascii_whitespace() || (vt && c == 0x0b) {
            SPACE
        } else if matches!(c, b'.' | b',' | b';' | b':' | b'!' | b'?') {
            PUNCT
        } else if c.is_ascii_alphanumeric() {
            WORD
        } else {
            0
        };
        b += 1;
    }
    table
}

/// Until the first non-ASCII character, whitespace is ASCII's (U+000B counts as a
/// character); from there on it is Unicode's. (What the statistics have always counted.)
const ASCII_CLASS: [u8; 256] = byte_classes(false);
const CHAR_CLASS: [u8; 256] = byte_classes(true);

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

/// Statistics of one text node, and the hash of its letters and digits (ASCII lower-cased).
///
/// One pass over the bytes: a run of ASCII letters and digits is hashed and counted in a
/// tight loop (`b | 0x20` lower-cases an ASCII letter and leaves a digit as it is), only
/// non-ASCII characters are decoded.
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
    let mut t = Text::default();
    let mut h = HASH_SEED;
    let mut in_word = false;
    let b = s.as_bytes();
    let mut table = &ASCII_CLASS;
    // (Leading ASCII whitespace only ends a word that has not begun.)
    let mut i = start;
    while i < b.len() {
        match table[b[i] as usize] {
            WORD => {
                let run = i;
                t.words += u32::from(!in_word);
                // (The first byte is one: the loop reads it again, which keeps the loop's
                // body to one load and one test a letter.) Eight bytes a step while eight
                // remain, one bounds test for the eight; then a byte at a time.
                'run: {
                    while let Some(q) = b.get(i..i + 8) {
                        for (k, &c) in q.iter().enumerate() {
                            if table[c as usize] != WORD {
                                i += k;
                                break 'run;
                            }
                            h = (h ^ u64::from(c | 0x20)).wrapping_mul(FNV_PRIME);
                        }
                        i += 8;
                    }
                    while i < b.len() {
                        let c = b[i];
                        if table[c as usize] != WORD {
                            break;
                        }
                        h = (h ^ u64::from(c | 0x20)).wrapping_mul(FNV_PRIME);
                        i += 1;
                    }
                }
                t.chars += (i - run) as u32;
                in_word = true;
            }
            SPACE => {
                in_word = false;
                i += 1;
            }
            HIGH => {
                table = &CHAR_CLASS;
                let c = s[i..].chars().next().unwrap_or_default();
                i += c.len_utf8();
                if c.is_whitespace() {
                    in_word = false;
                    continue;
                }
                t.chars += 1;
                t.punct += u32::from(matches!(c, '。' | '，' | '、' | '！' | '？' | '；'));
                let word = high_alphanumeric(c);
                if word {
                    // Not ASCII: lower-casing ASCII leaves it as it is.
                    h = (h ^ u64::from(c)).wrapping_mul(FNV_PRIME);
                    t.words += u32::from(!in_word);
                }
                in_word = word;
            }
            class => {
                t.chars += 1;
                t.punct += u32::from(class == PUNCT);
                in_word = false;
                i += 1;
            }
        }
    }
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

/// `c.is_alphanumeric()` for a character past ASCII, the commonest ones first: general
/// punctuation (curly quotes, dashes, ellipses) is neither; accented Latin letters,
/// Cyrillic, kana, CJK ideographs and Hangul syllables are letters. The rest go to the
/// Unicode tables (~300 instructions a character there, most of them for punctuation,
/// which both the letter and the number tables are searched for). A test checks the
/// ranges against the tables character by character.
#[inline]
fn high_alphanumeric(c: char) -> bool {
    match u32::from(c) {
        0x2000..=0x206F => false,
        0x00C0..=0x024F => c != '\u{d7}' && c != '\u{f7}',
        0x0400..=0x0481
        | 0x048A..=0x052F
        | 0x3041..=0x3096
        | 0x30A1..=0x30FA
        | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7A3 => true,
        _ => c.is_alphanumeric(),
    }
}

/// Whether a text whose first byte past ASCII whitespace (`u8::is_ascii_whitespace`) is
/// `first` may, trimmed as `str::trim` trims, open with the ASCII byte `want`: an ASCII
/// byte other than U+000B (which `str::trim` also trims) is where the trimmed text opens.
#[inline]
fn may_open_with(first: u8, want: u8) -> bool {
    first == want || first == 0x0b || first >= 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text statistics' counting loop as it was before the one-pass version: the
    /// reference it must match (phrases are checked after it, unchanged).
    fn counts_reference(s: &str) -> (u32, u32, u32, u64) {
        let (mut chars, mut words, mut punct) = (0u32, 0u32, 0u32);
        let mut h = HASH_SEED;
        let mut in_word = false;
        let mut bytes = s.bytes();
        let mut rest = "";
        while let Some(b) = bytes.next() {
            if b >= 0x80 {
                rest = &s[s.len() - bytes.len() - 1..];
                break;
            }
            if b.is_ascii_whitespace() {
                in_word = false;
                continue;
            }
            chars += 1;
            punct += u32::from(matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?'));
            let word = b.is_ascii_alphanumeric();
            if word {
                h = (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(FNV_PRIME);
                words += u32::from(!in_word);
            }
            in_word = word;
        }
        for c in rest.chars() {
            if c.is_whitespace() {
                in_word = false;
                continue;
            }
            chars += 1;
            if matches!(
                c,
                '.' | ',' | ';' | ':' | '!' | '?' | '。' | '，' | '、' | '！' | '？' | '；'
            ) {
                punct += 1;
            }
            let word = c.is_alphanumeric();
            if word {
                h = (h ^ u64::from(c.to_ascii_lowercase())).wrapping_mul(FNV_PRIME);
                if !in_word {
                    words += 1;
                }
            }
            in_word = word;
        }
        (chars, words, punct, h)
    }

    #[test]
    fn the_alphanumeric_shortcut_is_the_unicode_tables_answer() {
        for c in (0x80..=0x10_ffff).filter_map(char::from_u32) {
            assert_eq!(
                high_alphanumeric(c),
                c.is_alphanumeric(),
                "U+{:04X}",
                u32::from(c)
            );
        }
    }

    #[test]
    fn texts_ruled_out_by_their_first_byte_are_no_bare_urls_or_paths() {
        let pieces = [
            " ", "\n", "\t", "\u{b}", "\u{c}", "\r", "\u{a0}", "\u{2003}", "\u{3000}", "h", "http://",
            "https://", "/", "a/b/c", "x", "é", "\u{85}", ".", "//", "www",
        ];
        let mut rng = crate::test_rng::TestRng::new(47);
        let mut kept = [0usize; 2];
        for _ in 0..200_000 {
            let s: String = (0..rng.below(7))
                .map(|_| pieces[rng.below(pieces.len())])
                .collect();
            let Some(start) = first_non_space(s.as_bytes()) else {
                continue;
            };
            let first = s.as_bytes()[start];
            let url = super::super::phrases::is_bare_url(&s);
            let path = super::super::phrases::is_bare_path(&s);
            assert_eq!(may_open_with(first, b'h') && url, url, "{s:?}");
            assert_eq!(may_open_with(first, b'/') && path, path, "{s:?}");
            kept[0] += usize::from(url);
            kept[1] += usize::from(path);
        }
        // Both kinds are met, past leading whitespace of every kind.
        assert!(kept[0] > 100 && kept[1] > 100, "{kept:?}");
    }

    #[test]
    fn the_first_byte_past_the_whitespace_is_found_a_block_at_a_time() {
        let spaces = [b' ', b'\n', b'\t', b'\r', 0x0c];
        let others = [0x0b, 0, b'a', 0x80, 0xe9, b'!', 0xa0, 0x8a];
        let mut rng = crate::test_rng::TestRng::new(43);
        for _ in 0..200_000 {
            // Mostly whitespace, so that the first other byte falls anywhere.
            let b: Vec<u8> = (0..rng.below(72))
                .map(|_| match rng.below(9) {
                    0 => others[rng.below(others.len())],
                    _ => spaces[rng.below(spaces.len())],
                })
                .collect();
            let reference = b.iter().position(|c| !c.is_ascii_whitespace());
            assert_eq!(first_non_space(&b), reference, "{b:?}");
        }
    }

    fn counts(s: &str) -> (u32, u32, u32, u64) {
        let (t, h) = text_stats(s, false, false, false);
        (t.chars, t.words, t.punct, h)
    }

    #[test]
    fn the_one_pass_text_statistics_match_the_reference() {
        for s in [
            "",
            " ",
            "Hello, World!",
            "a\u{b}b c",
            "é a\u{b}b",
            "caf\u{e9} na\u{ef}ve\u{a0}text\u{2009}x 。日本語、テキスト！",
            "x1 2y ZZ top.",
            "\u{2028}A\u{b}\u{c}B",
        ] {
            assert_eq!(counts(s), counts_reference(s), "{s:?}");
        }
        let alphabet: Vec<char> = "aZ09 .,;:!?-\t\n\u{b}\u{c}\r\u{a0}é日。、！\u{2009}\u{3000}Ω\u{1f600}"
            .chars()
            .collect();
        let mut r = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200_000 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            let len = (r % 48) as usize;
            let mut x = r;
            let s: String = (0..len)
                .map(|_| {
                    x = x
                        .wrapping_mul(0x5851_f42d_4c95_7f2d)
                        .wrapping_add(1442695040888963407);
                    alphabet[(x >> 33) as usize % alphabet.len()]
                })
                .collect();
            assert_eq!(counts(&s), counts_reference(&s), "{s:?}");
        }
    }

    /// Words of every length around the eight-byte step (a run that ends inside a step,
    /// at its end, past it, at the text's end), with what ends them.
    #[test]
    fn long_words_are_counted_and_hashed_as_the_reference_does() {
        let ends = [" ", ".", "-", "\u{e9}", "\u{a0}", "\n", "\u{b}", ""];
        let mut rng = crate::test_rng::TestRng::new(53);
        for _ in 0..50_000 {
            let mut s = String::new();
            for _ in 0..rng.below(4) + 1 {
                for _ in 0..rng.below(27) {
                    s.push(b"aZk09Qx"[rng.below(7)] as char);
                }
                s.push_str(ends[rng.below(ends.len())]);
            }
            assert_eq!(counts(&s), counts_reference(&s), "{s:?}");
        }
    }
}
