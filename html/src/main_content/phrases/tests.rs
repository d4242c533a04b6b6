//! The phrase lists' order and their matching.

use super::*;

/// The lookups as they were (binary searches), the reference for the letter ranges.
fn furniture_in_reference(s: &str) -> bool {
    if EXACT.binary_search(&s).is_ok() {
        return true;
    }
    let at = match PREFIX.binary_search(&s) {
        Ok(i) => i + 1,
        Err(i) => i,
    };
    let first = s.as_bytes().first();
    PREFIX[..at]
        .iter()
        .rev()
        .take_while(|p| p.as_bytes().first() == first)
        .any(|p| {
            s.strip_prefix(p)
                .is_some_and(|rest| rest.bytes().next().is_none_or(|b| !b.is_ascii_alphabetic()))
        })
}

fn pointer_in_reference(s: &str) -> bool {
    let first = s.as_bytes()[0];
    let from = POINTER_TITLES.partition_point(|p| p.as_bytes()[0] < first);
    POINTER_TITLES[from..]
        .iter()
        .take_while(|p| p.as_bytes()[0] == first)
        .any(|p| {
            s.strip_prefix(p)
                .is_some_and(|rest| rest.bytes().next().is_none_or(|b| !b.is_ascii_alphanumeric()))
        })
}

/// The normalisation as it was (trimming characters), the reference for the byte trim.
fn normalized_reference<'a>(text: &str, buf: &'a mut [u8; MAX_LEN]) -> Option<&'a str> {
    if text.len() > 4 * MAX_LEN {
        return None;
    }
    let t = text.trim_matches(|c: char| !c.is_ascii_alphabetic());
    if t.is_empty() || t.len() > MAX_LEN || !t.is_ascii() {
        return None;
    }
    let mut len = 0;
    let mut space = false;
    for b in t.bytes() {
        if b.is_ascii_whitespace() {
            space = true;
            continue;
        }
        if space && len > 0 {
            buf[len] = b' ';
            len += 1;
        }
        space = false;
        buf[len] = b.to_ascii_lowercase();
        len += 1;
    }
    std::str::from_utf8(&buf[..len]).ok()
}

#[test]
fn letter_ranges_answer_as_the_binary_searches_did() {
    let lists = [EXACT, PREFIX, POINTER_TITLES];
    let pieces: Vec<&str> = lists.iter().flat_map(|l| l.iter().copied()).collect();
    let extra = [
        "", " ", "s", "ed", "1", "12", ":", "!", "-", "x", "A", "é", "(3)", "of",
    ];
    let mut rng = crate::test_rng::TestRng::new(0x2545_f491_4f6c_dd1d);
    let mut rnd = |n: usize| rng.below(n);
    let mut checked = 0;
    for round in 0..200_000 {
        let mut t = String::new();
        for _ in 0..1 + rnd(3) {
            match rnd(4) {
                0 | 1 => t.push_str(pieces[rnd(pieces.len())]),
                2 => t.push_str(extra[rnd(extra.len())]),
                _ => {
                    let p = pieces[rnd(pieces.len())];
                    t.push_str(&p[..rnd(p.len() + 1)]);
                }
            }
            if rnd(3) > 0 {
                t.push(' ');
            }
        }
        if round % 7 == 0 {
            t = t.to_ascii_uppercase();
        }
        let mut buf = [0u8; MAX_LEN];
        let mut reference_buf = [0u8; MAX_LEN];
        assert_eq!(
            normalized(&t, &mut buf),
            normalized_reference(&t, &mut reference_buf).map(str::as_bytes),
            "{t:?}"
        );
        let Some(s) = normalized(&t, &mut buf) else {
            continue;
        };
        checked += 1;
        let text = std::str::from_utf8(s).expect("ASCII");
        assert_eq!(furniture_in(s), furniture_in_reference(text), "{s:?}");
        assert_eq!(pointer_in(s), pointer_in_reference(text), "{s:?}");
    }
    assert!(checked > 100_000, "{checked}");
    for s in pieces {
        assert_eq!(furniture_in(s.as_bytes()), furniture_in_reference(s), "{s:?}");
        assert_eq!(pointer_in(s.as_bytes()), pointer_in_reference(s), "{s:?}");
    }
}

#[test]
fn exact_list_is_sorted_for_binary_search() {
    assert!(EXACT.windows(2).all(|w| w[0] < w[1]), "EXACT must stay sorted");
    assert!(PREFIX.windows(2).all(|w| w[0] < w[1]), "PREFIX must stay sorted");
}

#[test]
fn matches_whole_short_texts_only() {
    for yes in [
        "Share",
        "  Comments (12) ",
        "→ Read more",
        "Related posts",
        "SIGN UP FOR OUR NEWSLETTER",
        "You may also like",
        "Add to cart",
        "Not open for further replies.",
        "More from the author",
        "Terms of Service",
        "What others are reading",
        "Written by Jane Doe",
    ] {
        assert!(is_furniture(yes), "{yes}");
    }
    for no in [
        "Shared hosting",
        "Sharing is caring: a long sentence about it.",
        "Relatedness",
        "Reply 3: lichens",
        "The comments were great",
        "Moreover",
        "Written by hand in 1820, the letters survived a fire.",
    ] {
        assert!(!is_furniture(no), "{no}");
    }
    for yes in [
        "Comments",
        "12 Comments",
        "Comments (3)",
        "One Response to “Lichens”",
        "24 thoughts on “Old walls”",
        "Readers' Comments",
        "Leave a Reply",
        "There are 27 comments. Add yours.",
        "Showing 3 responses",
    ] {
        assert!(is_comment_title(yes), "{yes}");
    }
    for no in [
        "Comment choisir un barbecue",
        "Commentary on the plan",
        "Responses to the plan",
        "Thoughts on walls",
        "Discussion",
        "Top 10 commentators",
        "Why 3 comments matter more than 300 likes",
    ] {
        assert!(!is_comment_title(no), "{no}");
    }
    assert!(is_bare_path(" /content/site/fragments/footer "));
    assert!(!is_bare_path("/etc/hosts and more"));
    assert!(!is_bare_path("/about"));
    assert!(is_bare_url("https://cdn.example.com/images/a.jpg"));
    assert!(!is_bare_url("https://example.com"));
}

#[test]
fn pointer_titles_are_sorted_and_lower_case() {
    assert!(
        POINTER_TITLES.windows(2).all(|w| w[0] < w[1]),
        "POINTER_TITLES must stay sorted"
    );
    assert!(POINTER_TITLES.iter().all(|p| *p == p.to_ascii_lowercase()));
}

#[test]
fn pointer_titles_start_a_short_text_as_whole_words() {
    for yes in [
        "Related posts",
        "You may also like",
        "MORE FROM THE AUTHOR",
        "» Most read",
        "Top Stories »",
        "More world stories from Example News:",
        "More local articles",
        "Discover more",
    ] {
        assert!(is_pointer_title(yes), "{yes}");
    }
    for no in [
        "Relatedness of species",
        "Morel mushrooms",
        "The most read book",
        "More",
        "More games news:",
        "More about the design",
        "More storied walls",
        "Discovered more lichens",
    ] {
        assert!(!is_pointer_title(no), "{no}");
    }
}
