//! Tests of [`super`]: the word splitter and the fragment scan against the code they
//! replaced (kept here as references), the vocabulary's length table against the plain
//! look-up.

use super::*;

/// The splitter as it was before the one-pass version: the reference it must match.
fn for_each_word_reference(value: &str, mut f: impl FnMut(&str)) {
    for part in value.split(|c: char| !c.is_ascii_alphanumeric()) {
        let b = part.as_bytes();
        if b.is_empty() || b.len() > 24 || b.iter().any(u8::is_ascii_digit) {
            continue;
        }
        if b.iter().all(u8::is_ascii_lowercase) {
            f(part);
            continue;
        }
        let mut starts = Vec::with_capacity(4);
        let mut regular = true;
        for (i, &c) in b.iter().enumerate() {
            if c.is_ascii_uppercase() {
                if b.get(i + 1).is_none_or(|n| !n.is_ascii_lowercase()) {
                    regular = false;
                    break;
                }
                starts.push(i);
            }
        }
        if !regular {
            continue;
        }
        let mut buf = [0u8; 24];
        let mut from = 0;
        for end in starts.into_iter().chain(std::iter::once(b.len())) {
            if end > from {
                let word = &mut buf[..end - from];
                word.copy_from_slice(&b[from..end]);
                word.make_ascii_lowercase();
                f(std::str::from_utf8(word).unwrap_or(""));
            }
            from = end;
        }
    }
}

/// A word splitter under test.
type Splitter = fn(&str, &mut dyn FnMut(&str));

fn split(value: &str, splitter: Splitter) -> Vec<String> {
    let mut out = Vec::new();
    splitter(value, &mut |w| out.push(w.to_string()));
    out
}

#[test]
fn the_one_pass_splitter_matches_the_reference() {
    let fixed = [
        "",
        "-",
        "a",
        "A",
        "aB",
        "Ab",
        "AbC",
        "abCd",
        "ABc",
        "navWrap__SiteFooter",
        "x9Kd hJDwNd col-md-6",
        "é-menu nav\u{a0}bar ünicode-Größe",
        "abcdefghijklmnopqrstuvwx abcdefghijklmnopqrstuvwxy",
        "AbcdefghijklmnopqrstuvwX Abcdefghijklmnopqrstuvwx",
        "aBcDeFgHiJkLmNoPqRsTuVwX",
        "  lead trail  ",
        "a\tb\nc_d:e[f]g",
    ];
    for v in fixed {
        assert_eq!(
            split(v, |v, f| for_each_word(v, f)),
            split(v, |v, f| for_each_word_reference(v, f)),
            "{v:?}"
        );
    }
    // Pseudo-random values over an alphabet of the byte kinds that matter.
    let alphabet: Vec<char> = "abcxyzABCXYZ0189-_ :[é\u{a0}".chars().collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..200_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = (state % 40) as usize;
        let mut v = String::new();
        let mut r = state;
        for _ in 0..len {
            r = r
                .wrapping_mul(0x5851_f42d_4c95_7f2d)
                .wrapping_add(1442695040888963407);
            v.push(alphabet[(r >> 33) as usize % alphabet.len()]);
        }
        assert_eq!(
            split(&v, |v, f| for_each_word(v, f)),
            split(&v, |v, f| for_each_word_reference(v, f)),
            "{v:?}"
        );
    }
}

#[test]
fn the_table_finds_what_a_plain_map_of_the_lists_finds() {
    // The lists in a plain map, as the table was before.
    let mut map = std::collections::HashMap::new();
    for (w, weight) in listed_words() {
        map.insert(
            w,
            Entry {
                word: weight,
                roles: 0,
            },
        );
    }
    for (words, role) in roles::ROLES {
        for &w in words {
            map.entry(w).or_insert(NEUTRAL).roles |= role;
        }
    }
    let reference = |w: &str| map.get(w).copied().unwrap_or(NEUTRAL);
    let mut pieces: Vec<String> = map.keys().map(|w| w.to_string()).collect();
    pieces.extend(
        [
            "",
            "x",
            "é",
            "s",
            "navs",
            "men",
            "contents",
            "abcdefghijklmnopq",
            "abcdefghijklmnopqrstuvwxyz",
        ]
        .map(String::from),
    );
    let mut rng = crate::test_rng::TestRng::new(11);
    for _ in 0..50_000 {
        let mut w = pieces[rng.below(pieces.len())].clone();
        match rng.below(4) {
            0 => w.push_str(&pieces[rng.below(pieces.len())]),
            1 => {
                let cut = w.len().saturating_sub(rng.below(3));
                w.truncate(w.floor_char_boundary(cut));
            }
            _ => {}
        }
        assert_eq!(entry(&w), reference(&w), "{w:?}");
    }
}

