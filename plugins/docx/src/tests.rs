use super::*;
use crate::fields::field_link;
use distill_sdk::documents::testing::{self, many_entries_zip, pos, unsupported};
use distill_sdk::serde_json;

fn fixture(name: &str) -> Vec<u8> {
    testing::fixture(env!("CARGO_MANIFEST_DIR"), name)
}

fn convert(name: &str) -> Result<Document, PluginError> {
    testing::convert_fixture::<Docx>(env!("CARGO_MANIFEST_DIR"), name)
}

#[test]
fn word_features() {
    let doc = convert("word-features.docx").unwrap();
    let h = &doc.content;
    let meta: Value = serde_json::from_str(&doc.metadata).unwrap();
    assert_eq!(meta["title"], "Word Fixture Title");
    assert_eq!(meta["author"], "Fixture Author");
    assert!(h.contains("<h1>Main Heading One</h1>"), "{h}");
    assert!(h.contains("<h2>Sub Heading Two</h2>"));
    assert!(h.contains("<h3>Data Table</h3>"));
    assert!(h.contains("<strong>bold text</strong>"));
    assert!(h.contains("<em>italic text</em>"));
    assert!(h.contains("<a href=\"https://www.rust-lang.org/\">Rust website</a>"));
    // Bullets with a nested level, then a numbered list.
    assert!(
        h.contains("<ul>\n<li>Bullet one<ul>\n<li>Bullet nested</li></ul>\n</li>\n<li>Bullet two</li></ul>"),
        "{h}"
    );
    assert!(
        h.contains("<ol>\n<li>Number one</li>\n<li>Number two</li></ol>"),
        "{h}"
    );
    assert!(h.contains("<tr><th>Name</th><th>Age</th><th>City</th></tr>"));
    assert!(h.contains("<td>Berlin &amp; Co &lt;x&gt;</td>"));
    assert!(pos(h, "HEADER-MARKER") < pos(h, "Main Heading One"));
    assert!(pos(h, "BODY-END") < pos(h, "FOOTER-MARKER"));
}

#[test]
fn libreoffice_docx() {
    let doc = convert("docx-lo.docx").unwrap();
    let h = &doc.content;
    let meta: Value = serde_json::from_str(&doc.metadata).unwrap();
    assert_eq!(meta["title"], "Quarterly Report Fixture");
    assert!(h.contains("<h1>Introduction</h1>"), "{h}");
    assert!(h.contains("<h2>Lists</h2>"));
    assert!(h.contains("<strong>bold words</strong>"));
    assert!(h.contains("<em>italic words</em>"));
    assert!(h.contains("href=\"https://example.com/report\""));
    assert!(h.contains("<ol>\n<li>First step<ol>\n<li>Sub step A</li>\n<li>Sub step B</li></ol>\n</li>\n<li>Second step</li></ol>"), "{h}");
    assert!(
        h.contains("<ul>\n<li>Apple bullet<ul>\n<li>Nested bullet</li></ul>"),
        "{h}"
    );
    assert!(h.contains("<th>Region</th>"));
    assert!(h.contains("<td>South</td><td>90</td><td>95</td>"));
    // Order: header < body < footnotes < endnotes < footer.
    let header = pos(h, "Confidential Header Text");
    let body = pos(h, "Introduction");
    let closing = pos(h, "Closing paragraph");
    let foot = pos(h, "This is the first footnote.");
    let end = pos(h, "This is an endnote.");
    let footer = pos(h, "Page Footer Text");
    assert!(
        header < body && body < closing && closing < foot && foot < end && end < footer,
        "{h}"
    );
    assert!(
        h.contains("follows")
            && h.contains(".[1] More text")
            && h.contains("<p>[1] This is the first footnote.</p>")
            && h.contains("<p>[i] This is an endnote.</p>"),
        "{h}"
    );
}

#[test]
fn hostile_inputs_are_refused() {
    assert!(unsupported(convert("hostile-zip-bomb.docx")).contains("ZIP bomb"));
    assert!(unsupported(convert("hostile-deep-nesting.docx")).contains("deeper than"));
    let m = unsupported(convert("hostile-truncated.docx"));
    assert!(m.contains("truncated or corrupt"), "{m}");
    assert!(unsupported(convert("hostile-pdf-renamed.docx")).contains("PDF"));
    assert!(unsupported(convert("hostile-encrypted.docx")).contains("password-protected"));
    let r = testing::convert_bytes::<Docx>("many.docx", many_entries_zip(10_001));
    assert!(unsupported(r).contains("entries"));
    let r = testing::convert_bytes::<Docx>("x.docx", fixture("workbook.xlsx"));
    assert!(unsupported(r).contains("Excel"));
}

#[test]
fn entities_are_not_expanded() {
    let doc = convert("hostile-billion-laughs.docx").unwrap();
    assert!(doc.content.contains("laughs  end"), "{}", doc.content);
}

#[test]
fn hyperlink_field_instructions() {
    assert_eq!(
        field_link(" HYPERLINK \"https://a.example/x\" ").as_deref(),
        Some("https://a.example/x")
    );
    assert_eq!(field_link("HYPERLINK \\l \"sec2\"").as_deref(), Some("#sec2"));
    assert_eq!(field_link("PAGE"), None);
}

/// Documents per second, natively: `cargo test --release -- --ignored --nocapture throughput`.
#[test]
#[ignore]
fn throughput() {
    testing::throughput::<Docx>(
        env!("CARGO_MANIFEST_DIR"),
        &["word-features.docx", "docx-lo.docx"],
        300,
    );
}
