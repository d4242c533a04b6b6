//! Round trips through [`Writer`] and [`Tokens`], and malformed streams.

use crate::*;

fn owned(tokens: Tokens<'_>) -> Vec<String> {
    owned_with(tokens, |attrs| attrs.collect())
}

/// The tokens as strings, their attributes read by `read_attrs`.
fn owned_with<'a>(
    tokens: impl Iterator<Item = Token<'a>>,
    read_attrs: fn(Attrs<'_>) -> Vec<Attr<'_>>,
) -> Vec<String> {
    tokens
        .map(|t| match t {
            Token::Text(s) => format!("T{s:?}"),
            Token::Start { tag, name, attrs } => {
                let attrs: Vec<String> = read_attrs(attrs)
                    .iter()
                    .map(|a| format!("{}#{}={:?}", a.name, a.id, a.value))
                    .collect();
                format!("S{name}#{tag}[{}]", attrs.join(" "))
            }
            Token::End { tag, name } => format!("E{name}#{tag}"),
        })
        .collect()
}

#[test]
fn round_trip_of_every_token_kind() {
    let mut w = Writer::default();
    w.start("div", [("class", "a \"b\" & c"), ("data-x", "é")].into_iter());
    w.text("one ");
    w.text("two");
    w.start("my-widget", std::iter::empty::<(&str, &str)>());
    w.end("my-widget");
    w.start("br", std::iter::empty::<(&str, &str)>());
    w.text("x\r\ny\rz");
    w.end("div");
    let (ops, text) = w.finish();
    let mut tokens = Tokens::new(&ops, &text);
    let got = owned(tokens.clone());
    assert_eq!(
        got,
        vec![
            r#"Sdiv#32[class#6="a \"b\" & c" data-x#0="é"]"#,
            r#"T"one two""#,
            "Smy-widget#0[]",
            "Emy-widget#0",
            "Sbr#15[]",
            r#"T"x\ny\nz""#,
            "Ediv#32",
        ]
    );
    tokens.by_ref().for_each(drop);
    assert!(tokens.is_complete());
}

