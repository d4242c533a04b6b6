use super::*;
use distill_sdk::documents::testing::{self, many_entries_zip, pos, unsupported};

fn fixture(name: &str) -> Vec<u8> {
    testing::fixture(env!("CARGO_MANIFEST_DIR"), name)
}

fn convert(name: &str) -> Result<Document, PluginError> {
    testing::convert_fixture::<Epub>(env!("CARGO_MANIFEST_DIR"), name)
}

#[test]
fn book() {
    let doc = convert("book.epub").unwrap();
    let h = &doc.content;
    let meta: Value = serde_json::from_str(&doc.metadata).unwrap();
    assert_eq!(meta["title"], "The Fixture Book");
    assert_eq!(meta["author"], "Ann Author");
    assert_eq!(meta["numChapters"], 2);
    // Spine order: chapter 2's file comes first.
    assert!(pos(h, "Chapter Beta") < pos(h, "Chapter Alpha"), "{h}");
    assert!(!h.contains("alert(1)") && !h.contains("color:red"));
    assert!(h.contains("<em>emphasis</em>\u{a0}and"));
    assert!(h.contains("<a href=\"#s\">a cross link</a>"), "{h}");
    assert!(h.contains("<a href=\"https://example.net/\">an outside link</a>"));
    assert!(h.contains("<img alt=\"A picture\">"));
    assert!(h.contains("<th>k</th>"));
    assert!(
        !h.contains(">Nav<") && !h.contains(">One</a>"),
        "non-linear nav skipped"
    );
}

#[test]
fn hostile_inputs_are_refused() {
    assert!(unsupported(convert("hostile-pdf-renamed.epub")).contains("PDF"));
    let r = testing::convert_bytes::<Epub>("many.epub", many_entries_zip(10_001));
    assert!(unsupported(r).contains("entries"));
    let r = testing::convert_bytes::<Epub>("x.epub", fixture("word-features.docx"));
    assert!(unsupported(r).contains("container.xml"));
    let bytes = fixture("book.epub");
    let r = testing::convert_bytes::<Epub>("t.epub", bytes[..bytes.len() / 2].to_vec());
    assert!(unsupported(r).contains("truncated"));
}
