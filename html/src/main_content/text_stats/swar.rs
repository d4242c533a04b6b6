//! The counting loop of [`super::text_stats_from`]: non-whitespace characters, words,
//! sentence punctuation and the hash of the letters and digits of one text, eight ASCII
//! bytes a step without a branch per byte (SWAR: each byte a lane of a `u64`, a class a
//! mask of the lanes' high bits, a count a multiplication). A character past ASCII is
//! decoded and counted on its own, as before.
//!
//! The hash is a function of the stream of the text's word characters: ASCII letters
//! (lower-cased) and digits as bytes, other alphanumeric characters as their UTF-8 bytes
//! (none of which is ASCII, so the stream is unambiguous). A step's word bytes are
//! compacted to the low lanes, appended to an eight-byte word, and each full word is mixed
//! in with one multiplication: two texts hash alike exactly when their streams are equal
//! (up to collisions of the 64-bit mix), wherever their spaces and punctuation fall.

/// The seed of the text hashes (FNV-1a's offset basis).
pub(crate) const HASH_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// `c.is_alphanumeric()` for a character past ASCII, the commonest ones first: general
/// punctuation (curly quotes, dashes, ellipses) is neither; accented Latin letters,
/// Cyrillic, kana, CJK ideographs and Hangul syllables are letters. The rest go to the
/// Unicode tables (~300 instructions a character there, most of them for punctuation,
/// which both the letter and the number tables are searched for). A test checks the
/// ranges against the tables character by character.
#[inline]
pub(super) fn high_alphanumeric(c: char) -> bool {
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

/// One in each lane; each lane's high bit.
const LOW: u64 = 0x0101_0101_0101_0101;
const TOP: u64 = LOW << 7;

/// The multiplier of the hash's mix (odd: each step is a bijection of the hash).
const MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// Mixes the eight-byte word `w` into the hash `h`.
#[inline(always)]
fn mix(h: u64, w: u64) -> u64 {
    (h ^ w).wrapping_mul(MIX).rotate_left(29)
}

/// The high bits of the lanes of `x` (every lane below 0x80) equal to `c`.
#[inline(always)]
fn eq(x: u64, c: u8) -> u64 {
    !((x ^ (LOW * u64::from(c))) + LOW * 0x7f) & TOP
}

/// The high bits of the lanes of `x` (every lane below 0x80) in `lo..=hi` (`lo` > 0).
#[inline(always)]
fn in_range(x: u64, lo: u8, hi: u8) -> u64 {
    (x + LOW * u64::from(0x80 - lo)) & !(x + LOW * u64::from(0x7f - hi)) & TOP
}

/// The bytes of the lanes of `y` that `keep` (high bits) marks, moved down to the low
/// lanes in order, zeros above: each kept lane moves down by the number of lanes dropped
/// below it, by one, two, then four lanes as that number's bits say (no lane overtakes
/// another: the order of the compress of Hacker's Delight, 7-4).
#[inline(always)]
fn compact(y: u64, keep: u64) -> u64 {
    let full = (keep >> 7).wrapping_mul(0xff);
    let mut y = y & full;
    // Lanes dropped at or below each lane (at most eight: no carry between lanes).
    let mut d = ((!keep & TOP) >> 7).wrapping_mul(LOW) & full;
    for s in 0..3 {
        let sel = ((d >> s) & LOW).wrapping_mul(0xff);
        let t = y & sel;
        y = (y ^ t) | (t >> (8 << s));
        if s < 2 {
            let t = d & sel;
            d = (d ^ t) | (t >> (8 << s));
        }
    }
    y
}

/// The running state of the hash: full words mixed, the partial word and its length.
struct Hash {
    h: u64,
    acc: u64,
    fill: u32,
}

impl Hash {
    /// Appends the `n` (at most eight) low bytes of `y` (zeros above) to the stream.
    #[inline(always)]
    fn append(&mut self, y: u64, n: u32) {
        let shift = self.fill * 8;
        let joined = self.acc | (y << shift);
        // The bytes past the word's end (none when the word was empty: `y >> 64`).
        let over = (y >> 1) >> (63 - shift);
        let fill = self.fill + n;
        let full = fill >= 8;
        let mixed = mix(self.h, joined);
        self.h = if full { mixed } else { self.h };
        self.acc = if full { over } else { joined };
        self.fill = fill & 7;
    }

    /// The hash of the stream: the partial word mixed in (its length is where its bytes,
    /// none of them zero, end).
    fn finish(&self) -> u64 {
        mix(self.h, self.acc)
    }
}

/// The last `n` (below eight) bytes of `b`, from `i`, in the low lanes, zeros above:
/// without a branch on `n` (a text's last step, whose length the branch predictor cannot
/// know), each lane read from `b` with its index clamped to the last byte, then masked.
#[inline(always)]
fn load_short(b: &[u8], i: usize, n: usize) -> u64 {
    let Some(last) = b.len().checked_sub(1) else {
        return 0;
    };
    let mut x = 0u64;
    for k in 0..8 {
        x |= u64::from(b[(i + k).min(last)]) << (8 * k);
    }
    x & !(u64::MAX << (8 * n))
}

/// What one step of at most eight ASCII bytes adds.
struct Step {
    chars: u32,
    words: u32,
    punct: u32,
    /// Whether the step's last byte is a word's (1) or not (0).
    in_word: u32,
    /// The step's word bytes (lower-cased), compacted to the low lanes, and how many.
    bytes: u64,
    kept: u32,
}

/// The step over the `n` (1 to 8) ASCII bytes of `x` (any bytes above), the byte before
/// them a word's when `in_word` is 1, U+000B whitespace when `vt`: the classes as masks
/// of the lanes' high bits, two counts a multiplication (one in each nibble of the lanes'
/// sum), the word bytes compacted by [`compact`].
#[inline(always)]
fn step(x: u64, n: u32, vt: bool, in_word: u32) -> Step {
    // The lanes from the `n`th on are zeros (no class's; no carry from a byte past ASCII).
    let x = x & (u64::MAX >> (64 - 8 * n));
    let vt_char = if vt { 0 } else { TOP };
    let space = eq(x, b' ') | (in_range(x, 0x09, 0x0d) & !(eq(x, 0x0b) & vt_char));
    let lower = x | (LOW * 0x20);
    let word = in_range(lower, b'a', b'z') | in_range(x, b'0', b'9');
    let stop = eq(x & !(LOW * 0x02), b',') | eq(x & !LOW, b':') | eq(x, b'!') | eq(x, b'?');
    let starts = word & !((word << 8) | (u64::from(in_word) << 7));
    let a = (((space >> 7) | (stop >> 3)).wrapping_mul(LOW)) >> 56;
    let w = (((starts >> 7) | (word >> 3)).wrapping_mul(LOW)) >> 56;
    Step {
        chars: n - (a & 15) as u32,
        words: (w & 15) as u32,
        punct: (a >> 4) as u32,
        in_word: ((word >> (8 * (n - 1) + 7)) & 1) as u32,
        bytes: compact(lower, word),
        kept: (w >> 4) as u32,
    }
}

/// Non-whitespace characters, words, sentence punctuation and the letters' hash of `s`
/// from `start` (a byte that is no ASCII whitespace, or the end). Until the first
/// non-ASCII character whitespace is ASCII's (U+000B counts as a character); from there on
/// it is Unicode's.
///
/// With `SHUFFLE` each step is [`shuffle::step`] (SSSE3 and POPCNT): only for a caller
/// compiled with both ([`counts`] checks the processor).
#[inline(always)]
fn counts_with<const SHUFFLE: bool>(s: &str, start: usize) -> (u32, u32, u32, u64) {
    let b = s.as_bytes();
    let (mut chars, mut words, mut punct) = (0u64, 0u64, 0u64);
    let mut hash = Hash {
        h: HASH_SEED,
        acc: 0,
        fill: 0,
    };
    // Whether the character before is a word's (1) or not (0).
    let mut in_word = 0u32;
    // Whether U+000B is whitespace: from the first non-ASCII character on.
    let mut vt = false;
    let mut i = start;
    while i < b.len() {
        let rest = b.len() - i;
        let x = if rest >= 8 {
            u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or_default())
        } else {
            load_short(b, i, rest)
        };
        let high = x & TOP;
        let n = if high != 0 {
            (high.trailing_zeros() / 8) as usize
        } else {
            rest.min(8)
        };
        if n > 0 {
            let step = if SHUFFLE {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: `SHUFFLE` is only set by a caller compiled with SSSE3 and POPCNT.
                unsafe {
                    let (chars, words, punct, in_word, bytes, kept) = shuffle::step(x, n as u32, vt, in_word);
                    Step {
                        chars,
                        words,
                        punct,
                        in_word,
                        bytes,
                        kept,
                    }
                }
                #[cfg(not(target_arch = "x86_64"))]
                step(x, n as u32, vt, in_word)
            } else {
                step(x, n as u32, vt, in_word)
            };
            chars += u64::from(step.chars);
            words += u64::from(step.words);
            punct += u64::from(step.punct);
            in_word = step.in_word;
            hash.append(step.bytes, step.kept);
            i += n;
        }
        // Characters past ASCII, one at a time.
        while i < b.len() && b[i] >= 0x80 {
            vt = true;
            let c = s[i..].chars().next().unwrap_or_default();
            let len = c.len_utf8();
            if c.is_whitespace() {
                in_word = 0;
                i += len;
                continue;
            }
            chars += 1;
            punct += u64::from(matches!(c, '。' | '，' | '、' | '！' | '？' | '；'));
            if high_alphanumeric(c) {
                let mut y = 0u64;
                for (k, &c) in b[i..i + len].iter().enumerate() {
                    y |= u64::from(c) << (8 * k);
                }
                hash.append(y, len as u32);
                words += u64::from(in_word == 0);
                in_word = 1;
            } else {
                in_word = 0;
            }
            i += len;
        }
    }
    (chars as u32, words as u32, punct as u32, hash.finish())
}

