use super::*;
use distill_sdk::documents::testing::{self, many_entries_zip, pos, unsupported};

fn fixture(name: &str) -> Vec<u8> {
    testing::fixture(env!("CARGO_MANIFEST_DIR"), name)
}

fn convert(name: &str) -> Result<Document, PluginError> {
    testing::convert_fixture::<Odf>(env!("CARGO_MANIFEST_DIR"), name)
}

#[test]
fn writer() {
    let doc = convert("writer.odt").unwrap();
    let h = &doc.content;
    let meta: Value = serde_json::from_str(&doc.metadata).unwrap();
    assert_eq!(meta["title"], "Quarterly Report Fixture");
    assert!(h.contains("<h1>Quarterly Report</h1>"), "{h}");
    assert!(h.contains("<h1>Introduction</h1>"));
    assert!(h.contains("<h2>Lists</h2>"));
    assert!(h.contains("<strong>bold words</strong>"));
    assert!(h.contains("<em>italic words</em>"));
    assert!(h.contains("<a href=\"https://example.com/report\">link to example</a>"));
    assert!(h.contains("<ol>\n<li>First step<ol>\n<li>Sub step A</li>\n<li>Sub step B</li>\n</ol>\n</li>\n<li>Second step</li>\n</ol>"), "{h}");
    assert!(
        h.contains("<ul>\n<li>Apple bullet<ul>\n<li>Nested bullet</li>"),
        "{h}"
    );
    assert!(h.contains("<tr><th>Region</th><th>Q1</th><th>Q2</th></tr>"));
    assert!(h.contains("<tr><td>South</td><td>90</td><td>95</td></tr>"));
    let header = pos(h, "Confidential Header Text");
    let body = pos(h, "Introduction");
    let foot = pos(h, "This is the first footnote.");
    let end = pos(h, "This is an endnote.");
    let footer = pos(h, "Page Footer Text");
    assert!(header < body && body < foot && foot < end && end < footer, "{h}");
}

#[test]
fn impress() {
    let doc = convert("deck.odp").unwrap();
    let h = &doc.content;
    let meta: Value = serde_json::from_str(&doc.metadata).unwrap();
    assert_eq!(meta["numPages"], 4);
    assert_eq!(meta["title"], "Deck Fixture Title");
    let s1 = pos(h, "<h2>Slide 1: Welcome Slide</h2>");
    let n1 = pos(h, "Speaker notes for slide one");
    let s2 = pos(h, "<h2>Slide 2: Agenda</h2>");
    let s3 = pos(h, "<h2>Slide 3: Numbers Table</h2>");
    assert!(s1 < n1 && n1 < s2 && s2 < s3, "{h}");
    // Slide 4's only text is in a draw:custom-shape (how LibreOffice writes text boxes).
    assert!(
        pos(h, "<h2>Slide 4</h2>") < pos(h, "Slide without a title"),
        "{h}"
    );
    assert!(h.contains("<h3>Notes</h3>"));
    assert!(
        h.contains("<ul>\n<li>First point<ul>\n<li>Nested point</li>\n</ul>\n</li>\n<li>Second point"),
        "{h}"
    );
    assert!(h.contains("<td>Revenue</td><td>$5k</td>"), "{h}");
    assert!(h.contains("Notes on the table slide"));
}

#[test]
fn hostile_inputs_are_refused() {
    assert!(unsupported(convert("hostile-pdf-renamed.odt")).contains("PDF"));
    let r = testing::convert_bytes::<Odf>("many.odt", many_entries_zip(10_001));
    assert!(unsupported(r).contains("entries"));
    let r = testing::convert_bytes::<Odf>("x.odt", fixture("word-features.docx"));
    assert!(unsupported(r).contains("Word"));
    let r = testing::convert_bytes::<Odf>("x.odt", fixture("workbook.ods"));
    assert!(unsupported(r).contains("spreadsheet"));
    let bytes = fixture("writer.odt");
    let r = testing::convert_bytes::<Odf>("t.odt", bytes[..bytes.len() / 2].to_vec());
    assert!(unsupported(r).contains("truncated"));
}

#[test]
fn note_labels() {
    let h = convert("writer.odt").unwrap().content;
    assert!(
        h.contains(".[1] More text")
            && h.contains("<p>[1] This is the first footnote.</p>")
            && h.contains("<p>[i] This is an endnote.</p>"),
        "{h}"
    );
}
