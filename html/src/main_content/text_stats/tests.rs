//! (tests only) The text statistics against the counting loop they replaced, kept as a
//! reference: the same counts, and hashes equal for two texts exactly when the reference's are.

use super::*;

/// The multiplier of the reference's hash step (FNV-1a's 64-bit prime).
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The text statistics' counting loop as it was before the one-pass version: the
/// reference it must match (phrases are checked after it, unchanged).
pub(super) fn counts_reference(s: &str) -> (u32, u32, u32, u64) {
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

/// The counts of `s` are the reference's.
fn same_counts(s: &str) {
    let (c, w, p, _) = counts(s);
    let (rc, rw, rp, _) = counts_reference(s);
    assert_eq!((c, w, p), (rc, rw, rp), "{s:?}");
}

/// The hashes of `a` and `b` are equal exactly when the reference's are; returns whether
/// they are.
fn same_equality(a: &str, b: &str) -> bool {
    let equal = counts(a).3 == counts(b).3;
    let reference = counts_reference(a).3 == counts_reference(b).3;
    assert_eq!(equal, reference, "{a:?} {b:?}");
    equal
}

/// Random strings of `alphabet`'s characters, fewer than `max`.
fn random_text(rng: &mut crate::test_rng::TestRng, alphabet: &[char], max: usize) -> String {
    (0..rng.below(max))
        .map(|_| alphabet[rng.below(alphabet.len())])
        .collect()
}

const ALPHABET: &str = "aZ09 .,;:!?-\t\n\u{b}\u{c}\r\u{a0}é日。、！\u{2009}\u{3000}Ω\u{1f600}";

#[test]
fn the_one_pass_text_statistics_match_the_reference() {
    let fixed = [
        "",
        " ",
        "Hello, World!",
        "a\u{b}b c",
        "é a\u{b}b",
        "caf\u{e9} na\u{ef}ve\u{a0}text\u{2009}x 。日本語、テキスト！",
        "x1 2y ZZ top.",
        "\u{2028}A\u{b}\u{c}B",
        "abcdefgh",
        "abcdefghi jklmnopqrstuvwxyz0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "@[`{/:;<=>?!\"#$%&'()*+,-._|~",
    ];
    for s in fixed {
        same_counts(s);
    }
    for a in fixed {
        for b in fixed {
            same_equality(a, b);
        }
    }
    let alphabet: Vec<char> = ALPHABET.chars().collect();
    let mut rng = crate::test_rng::TestRng::new(0x2545_f491_4f6c_dd1d);
    let mut before = String::new();
    for _ in 0..200_000 {
        let s = random_text(&mut rng, &alphabet, 48);
        same_counts(&s);
        same_equality(&s, &before);
        before = s;
    }
}

/// Pairs that differ only in whitespace and punctuation hash alike, as the reference's
/// do; pairs that differ in one letter, digit or other alphanumeric character do not,
/// unless only in an ASCII letter's case.
#[test]
fn hashes_are_equal_exactly_when_the_references_are() {
    let alphabet: Vec<char> = "abZ09 .,;:!?-\t\n\u{b}\u{c}\r\u{a0}éÉ日ж。、！\u{2009}\u{3000}Ω\u{1f600}"
        .chars()
        .collect();
    let gaps: Vec<char> = " .,;:!?-\t\n\u{b}\u{c}\r\u{a0}。、！\u{2009}\u{3000}\u{1f600}"
        .chars()
        .collect();
    let words: Vec<char> = "abzAZ059éÉ日жΩ".chars().collect();
    let mut rng = crate::test_rng::TestRng::new(61);
    let mut kinds = [0usize; 3];
    for _ in 0..100_000 {
        let s: Vec<char> = random_text(&mut rng, &alphabet, 40).chars().collect();
        // Whitespace and punctuation put in, taken out or changed.
        let mut t = s.clone();
        for _ in 0..rng.below(4) + 1 {
            let at = rng.below(t.len() + 1);
            match rng.below(3) {
                0 => t.insert(at, gaps[rng.below(gaps.len())]),
                _ if at < t.len() && gaps.contains(&t[at]) => {
                    if rng.below(2) == 0 {
                        t.remove(at);
                    } else {
                        t[at] = gaps[rng.below(gaps.len())];
                    }
                }
                _ => {}
            }
        }
        let (s, t): (String, String) = (s.into_iter().collect(), t.into_iter().collect());
        assert!(same_equality(&s, &t), "{s:?} {t:?}");
        // One word character changed or put in.
        let mut u: Vec<char> = s.chars().collect();
        let at = rng.below(u.len() + 1);
        if at < u.len() && words.contains(&u[at]) && rng.below(2) == 0 {
            u[at] = words[rng.below(words.len())];
        } else {
            u.insert(at, words[rng.below(words.len())]);
        }
        let u: String = u.into_iter().collect();
        let equal = same_equality(&s, &u);
        kinds[usize::from(equal)] += 1;
        kinds[2] += usize::from(s.to_lowercase() == u.to_lowercase());
        same_counts(&t);
        same_counts(&u);
    }
    // Both outcomes are met: most changes are real, some only change a letter's case.
    assert!(
        kinds[0] > 50_000 && kinds[1] > 1_000 && kinds[2] > 1_000,
        "{kinds:?}"
    );
}

/// Words of every length around the eight-byte step (a run that ends inside a step,
/// at its end, past it, at the text's end), with what ends them.
#[test]
fn long_words_are_counted_and_hashed_as_the_reference_does() {
    let ends = [" ", ".", "-", "\u{e9}", "\u{a0}", "\n", "\u{b}", ""];
    let mut rng = crate::test_rng::TestRng::new(53);
    let mut before = String::new();
    for _ in 0..50_000 {
        let mut s = String::new();
        for _ in 0..rng.below(4) + 1 {
            for _ in 0..rng.below(27) {
                s.push(b"aZk09Qx"[rng.below(7)] as char);
            }
            s.push_str(ends[rng.below(ends.len())]);
        }
        same_counts(&s);
        same_equality(&s, &before);
        // The same letters with their gaps moved: hashed alike.
        let moved: String = s.chars().filter(char::is_ascii_alphanumeric).collect();
        let mut spaced = String::new();
        for (k, c) in moved.chars().enumerate() {
            if k % (rng.below(9) + 1) == 0 {
                spaced.push(' ');
            }
            spaced.push(c);
        }
        let stream: String = s.chars().filter(|c| c.is_alphanumeric()).collect::<String>();
        if stream.is_ascii() {
            assert!(same_equality(&s, &spaced), "{s:?} {spaced:?}");
        }
        before = s;
    }
}