/// [`counts_with`], with [`shuffle::step`] where the processor has SSSE3 and POPCNT (any
/// x86-64 one of the last fifteen years; the build targets the x86-64 baseline, which
/// lacks them).
#[inline]
pub(super) fn counts(s: &str, start: usize) -> (u32, u32, u32, u64) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("ssse3") && std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has SSSE3 and POPCNT.
        return unsafe { counts_shuffling(s, start) };
    }
    counts_with::<false>(s, start)
}

/// [`counts_with`] compiled with SSSE3 and POPCNT, stepping by [`shuffle::step`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3,popcnt")]
fn counts_shuffling(s: &str, start: usize) -> (u32, u32, u32, u64) {
    counts_with::<true>(s, start)
}

/// The step with SSSE3's byte shuffle (`pshufb`): the bytes' classes looked up by their
/// two nibbles (two shuffles of 16-entry tables, a class a bit, a byte in a class when
/// both its nibbles' entries hold the bit), the classes as bit masks (`pmovmskb`), the
/// counts by `popcnt`, the word bytes compacted by one more shuffle, its control from a
/// table indexed by the word mask.
#[cfg(target_arch = "x86_64")]
mod shuffle {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cvtsi64_si128, _mm_cvtsi128_si64, _mm_movemask_epi8,
        _mm_or_si128, _mm_set_epi64x, _mm_set1_epi8, _mm_setzero_si128, _mm_shuffle_epi8, _mm_srli_epi16,
    };

    /// Class bits: digits (high nibble 3, low 0-9); letters `A-O`, `a-o` (4 or 6, 1-F);
    /// `P-Z`, `p-z` (5 or 7, 0-A); `!,.` (2; 1, C, E); `:;?` (3; A, B, F); tab, line
    /// feed, form feed, carriage return (0; 9, A, C, D); space (2, 0); U+000B (0, B).
    const DIGIT: u8 = 1;
    const UPPER_HALF: u8 = 2;
    const LOWER_HALF: u8 = 4;
    const STOP2: u8 = 8;
    const STOP3: u8 = 16;
    const SPACE0: u8 = 32;
    const SPACE2: u8 = 64;
    const VT: u8 = 128;
    const WORD: u8 = DIGIT | UPPER_HALF | LOWER_HALF;

    /// The classes a high nibble allows.
    const BY_HIGH: [u8; 16] = [
        SPACE0 | VT,
        0,
        STOP2 | SPACE2,
        DIGIT | STOP3,
        UPPER_HALF,
        LOWER_HALF,
        UPPER_HALF,
        LOWER_HALF,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
    ];

    /// The classes a low nibble allows.
    const BY_LOW: [u8; 16] = {
        let mut t = [0u8; 16];
        let mut l = 0;
        while l < 16 {
            let mut c = 0;
            if l <= 9 {
                c |= DIGIT;
            }
            if l >= 1 {
                c |= UPPER_HALF;
            }
            if l <= 0xa {
                c |= LOWER_HALF;
            }
            if l == 1 || l == 0xc || l == 0xe {
                c |= STOP2;
            }
            if l == 0xa || l == 0xb || l == 0xf {
                c |= STOP3;
            }
            if l == 9 || l == 0xa || l == 0xc || l == 0xd {
                c |= SPACE0;
            }
            if l == 0 {
                c |= SPACE2;
            }
            if l == 0xb {
                c |= VT;
            }
            t[l] = c;
            l += 1;
        }
        t
    };

    /// For each set of kept lanes (bit k: lane k), the shuffle's control: the kept lanes'
    /// indices in order, then 0x80 (a zero byte).
    static CONTROL: [u64; 256] = {
        let mut table = [0u64; 256];
        let mut m = 0;
        while m < 256 {
            let mut c = [0x80u8; 8];
            let (mut k, mut n) = (0, 0);
            while k < 8 {
                if m >> k & 1 == 1 {
                    c[n] = k as u8;
                    n += 1;
                }
                k += 1;
            }
            table[m] = u64::from_le_bytes(c);
            m += 1;
        }
        table
    };

    /// A 16-byte table as a vector (folded to a constant).
    #[target_feature(enable = "ssse3")]
    #[inline]
    fn table(t: &[u8; 16]) -> __m128i {
        let half = |k: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&t[k..k + 8]);
            u64::from_le_bytes(b) as i64
        };
        _mm_set_epi64x(half(8), half(0))
    }

    /// [`super::step`] by shuffles and `popcnt` (the lanes from the `n`th on, whatever
    /// they hold, are left out of every mask): its fields as a tuple, in order.
    #[target_feature(enable = "ssse3,popcnt")]
    #[inline]
    pub(super) fn step(x: u64, n: u32, vt: bool, in_word: u32) -> (u32, u32, u32, u32, u64, u32) {
        let v = _mm_cvtsi64_si128(x as i64);
        let nibble = _mm_set1_epi8(0x0f);
        let low = _mm_and_si128(v, nibble);
        let high = _mm_and_si128(_mm_srli_epi16(v, 4), nibble);
        let classes = _mm_and_si128(
            _mm_shuffle_epi8(table(&BY_LOW), low),
            _mm_shuffle_epi8(table(&BY_HIGH), high),
        );
        let valid = (1u32 << n) - 1;
        // The lanes holding one of `bits`.
        let any = |bits: u8| {
            let none = _mm_cmpeq_epi8(
                _mm_and_si128(classes, _mm_set1_epi8(bits as i8)),
                _mm_setzero_si128(),
            );
            !(_mm_movemask_epi8(none) as u32) & valid
        };
        let word = any(WORD);
        let stop = any(STOP2 | STOP3);
        let space = any(SPACE0 | SPACE2) | (any(VT) & (vt as u32).wrapping_neg());
        let starts = word & !((word << 1) | in_word);
        let lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
        let control = _mm_cvtsi64_si128(CONTROL[word as usize] as i64);
        (
            n - space.count_ones(),
            starts.count_ones(),
            stop.count_ones(),
            (word >> (n - 1)) & 1,
            _mm_cvtsi128_si64(_mm_shuffle_epi8(lower, control)) as u64,
            word.count_ones(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every mask of kept lanes: the kept bytes in order, zeros above.
    #[test]
    fn compaction_keeps_the_marked_bytes_in_order() {
        let x = u64::from_le_bytes(*b"abcdefgh");
        for m in 0u32..256 {
            let keep = (0..8)
                .filter(|k| m >> k & 1 == 1)
                .fold(0u64, |a, k| a | (0x80 << (8 * k)));
            let want: Vec<u8> = (0..8)
                .filter(|k| m >> k & 1 == 1)
                .map(|k| b"abcdefgh"[k])
                .collect();
            let mut w = [0u8; 8];
            w[..want.len()].copy_from_slice(&want);
            assert_eq!(compact(x, keep), u64::from_le_bytes(w), "{m:08b}");
        }
    }

    /// Both steps on every ASCII byte in every lane of every length, after a word's byte
    /// or not, with U+000B whitespace or not.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_shuffling_step_is_the_portable_one() {
        if !(std::arch::is_x86_feature_detected!("ssse3") && std::arch::is_x86_feature_detected!("popcnt")) {
            return;
        }
        let mut rng = crate::test_rng::TestRng::new(73);
        let check = |x: u64, n: u32, vt: bool, in_word: u32| {
            let a = step(x, n, vt, in_word);
            // SAFETY: the processor has SSSE3 and POPCNT.
            let b = unsafe { shuffle::step(x, n, vt, in_word) };
            let a = (a.chars, a.words, a.punct, a.in_word, a.bytes, a.kept);
            assert_eq!(a, b, "{x:016x} {n} {vt} {in_word}");
        };
        for byte in 0u64..0x80 {
            for lane in 0..8 {
                for n in lane + 1..=8 {
                    for (vt, in_word) in [(false, 0), (false, 1), (true, 0), (true, 1)] {
                        check(byte << (8 * lane), n, vt, in_word);
                        // Among other bytes.
                        let mut x = 0u64;
                        for k in 0..n {
                            x |= (rng.below(0x80) as u64) << (8 * k);
                        }
                        x = (x & !(0xff << (8 * lane))) | byte << (8 * lane);
                        check(x, n, vt, in_word);
                        // Any bytes past the step (a character past ASCII, the next step).
                        for k in n..8 {
                            x |= (rng.below(0x100) as u64) << (8 * k);
                        }
                        check(x, n, vt, in_word);
                    }
                }
            }
        }
    }

    /// Both loops, the portable one and the one with the shuffle, on random texts.
    #[test]
    fn the_portable_loop_counts_as_the_shuffling_one() {
        let alphabet: Vec<char> = "aZ09 .,;:!?-\t\n\u{b}\u{c}\r\u{a0}é日。、！\u{2009}Ω\u{1f600}"
            .chars()
            .collect();
        let mut rng = crate::test_rng::TestRng::new(71);
        for _ in 0..100_000 {
            let s: String = (0..rng.below(60))
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            let start = s
                .bytes()
                .position(|b| !b.is_ascii_whitespace())
                .unwrap_or(s.len());
            assert_eq!(counts_with::<false>(&s, start), counts(&s, start), "{s:?}");
        }
    }

    #[test]
    fn short_loads_read_the_bytes_in_order() {
        let text = b"0123456789abcdef";
        for len in 0..text.len() {
            let b = &text[..len];
            for i in 0..len {
                let n = (len - i).min(7);
                if len - i >= 8 {
                    continue;
                }
                let mut w = [0u8; 8];
                w[..n].copy_from_slice(&b[i..i + n]);
                assert_eq!(load_short(b, i, n), u64::from_le_bytes(w), "{len} {i}");
            }
        }
    }
}
