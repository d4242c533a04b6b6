//! Document fidelity over `POST /v2/parse`: text in legacy code pages (RTF in
//! Japanese cp932 and Czech cp1250, CSV in Shift-JIS and Windows-1252), RTF
//! page headers, footers and footnotes, and a PDF title line that
//! pdf-inspector drops. Fixtures: tests/fixtures/documents/sources-fidelity.

use distill_e2e::{assert_in_order, parse_fixture};

#[tokio::test]
async fn rtf_in_japanese_shift_jis_keeps_its_text_header_footnote_and_footer() {
    let r = parse_fixture("japanese-cp932.rtf").await;
    let md = r.markdown();
    assert_in_order(
        md,
        &[
            "社外秘 HEADER-MARKER",
            "# 会議録",
            "本日の会議では、新しい図書館の計画について話し合いました。[1]ソフトウェアの表も確認しました。",
            "次回は来月です。",
            "[1] 予算は来年度に確定します。",
            "FOOTER-MARKER １ページ",
        ],
    );
    assert!(!md.contains('\u{FFFD}'), "{md}");
    assert_eq!(r.metadata()["title"], "会議録", "{}", r.pretty());
}

#[tokio::test]
async fn rtf_in_czech_cp1250_is_decoded() {
    let r = parse_fixture("czech-cp1250.rtf").await;
    assert_in_order(
        r.markdown(),
        &[
            "# Zápis z jednání",
            "Příliš žluťoučký kůň úpěl ďábelské ódy.",
            "Účastníci: Šárka, Řehoř a Ďurica.",
        ],
    );
    assert_eq!(r.metadata()["title"], "Zápis z jednání", "{}", r.pretty());
}

#[tokio::test]
async fn libreoffice_rtf_keeps_unicode_text_and_its_notes() {
    let md = parse_fixture("fidelity-lo.rtf").await.markdown().to_string();
    assert_in_order(
        &md,
        &[
            "社外秘 HEADER-MARKER",
            "# 会議録",
            "図書館の計画について話し合いました。[1]",
            "# Zápis z jednání",
            "Příliš žluťoučký kůň úpěl ďábelské ódy.[2] Konec.",
            "[1] 脚注：予算は来年度に確定します。",
            "[2] Poznámka pod čarou: rozpočet bude schválen.",
            "FOOTER-MARKER strana 1",
        ],
    );
    assert_eq!(md.matches("HEADER-MARKER").count(), 1, "{md}");
}

#[tokio::test]
async fn csv_in_legacy_encodings_is_detected_and_decoded() {
    let r = parse_fixture("japanese-cp932.csv").await;
    assert_in_order(
        r.markdown(),
        &[
            "| 商品名 | 価格 | 産地 | 備考 |",
            "| りんご | 120 | 青森県 | ソフトな食感 |",
            "| みかん | 80 | 愛媛県 | 甘い、小さい |",
            "| 表計算ソフト | 9800 | 東京都 | ダウンロード版 |",
        ],
    );
    assert_eq!(r.metadata()["encoding"], "Shift_JIS", "{}", r.pretty());
    let r = parse_fixture("western-cp1252.csv").await;
    assert_in_order(
        r.markdown(),
        &[
            "| Ville | Café | Prix (€) | Remarque |",
            "| Köln | Früh am Dom | 3,50 | Kölsch – sehr gut |",
            "| São Paulo | Padaria Bella Paulista | 2,10 | pão de queijo |",
        ],
    );
    assert_eq!(r.metadata()["encoding"], "windows-1252", "{}", r.pretty());
}

#[tokio::test]
async fn a_pdf_keeps_its_title_line() {
    // A bold capitals title a little smaller than the body text.
    let md = parse_fixture("pdf-title-small-caps.pdf")
        .await
        .markdown()
        .to_string();
    assert!(
        md.starts_with("## LIBRARY SERVICES AGREEMENT\n\nThis agreement is made between"),
        "{md}"
    );
    // A large title stays a heading, once.
    let md = parse_fixture("pdf-title-large.pdf").await.markdown().to_string();
    assert!(
        md.starts_with("# Annual Report of the Library Committee\n"),
        "{md}"
    );
    assert_eq!(md.matches("Annual Report").count(), 1, "{md}");
}
