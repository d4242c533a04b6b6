//! The one-pass scan against the four scans it replaced (kept in [`super::super`]): the
//! split on ASCII whitespace, the variant test, [`fragments`] and [`for_each_word`].

use super::*;
use crate::main_content::vocabulary::{contains_either, for_each_word, fragments};

/// What the scan says of each class of `v`: the class, its variant test, fragments, words.
type Read = Vec<(String, bool, (bool, bool), Vec<String>)>;

fn scanned(v: &str) -> Read {
    let mut out = Vec::new();
    for_each_class(v, |c| {
        let mut words = Vec::new();
        c.for_each_word(|w| words.push(w.to_string()));
        out.push((c.text().to_string(), c.variant, (c.boiler, c.reader), words));
    });
    out
}

fn reference(v: &str) -> Read {
    v.split_ascii_whitespace()
        .map(|c| {
            let mut words = Vec::new();
            for_each_word(c, |w| words.push(w.to_string()));
            (c.to_string(), contains_either(c, b':', b'['), fragments(c), words)
        })
        .collect()
}

#[test]
fn every_pair_is_two_part_bytes_in_either_case() {
    // (The scan looks for pairs inside parts only.)
    for p in PAIRS {
        for &x in p.iter() {
            assert_ne!(PART_CLASS[x as usize], 0, "{p:?}");
            assert_ne!(PART_CLASS[x.to_ascii_uppercase() as usize], 0, "{p:?}");
        }
    }
}

#[test]
fn the_needles_by_pair_are_the_fragments_and_marks_of_each_pair() {
    for (k, pair) in PAIRS.iter().enumerate() {
        let of_pair = |needles: &[&'static str]| -> Vec<&'static str> {
            needles
                .iter()
                .copied()
                .filter(|n| n.as_bytes()[..2] == pair[..])
                .collect()
        };
        assert_eq!(BY_PAIR[k].0, of_pair(&BOILER_FRAGMENTS), "{pair:?}");
        assert_eq!(BY_PAIR[k].1, of_pair(&SCREEN_READER_MARKS), "{pair:?}");
    }
}

#[test]
fn no_fragment_or_mark_holds_whitespace() {
    for n in BOILER_FRAGMENTS.iter().chain(&SCREEN_READER_MARKS) {
        assert!(!n.bytes().any(|b| b.is_ascii_whitespace()), "{n}");
    }
}

#[test]
fn the_scan_reads_what_the_four_scans_read() {
    let fixed = [
        "",
        " ",
        "a",
        "cookie",
        "sr-only visually-hidden cmplz-cookiebanner",
        "co\tokie x-sr only",
        "site-header__navWrap mainContent SiteFooter jXK9ad hJDwNd col-md-6",
        "md:hidden w-[20px] lg:block",
        "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t",
        "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p",
        "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q",
        "é-menu nav\u{a0}bar ünicode-Größe\u{b}x",
        "abcdefghijklmnopqrstuvwx abcdefghijklmnopqrstuvwxy",
        "\x0cnews\rletter\n",
    ];
    for v in fixed {
        assert_eq!(scanned(v), reference(v), "{v:?}");
    }
    // Values made of pieces that matter: the fragments and marks, their first two letters
    // (pairs that start nothing), whitespace of every kind, `:` and `[`, words in both cases,
    // digits, non-ASCII letters, separators.
    let mut pieces: Vec<String> = BOILER_FRAGMENTS
        .iter()
        .chain(&SCREEN_READER_MARKS)
        .flat_map(|n| {
            [
                n.to_string(),
                n.to_uppercase(),
                n[..2].to_string(),
                n[..3].to_string(),
            ]
        })
        .collect();
    pieces.extend(
        [
            " ",
            "  ",
            "\t",
            "\n",
            "\r",
            "\x0c",
            "\x0b",
            ":",
            "[",
            "]",
            "-",
            "_",
            "a",
            "A",
            "1",
            "x9",
            "nav",
            "Nav",
            "navWrap",
            "NAV",
            "é",
            "\u{a0}",
            "Größe",
            "sC",
            "ViS",
            "co",
            "abcdefghijklmnopqrstuvwxyz",
        ]
        .map(String::from),
    );
    let mut rng = crate::test_rng::TestRng::new(23);
    for _ in 0..200_000 {
        let v = rng.string_of(&pieces, 24);
        assert_eq!(scanned(&v), reference(&v), "{v:?}");
    }
}
