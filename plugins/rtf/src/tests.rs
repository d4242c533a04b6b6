//! Unit tests of the RTF converter on hand-written RTF: structure, code pages
//! (single- and double-byte, per font, `\uN` with `\ucN`, `\upr`), headers,
//! footers and footnotes, hostile input, and the fixtures.

use super::*;

/// The HTML of hand-written RTF.
fn html(rtf: &[u8]) -> String {
    conv(rtf).unwrap().content
}

#[test]
fn japanese_in_shift_jis_hex_pairs() {
    // 日本語のテキスト, every byte as \'hh.
    let c = html(br"{\rtf1\ansi\ansicpg932\deff0{\fonttbl{\f0\fnil\fcharset128 MS Mincho;}}\f0 \'93\'fa\'96\'7b\'8c\'ea\'82\'cc\'83\'65\'83\'4c\'83\'58\'83\'67\par}");
    assert!(c.contains("<p>日本語のテキスト</p>"), "{c}");
}

#[test]
fn shift_jis_trail_bytes_as_literal_and_escaped_characters() {
    // ソフト表: 83 5C, 83 74, 83 67, 95 5C; 0x5C (\) comes escaped, 0x74/0x67 as letters.
    let c = html(br"{\rtf1\ansi\ansicpg932 \'83\\\'83t\'83g\'95\\ ok\par}");
    assert!(c.contains("<p>ソフト表 ok</p>"), "{c}");
}

#[test]
fn fcharset_of_the_font_decides_without_ansicpg() {
    // A Western document whose second font is Japanese (charset 128) and third Cyrillic (204).
    let c = html(br"{\rtf1\ansi\deff0{\fonttbl{\f0\froman\fcharset0 Times;}{\f1\fnil\fcharset128 MS Gothic;}{\f2\fswiss\fcharset204 Arial Cyr;}}\f0 caf\'e9 {\f1 \'93\'fa\'96\'7b} {\f2 \'cf\'f0\'e8\'e2\'e5\'f2}\par}");
    assert!(c.contains("<p>café 日本 Привет</p>"), "{c}");
    // A font table without a group per font.
    let c =
        html(br"{\rtf1\ansi{\fonttbl\f0\fswiss Arial;\f1\fnil\fcharset238 Arial CE;}\f1 \'e8\'ed\'9e\par}");
    assert!(c.contains("<p>číž</p>"), "{c}");
}

#[test]
fn czech_in_cp1250() {
    let c = html(br"{\rtf1\ansi\ansicpg1250\deff0{\fonttbl{\f0\fnil\fcharset0 Calibri;}}\f0 P\'f8\'edli\'9a \'9elu\'9dou\'e8k\'fd k\'f9\'f2 \'fap\'ecl \'ef\'e1belsk\'e9 \'f3dy\par}");
    assert!(c.contains("<p>Příliš žluťoučký kůň úpěl ďábelské ódy</p>"), "{c}");
}

#[test]
fn other_double_byte_pages() {
    for (cp, bytes, text) in [
        ("936", r"\'d6\'d0\'ce\'c4", "中文"),
        ("949", r"\'c7\'d1\'b1\'b9\'be\'ee", "한국어"),
        ("950", r"\'c1\'63\'c5\'e9", "繁體"),
    ] {
        let rtf = format!(r"{{\rtf1\ansi\ansicpg{cp} {bytes}\par}}");
        let c = html(rtf.as_bytes());
        assert!(c.contains(&format!("<p>{text}</p>")), "{cp}: {c}");
    }
}

#[test]
fn unicode_escapes_skip_their_fallbacks() {
    // \uc1 with '?' fallbacks; a negative N (가 = 44032 - 65536); a surrogate pair.
    let c = html(br"{\rtf1\ansi\uc1\u26085?\u26412?\u35486? \u-21504?\u-10179?\u-8704?\par}");
    assert!(c.contains("<p>日本語 가😀</p>"), "{c}");
    // \uc2 with double-byte fallbacks, scoped by the group; after it \uc1 again.
    let c = html(br"{\rtf1\ansi\ansicpg932 {\uc2\u26085\'93\'fa\u26412\'96\'7b}\u35486?\par}");
    assert!(c.contains("<p>日本語</p>"), "{c}");
    // \uc0: no fallback at all.
    let c = html(br"{\rtf1\uc0\u26085\u26412 x\par}");
    assert!(c.contains("<p>日本x</p>"), "{c}");
}

#[test]
fn upr_prefers_the_unicode_twin() {
    let d = conv(br"{\rtf1\ansi\ansicpg1252{\info{\upr{\title Nihon}{\*\ud{\title \u26085?\u26412?}}}}{\upr{Plain ANSI}{\*\ud{\u26085?\u26412? text}}}\par}").unwrap();
    assert!(d.content.contains("<p>日本 text</p>"), "{}", d.content);
    assert!(!d.content.contains("Plain ANSI"), "{}", d.content);
    assert!(d.metadata.contains("日本"), "{}", d.metadata);
    assert!(!d.metadata.contains("Nihon"), "{}", d.metadata);
}