#[test]
fn break_text_splits_runs_and_empty_text_makes_no_token() {
    let mut w = Writer::default();
    w.text("a");
    w.break_text();
    w.text("");
    w.break_text();
    w.text("b");
    let (ops, text) = w.finish();
    assert_eq!(owned(Tokens::new(&ops, &text)), vec![r#"T"a""#, r#"T"b""#]);
}

#[test]
fn many_attributes_take_a_multi_byte_count() {
    let names: Vec<String> = (0..300).map(|i| format!("a{i}")).collect();
    let mut w = Writer::default();
    w.start("p", names.iter().map(|n| (n.as_str(), "v")));
    w.text("after");
    let (ops, text) = w.finish();
    let tokens: Vec<Token> = Tokens::new(&ops, &text).collect();
    let Token::Start { attrs, .. } = &tokens[0] else {
        panic!("{tokens:?}")
    };
    let attrs: Vec<Attr> = attrs.clone().collect();
    assert_eq!(attrs.len(), 300);
    assert_eq!((attrs[299].name, attrs[299].value), ("a299", "v"));
    assert_eq!(tokens[1], Token::Text("after"));
}

#[test]
fn long_strings_take_multi_byte_lengths() {
    let long = "x".repeat(70_000);
    let mut w = Writer::default();
    w.start("p", [("title", long.as_str())].into_iter());
    w.text(&long);
    let (ops, text) = w.finish();
    let tokens: Vec<Token> = Tokens::new(&ops, &text).collect();
    assert_eq!(tokens.len(), 2);
    assert_eq!(tokens[1], Token::Text(&long));
}

#[test]
fn ids_name_the_listed_names_and_lists_are_sorted() {
    for list in [TAGS, ATTRS] {
        assert!(list.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates");
        assert!(list.len() < 255);
    }
    assert_eq!(TAGS[tag_id("table") as usize - 1], "table");
    assert_eq!(ATTRS[attr_id("href") as usize - 1], "href");
    assert_eq!(tag_id("TABLE"), 0, "names are matched as written");
    assert_eq!(tag_id("custom-el"), 0);
}

#[test]
fn a_broken_stream_stops_without_panicking() {
    let mut w = Writer::default();
    w.start("a", [("href", "https://é.example/")].into_iter());
    w.text("héllo");
    w.end("a");
    let (ops, text) = w.finish();
    // Every truncation of ops reads a prefix of the tokens.
    let all = owned(Tokens::new(&ops, &text));
    for cut in 0..ops.len() {
        let got = owned(Tokens::new(&ops[..cut], &text));
        assert_eq!(got[..], all[..got.len()], "cut at {cut}");
    }
    let cut_text = &text[..text.len() - 3];
    let mut t = Tokens::new(&ops, cut_text);
    t.by_ref().for_each(drop);
    assert!(!t.is_complete());
    // A string ending inside a multi-byte character.
    let bad = [FORMAT_VERSION, OP_TEXT, 2];
    let mut t = Tokens::new(&bad, "é");
    assert_eq!(t.next(), Some(Token::Text("é")));
    let bad = [FORMAT_VERSION, OP_TEXT, 1];
    assert_eq!(Tokens::new(&bad, "é").next(), None);
    // Unknown op, unknown id, unknown version, overlong varint.
    assert_eq!(Tokens::new(&[FORMAT_VERSION, 9], "").next(), None);
    assert_eq!(Tokens::new(&[FORMAT_VERSION, OP_END, 255], "").next(), None);
    assert_eq!(Tokens::new(&[2, OP_TEXT, 0], "").next(), None);
    let overlong = [FORMAT_VERSION, OP_TEXT, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    assert_eq!(Tokens::new(&overlong, "").next(), None);
}

#[test]
fn no_stream_has_no_tokens() {
    let mut t = Tokens::new(&[], "");
    assert_eq!(t.next(), None);
    assert!(t.is_complete());
    assert!(!Tokens::is_present(&[]));
}

#[test]
fn every_listed_name_has_its_own_id() {
    for (list, id_of) in [(TAGS, tag_id as fn(&str) -> u8), (ATTRS, attr_id)] {
        for (i, name) in list.iter().enumerate() {
            assert_eq!(id_of(name) as usize, i + 1, "{name}");
        }
        assert_eq!(id_of(""), 0);
        assert_eq!(id_of("zzz"), 0);
    }
}

#[test]
fn carriage_returns_are_found_at_every_offset_and_normalised() {
    for len in 0..80 {
        assert!(!crate::encode::has_cr(&vec![b'x'; len]));
        for at in 0..len {
            let mut s = vec![b'x'; len];
            s[at] = b'\r';
            assert!(crate::encode::has_cr(&s), "{len} {at}");
            let mut w = Writer::default();
            w.text(std::str::from_utf8(&s).unwrap());
            let (_, text) = w.finish();
            let mut want = vec![b'x'; len];
            want[at] = b'\n';
            assert_eq!(text.as_bytes(), &want[..], "{len} {at}");
        }
    }
}

/// What a stream yields, and whether it was complete, with attributes read
/// by `read_attrs`.
fn decoded(ops: &[u8], text: &str, read_attrs: fn(Attrs<'_>) -> Vec<Attr<'_>>) -> (Vec<String>, bool) {
    let mut tokens = Tokens::new(ops, text);
    let got = owned_with(tokens.by_ref(), read_attrs);
    (got, tokens.is_complete())
}

/// [`decoded`] through [`Tokens::next_with_attrs`]: a start tag's
/// attributes are those handed over before the token (what a broken tag
/// handed over is dropped with it).
fn handed_over(ops: &[u8], text: &str) -> (Vec<String>, bool) {
    let mut tokens = Tokens::new(ops, text);
    let mut got = Vec::new();
    loop {
        let mut attrs = Vec::new();
        let Some(token) = tokens.next_with_attrs(|a| attrs.push(a)) else {
            break;
        };
        if let Token::Start { attrs: left, .. } = &token {
            assert_eq!(left.clone().count(), 0, "attributes left to iterate");
        }
        got.extend(
            owned_with([token].into_iter(), |_| Vec::new())
                .into_iter()
                .map(|t| match t.strip_suffix("[]") {
                    Some(head) if t.starts_with('S') => {
                        let attrs: Vec<String> = attrs
                            .iter()
                            .map(|a| format!("{}#{}={:?}", a.name, a.id, a.value))
                            .collect();
                        format!("{head}[{}]", attrs.join(" "))
                    }
                    _ => t,
                }),
        );
    }
    (got, tokens.is_complete())
}

#[test]
fn attributes_checked_once_read_as_when_checked_twice_in_broken_streams() {
    let long = "v".repeat(200);
    let mut w = Writer::default();
    w.start(
        "a",
        [
            ("href", "https://é.example/"),
            ("x-é", "ü"),
            ("title", long.as_str()),
        ]
        .into_iter(),
    );
    w.text("héllo");
    w.start("my-el", [("class", "a b"), ("data-q", "")].into_iter());
    w.end("my-el");
    w.start("img", [("alt", "€"), ("src", "s")].into_iter());
    w.end("a");
    let (ops, text) = w.finish();
    fn once(attrs: Attrs<'_>) -> Vec<Attr<'_>> {
        attrs.collect()
    }
    fn twice(attrs: Attrs<'_>) -> Vec<Attr<'_>> {
        attrs.checked().collect()
    }
    let agree = |ops: &[u8], text: &str, what: &str| {
        let checked_twice = decoded(ops, text, twice);
        assert_eq!(decoded(ops, text, once), checked_twice, "{what}");
        assert_eq!(handed_over(ops, text), checked_twice, "{what}, handed over");
    };
    let (all, complete) = decoded(&ops, &text, once);
    assert!(complete && all.len() == 6, "{all:?}");
    for cut in 0..=ops.len() {
        agree(&ops[..cut], &text, &format!("ops cut at {cut}"));
    }
    for cut in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
        agree(&ops, &text[..cut], &format!("text cut at {cut}"));
    }
    // Every byte of ops replaced by values that change its meaning: ops,
    // ids in and out of the lists, lengths off by one (into a character),
    // varints that continue or run long.
    let mut broken = 0;
    for at in 1..ops.len() {
        for value in [
            0,
            1,
            2,
            3,
            35,
            36,
            0x7f,
            0x80,
            0xff,
            ops[at].wrapping_add(1),
            ops[at].wrapping_sub(1),
        ] {
            let mut bad = ops.clone();
            bad[at] = value;
            agree(&bad, &text, &format!("ops[{at}] = {value}"));
            broken += usize::from(!decoded(&bad, &text, once).1);
        }
    }
    assert!(broken > 100, "the mutations break streams ({broken})");
}

#[test]
fn an_end_tag_written_with_its_start_tags_id_is_the_same_bytes() {
    // Every listed name, an unlisted one and an empty one: `start` returns the id it
    // wrote, and `end_id` with it writes what `end` writes.
    let names: Vec<&str> = TAGS.iter().copied().chain(["my-widget", "x", ""]).collect();
    let (mut by_name, mut by_id) = (Writer::default(), Writer::default());
    for name in &names {
        by_name.start(name, std::iter::empty::<(&str, &str)>());
        by_name.text("t");
        by_name.end(name);
        let id = by_id.start(name, std::iter::empty::<(&str, &str)>());
        assert_eq!(id, tag_id(name), "{name}");
        by_id.text("t");
        by_id.end_id(id, name);
    }
    let (by_name, by_id) = (by_name.finish(), by_id.finish());
    assert_eq!(by_name, by_id);
    let ends = owned(Tokens::new(&by_id.0, &by_id.1))
        .into_iter()
        .filter(|t| t.starts_with('E'))
        .count();
    assert_eq!(ends, names.len());
}

#[test]
fn no_carriage_return_is_found_among_every_other_byte_value() {
    // Every byte but `\r`, at every length and shift (the word test's
    // borrows and the overlapping tails must not make a hit).
    let others: Vec<u8> = (0..=255u8).filter(|&b| b != b'\r').collect();
    for len in 0..80 {
        for shift in 0..others.len() {
            let s: Vec<u8> = others.iter().cycle().skip(shift).take(len).copied().collect();
            assert!(!crate::encode::has_cr(&s), "{len} {shift}");
        }
    }
}