/// `fragments` as it was before the pair tables: the reference it must match.
fn fragments_reference(hay: &str) -> (bool, bool) {
    let h = hay.as_bytes();
    let (mut boiler, mut reader) = (false, false);
    let found = |i: usize, pair: &[u8; 2], needles: &[&str]| {
        needles.iter().any(|n| {
            let n = n.as_bytes();
            n[..2] == *pair && h.len() - i >= n.len() && h[i..i + n.len()].eq_ignore_ascii_case(n)
        })
    };
    for i in 0..h.len().saturating_sub(FRAGMENT_MIN - 1) {
        if !matches!(h[i] | 0x20, b'c' | b'g' | b'n' | b's' | b'v' | b'a') {
            continue;
        }
        let pair = [h[i].to_ascii_lowercase(), h[i + 1].to_ascii_lowercase()];
        if matches!(&pair, b"co" | b"gd" | b"ne" | b"sr" | b"vi" | b"sc" | b"a1") {
            boiler |= found(i, &pair, &BOILER_FRAGMENTS);
            reader |= found(i, &pair, &SCREEN_READER_MARKS);
            if boiler && reader {
                break;
            }
        }
    }
    (boiler, reader)
}

#[test]
fn the_pair_tables_find_what_the_old_fragment_scan_found() {
    // Every fragment and mark starts with one of the pairs.
    for n in BOILER_FRAGMENTS.iter().chain(&SCREEN_READER_MARKS) {
        assert!(PAIRS.iter().any(|p| n.as_bytes()[..2] == p[..]), "{n}");
    }
    let mut pieces: Vec<String> = BOILER_FRAGMENTS
        .iter()
        .chain(&SCREEN_READER_MARKS)
        .flat_map(|n| {
            [
                n.to_string(),
                n.to_uppercase(),
                n[..n.len() - 1].to_string(),
                n[..2].to_string(),
            ]
        })
        .collect();
    pieces.extend(["-", "x", "é", "A", "1", "C\u{f3}", "sC", "ViS"].map(String::from));
    let mut rng = crate::test_rng::TestRng::new(5);
    for _ in 0..100_000 {
        let v: String = (0..rng.below(6))
            .map(|_| pieces[rng.below(pieces.len())].as_str())
            .collect();
        assert_eq!(fragments(&v), fragments_reference(&v), "{v:?}");
    }
}

#[test]
fn splits_words() {
    let mut seen = Vec::new();
    for_each_word(
        "site-header__navWrap mainContent SiteFooter jXK9ad hJDwNd col-md-6",
        |w| seen.push(w.to_string()),
    );
    assert_eq!(
        seen,
        [
            "site", "header", "nav", "wrap", "main", "content", "site", "footer", "col", "md"
        ]
    );
}

#[test]
fn contains_either_finds_what_a_byte_loop_finds() {
    let pieces = [
        "a", "md", ":", "[", "é", "-", "w-[20px]", "hidden", "sm:flex", "ZZ",
    ];
    let mut rng = crate::test_rng::TestRng::new(9);
    for _ in 0..100_000 {
        let v: String = (0..rng.below(12))
            .map(|_| pieces[rng.below(pieces.len())])
            .collect();
        let reference = v.bytes().any(|b| b == b':' || b == b'[');
        assert_eq!(contains_either(&v, b':', b'['), reference, "{v:?}");
    }
    // Every byte value, at every place of a chunk and of the remainder.
    for len in 1..20 {
        for at in 0..len {
            for byte in 0..=255u8 {
                let mut v = vec![b'x'; len];
                v[at] = byte;
                let s = String::from_utf8_lossy(&v);
                let reference = s.bytes().any(|b| b == b':' || b == b'[');
                assert_eq!(contains_either(&s, b':', b'['), reference, "{s:?}");
            }
        }
    }
}

#[test]
fn word_keys_are_equal_exactly_when_the_words_are() {
    // Every length up to 26 over a three-letter alphabet (words that differ in one place,
    // or only in length, are the hard cases for overlapping reads).
    let mut rng = crate::test_rng::TestRng::new(17);
    let words: Vec<String> = (0..4_000)
        .map(|_| {
            let len = rng.below(27);
            (0..len).map(|_| ['a', 'b', 'c'][rng.below(3)]).collect()
        })
        .collect();
    for a in &words {
        for b in words.iter().take(300) {
            assert_eq!(WordKey::new(a) == WordKey::new(b), a == b, "{a:?} {b:?}");
        }
        // The same word with one letter changed.
        for i in 0..a.len().min(24) {
            let mut c = a.clone().into_bytes();
            c[i] = b'd';
            let c = String::from_utf8(c).unwrap();
            assert_ne!(WordKey::new(a), WordKey::new(&c), "{a:?} {c:?}");
        }
    }
}