#[test]
fn headers_footers_and_footnotes_are_kept() {
    let c = html(br"{\rtf1\ansi{\header \pard Running head\par}{\headerf \pard Running head\par}{\footer \pard Page foot\par}\pard Body text{\super\chftn}{\footnote \pard\plain{\super\chftn} First note.}, more{\super\chftn}{\footnote \pard\plain{\super\chftn} Second {\b note}.\par}.\par Last paragraph.\par}");
    let order = [
        "<div data-part=\"header\">\n<p>Running head</p>",
        "<p>Body text[1], more[2].</p>",
        "<p>Last paragraph.</p>",
        "<p>[1] First note.</p>",
        "<p>[2] Second <strong>note</strong>.</p>",
        "<div data-part=\"footer\">\n<p>Page foot</p>",
    ];
    let pos: Vec<usize> = order
        .iter()
        .map(|s| c.find(s).unwrap_or_else(|| panic!("missing {s}: {c}")))
        .collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{c}");
    // The first-page header repeats the header: written once.
    assert_eq!(c.matches("Running head").count(), 1, "{c}");
}

#[test]
fn text_boxes_are_read_once() {
    let c = html(br"{\rtf1 Before\par{\shp{\*\shpinst\shpleft0{\sp{\sn shapeType}{\sv 202}}{\shptxt \pard Boxed {\b text}\par}}{\shprslt{\*\do\dobxcolumn{\dptxbx{\pard Boxed text\par}}}}}After\par}");
    in_order(
        &c,
        &[
            "<p>Before</p>",
            "<p>Boxed <strong>text</strong></p>",
            "<p>After</p>",
        ],
    );
    assert_eq!(c.matches("Boxed").count(), 1, "{c}");
    assert!(!c.contains("202") && !c.contains("shapeType"), "{c}");
}

#[test]
fn skipped_destinations_stay_skipped() {
    // Nothing inside an ignored destination becomes text, not even a nested \fldrslt.
    let c = html(br"{\rtf1{\*\unknown {\fldrslt hidden}}{\pict {\fldrslt hidden2}}Seen\par}");
    assert!(c.contains("<p>Seen</p>") && !c.contains("hidden"), "{c}");
}

fn conv(bytes: &[u8]) -> Result<Document, PluginError> {
    Rtf::convert(
        &FileInput {
            name: "a.rtf".into(),
            content_type: None,
            bytes: bytes.to_vec(),
        },
        &json!({}),
    )
}

#[test]
fn basic_formatting() {
    let d = conv(br"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}}{\info{\title My Doc}}\f0 Hello {\b bold} and {\i it}\'e9\par Second\u8364? end\par}").unwrap();
    assert!(
        d.content
            .contains("<p>Hello <strong>bold</strong> and <em>it</em>é</p>"),
        "{}",
        d.content
    );
    assert!(d.content.contains("<p>Second€ end</p>"), "{}", d.content);
    assert!(d.metadata.contains("My Doc"));
}

