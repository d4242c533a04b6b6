use super::*;
use distill_sdk::documents::testing::{self, many_entries_zip, pos, unsupported};

fn fixture(name: &str) -> Vec<u8> {
    testing::fixture(env!("CARGO_MANIFEST_DIR"), name)
}

fn convert(name: &str) -> Result<Document, PluginError> {
    testing::convert_fixture::<Pptx>(env!("CARGO_MANIFEST_DIR"), name)
}

#[test]
fn deck() {
    let doc = convert("deck.pptx").unwrap();
    let h = &doc.content;
    let meta: Value = serde_json::from_str(&doc.metadata).unwrap();
    assert_eq!(meta["title"], "Deck Fixture Title");
    assert_eq!(meta["numPages"], 4);
    let s1 = pos(h, "<h2>Slide 1: Welcome Slide</h2>");
    let sub = pos(h, "<p>Subtitle text here</p>");
    let n1 = pos(h, "Speaker notes for slide one");
    let s2 = pos(h, "<h2>Slide 2: Agenda</h2>");
    let s3 = pos(h, "<h2>Slide 3: Numbers Table</h2>");
    let s4 = pos(h, "<h2>Slide 4</h2>");
    assert!(s1 < sub && sub < n1 && n1 < s2 && s2 < s3 && s3 < s4, "{h}");
    assert!(
        h[s1..s2].contains("<h3>Notes</h3>\n<p>Speaker notes for slide one</p>"),
        "{h}"
    );
    assert!(h.contains("<ul>\n<li>First point<ul>\n<li>Nested point</li></ul>\n</li>\n<li>Second point<a href=\"https://example.org/docs\"> (docs)</a></li></ul>"), "{h}");
    assert!(h.contains("<tr><th>Metric</th><th>Value</th></tr>"));
    assert!(h.contains("<tr><td>Revenue</td><td>$5k</td></tr>"));
    // The table sits above the text box: reading order by position.
    assert!(pos(h, "<th>Metric</th>") < pos(h, "Footnote box below table"));
    assert!(pos(h, "Footnote box below table") < pos(h, "Notes on the table slide"));
    assert!(h.contains("Slide without a title"));
}

#[test]
fn hostile_inputs_are_refused() {
    assert!(unsupported(convert("hostile-deep-nesting.pptx")).contains("deeper than"));
    let m = unsupported(convert("hostile-truncated.pptx"));
    assert!(m.contains("truncated or corrupt"), "{m}");
    assert!(unsupported(convert("hostile-pdf-renamed.pptx")).contains("PDF"));
    let r = testing::convert_bytes::<Pptx>("e.pptx", fixture("hostile-encrypted.docx"));
    assert!(unsupported(r).contains("password-protected"));
    let r = testing::convert_bytes::<Pptx>("many.pptx", many_entries_zip(10_001));
    assert!(unsupported(r).contains("entries"));
    let r = testing::convert_bytes::<Pptx>("x.pptx", fixture("word-features.docx"));
    assert!(unsupported(r).contains("Word"));
}

/// Documents per second, natively: `cargo test --release -- --ignored --nocapture throughput`.
#[test]
#[ignore]
fn throughput() {
    testing::throughput::<Pptx>(env!("CARGO_MANIFEST_DIR"), &["deck.pptx"], 300);
}