#[test]
fn table_and_link() {
    let d = conv(br#"{\rtf1 {\field{\*\fldinst HYPERLINK "https://x.org/"}{\fldrslt Site}}\par\trowd\cellx100\cellx200\intbl A\cell B\cell\row\intbl 1\cell 2\cell\row\pard After\par}"#).unwrap();
    assert!(
        d.content.contains("<a href=\"https://x.org/\">Site</a>"),
        "{}",
        d.content
    );
    assert!(
        d.content.contains("<tr><th>A</th><th>B</th></tr>"),
        "{}",
        d.content
    );
    assert!(
        d.content.contains("<tr><td>1</td><td>2</td></tr>"),
        "{}",
        d.content
    );
    assert!(d.content.find("</table>").unwrap() < d.content.find("After").unwrap());
}

#[test]
fn rejects_non_rtf_and_survives_garbage() {
    assert!(matches!(
        conv(b"PK\x03\x04"),
        Err(PluginError::UnsupportedInput(_))
    ));
    let mut deep = b"{\\rtf1 ".to_vec();
    deep.extend(std::iter::repeat_n(b'{', 100_000));
    deep.extend(b"x");
    let d = conv(&deep).unwrap();
    assert!(!d.warnings.is_empty());
    let d = conv(br"{\rtf1 truncated \b te").unwrap();
    assert!(d.content.contains("truncated"));
}

#[test]
fn fixture() {
    let bytes = std::fs::read(format!(
        "{}/../../tests/fixtures/documents/sample.rtf",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let d = conv(&bytes).unwrap();
    let c = &d.content;
    eprintln!("{c}");
    for s in [
        "Quarterly Report",
        "<strong>",
        "<em>",
        "<table>",
        "Apples",
        "<li>",
        "https://example.com/",
    ] {
        assert!(c.contains(s), "missing {s}: {c}");
    }
    assert!(c.find("Quarterly Report").unwrap() < c.find("Apples").unwrap());
    assert!(
        c.contains("<h1>Quarterly Report</h1>") && c.contains("<h2>Highlights</h2>"),
        "{c}"
    );
    assert!(c.contains("<ol>\n<li>Hire two engineers</li>"), "{c}");
    assert!(c.contains("<ul>\n<li>Revenue grew by twelve percent</li>"), "{c}");
}

/// A fixture of tests/fixtures/documents, converted.
fn fixture_doc(name: &str) -> Document {
    let bytes = std::fs::read(format!(
        "{}/../../tests/fixtures/documents/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    conv(&bytes).unwrap()
}

/// Asserts each needle appears in `c`, in this order.
fn in_order(c: &str, needles: &[&str]) {
    let mut from = 0;
    for n in needles {
        match c[from..].find(n) {
            Some(at) => from += at + n.len(),
            None => panic!("{n:?} missing (or out of order) after byte {from} in:\n{c}"),
        }
    }
}

#[test]
fn word_style_japanese_fixture() {
    let d = fixture_doc("japanese-cp932.rtf");
    in_order(
        &d.content,
        &[
            "<div data-part=\"header\">\n<p>社外秘 HEADER-MARKER</p>",
            "<h1>会議録</h1>",
            "<p>本日の会議では、新しい図書館の計画について話し合いました。[1]ソフトウェアの表も確認しました。</p>",
            "<p>次回は来月です。</p>",
            "<p>[1] 予算は来年度に確定します。</p>",
            "<p>FOOTER-MARKER １ページ</p>",
        ],
    );
    assert!(!d.content.contains('\u{FFFD}'), "{}", d.content);
    assert!(
        d.metadata.contains("\"title\":\"会議録\"") && d.metadata.contains("山田太郎"),
        "{}",
        d.metadata
    );
    let d = fixture_doc("czech-cp1250.rtf");
    in_order(
        &d.content,
        &[
            "<h1>Zápis z jednání</h1>",
            "<p>Příliš žluťoučký kůň úpěl ďábelské ódy.</p>",
            "<p>Účastníci: Šárka, Řehoř a Ďurica.</p>",
        ],
    );
    assert!(d.metadata.contains("Zápis z jednání"), "{}", d.metadata);
}

#[test]
fn libreoffice_fixture_with_notes_header_and_footer() {
    let d = fixture_doc("fidelity-lo.rtf");
    let c = &d.content;
    eprintln!("{c}");
    in_order(
        c,
        &[
            "社外秘 HEADER-MARKER",
            "<h1>会議録</h1>",
            "本日の会議では、新しい図書館の計画について話し合いました。[1]ソフトウェアの表も確認しました。",
            "<h1>Zápis z jednání</h1>",
            "Příliš žluťoučký kůň úpěl ďábelské ódy.[2] Konec.",
            "[1] 脚注：予算は来年度に確定します。",
            "[2] Poznámka pod čarou: rozpočet bude schválen.",
            "FOOTER-MARKER strana 1",
        ],
    );
    assert_eq!(c.matches("HEADER-MARKER").count(), 1, "{c}");
    assert!(!c.contains('?') && !c.contains('\u{FFFD}'), "{c}");
}

#[test]
fn mutated_fixtures_never_panic() {
    // Truncations and byte flips of the fixtures (a fixed LCG: reproducible).
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    for name in ["japanese-cp932.rtf", "fidelity-lo.rtf", "sample.rtf"] {
        let bytes = std::fs::read(format!(
            "{}/../../tests/fixtures/documents/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        for _ in 0..200 {
            let mut b = bytes[..next() % bytes.len()].to_vec();
            for _ in 0..8 {
                if !b.is_empty() {
                    let at = next() % b.len();
                    let pool = b"{}\\'0u-9x\x82\xff";
                    b[at] = pool[next() % pool.len()];
                }
            }
            let _ = html_of(&b);
        }
    }
    // Extreme parameters: U+0000 is dropped, the next \u is its skipped fallback,
    // \ucN is capped at 8, bad hex and a negative \ansicpg are ignored.
    let c = html_of(
        br"{\rtf1\u-2147483648 \u2147483647 \uc2147483647 \u26085 xxxxxxxxy\'zz\ansicpg-5 \'e9\bin99999999999 z}",
    );
    assert!(c.contains("<p>日yé</p>"), "{c:?}");
}
