//! Document converters over HTTP: every extension of the spec uploaded to
//! `POST /v2/parse` through the shipped WASM converters, the structures each
//! family must keep, and scrape of a URL that serves a document.
//! (PDF options and OCR: `pdf.rs`; hostile files: `hostile_documents.rs`.)

use distill_e2e::{
    assert_in_order, parse_fixture, parse_upload, read_document, read_fixture, scrape, shared, site,
};
use serde_json::json;

/// Every extension the spec lists, with a fixture and the text that must come out.
const EVERY_EXTENSION: &[(&str, &str, &[&str])] = &[
    (
        "pdf",
        "report.pdf",
        &["# Quarterly Report", "|North|Apples|1200|", "## Outlook"],
    ),
    (
        "docx",
        "word-features.docx",
        &["# Main Heading One", "| Alice | 30 | Paris |"],
    ),
    (
        "docm",
        "macros.docm",
        &["# Main Heading One", "Final body paragraph BODY-END."],
    ),
    (
        "doc",
        "report.doc",
        &["# Quarterly Report", "| North | Apples | 1200 |", "## Outlook"],
    ),
    (
        "odt",
        "writer.odt",
        &["# Quarterly Report", "| North | 100 | 120 |"],
    ),
    (
        "ods",
        "workbook.ods",
        &["## Sales", "| North | 2024-01-15 | 1200 | 0.25 |"],
    ),
    (
        "odp",
        "deck.odp",
        &["## Slide 1: Welcome Slide", "Speaker notes for slide one"],
    ),
    (
        "rtf",
        "sample.rtf",
        &["# Quarterly Report", "| North | Apples | 1200 |"],
    ),
    (
        "xlsx",
        "workbook.xlsx",
        &["## Sales", "| North | 2024-01-15 | 1200 | 0.25 |", "## People"],
    ),
    (
        "xls",
        "workbook.xls",
        &["## Sales", "| North | 2024-01-15 | 1200 | 0.25 |", "## People"],
    ),
    ("xlsm", "macros.xlsm", &["## Sales", "| Alice | TRUE |"]),
    (
        "xlsb",
        "workbook.xlsb",
        &["## Inventory", "| Bolts | 120 | 0.25 |", "## Staff"],
    ),
    (
        "pptx",
        "deck.pptx",
        &["## Slide 1: Welcome Slide", "## Slide 3: Numbers Table"],
    ),
    (
        "ppt",
        "deck.ppt",
        &[
            "## Slide 1",
            "Product Launch Plan",
            "Speaker note: welcome everyone.",
        ],
    ),
    (
        "pptm",
        "macros.pptm",
        &["## Slide 2: Agenda", "Notes on the table slide"],
    ),
    ("epub", "book.epub", &["# Chapter Beta", "# Chapter Alpha"]),
    (
        "csv",
        "sample.csv",
        &["| Product | Price | Notes |", "| Gadget, deluxe | 19.50 |"],
    ),
];

#[tokio::test]
async fn every_spec_extension_converts_to_markdown() {
    for (ext, file, needles) in EVERY_EXTENSION {
        let name = format!("upload.{ext}");
        assert!(file.ends_with(ext), "fixture {file} for .{ext}");
        let r = parse_upload(shared().url(), &name, None, read_document(file), None).await;
        r.assert_ok();
        assert_in_order(r.markdown(), needles);
        assert_eq!(r.metadata()["sourceURL"], name.as_str(), "{}", r.pretty());
        let ctype = r.metadata()["contentType"].as_str().unwrap_or("");
        assert!(
            !ctype.is_empty() && ctype != "application/octet-stream",
            ".{ext}: contentType {ctype:?}"
        );
    }
    // The three HTML extensions go through the page pipeline.
    let html = read_fixture("article.html");
    for ext in ["html", "htm", "xhtml"] {
        let r = parse_upload(
            shared().url(),
            &format!("page.{ext}"),
            None,
            html.clone().into_bytes(),
            None,
        )
        .await;
        r.assert_ok();
        assert!(
            r.markdown().contains("# Lichens on Old Walls"),
            ".{ext}: {}",
            r.pretty()
        );
    }
}

#[tokio::test]
async fn the_unsupported_type_error_lists_the_spec_extensions() {
    let r = parse_upload(
        shared().url(),
        "notes.exe",
        Some("application/octet-stream"),
        b"MZ".to_vec(),
        None,
    )
    .await;
    r.assert_error(400, "UNSUPPORTED_FILE_TYPE");
    let spec = ".html, .htm, .xhtml, .pdf, .docx, .doc, .docm, .odt, .ods, .odp, .rtf, .xlsx, .xls, .xlsm, .xlsb, .pptx, .ppt, .pptm, .epub, .csv";
    assert!(
        r.error().starts_with(&format!(
            "Unsupported upload type. Supported file extensions: {spec}"
        )),
        "{}",
        r.pretty()
    );
}

#[tokio::test]
async fn a_document_is_recognised_by_its_declared_type_without_an_extension() {
    let mime = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    let r = parse_upload(
        shared().url(),
        "report",
        Some(mime),
        read_document("word-features.docx"),
        None,
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("# Main Heading One"), "{}", r.pretty());
    assert_eq!(r.metadata()["contentType"], mime);
}

#[tokio::test]
async fn docx_keeps_headers_body_footers_and_its_structures() {
    let r = parse_fixture("word-features.docx").await;
    let md = r.markdown();
    assert_in_order(
        md,
        &[
            "HEADER-MARKER running header",
            "# Main Heading One",
            "**bold text**",
            "_italic text_",
            "[Rust website](https://www.rust-lang.org/)",
            "## Sub Heading Two",
            "- Bullet one\n  - Bullet nested\n- Bullet two",
            "1. Number one\n2. Number two",
            "### Data Table",
            "| Name | Age | City |\n| --- | --- | --- |",
            "| Bob | 25 | Berlin & Co \\<x> |",
            "BODY-END",
            "FOOTER-MARKER running footer",
        ],
    );
    assert_eq!(r.metadata()["title"], "Word Fixture Title");
    // The HTML format carries the same document.
    let r = parse_upload(
        shared().url(),
        "w.docx",
        None,
        read_document("word-features.docx"),
        Some(&json!({"formats": ["html", "links"]})),
    )
    .await;
    r.assert_ok();
    assert!(r.data_str("html").contains("<table"), "{}", r.pretty());
    assert!(
        r.data()["links"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == "https://www.rust-lang.org/"),
        "{}",
        r.pretty()
    );
}

#[tokio::test]
async fn odt_keeps_nested_lists_tables_and_footnotes() {
    let md = parse_fixture("writer.odt").await.markdown().to_string();
    assert_in_order(
        &md,
        &[
            "Confidential Header Text",
            "# Quarterly Report",
            "[link to example](https://example.com/report)",
            "1. First step\n   1. Sub step A\n   2. Sub step B\n2. Second step",
            "- Apple bullet\n  - Nested bullet",
            "| Region | Q1 | Q2 |",
            "[1] This is the first footnote.",
            "[i] This is an endnote.",
            "Page Footer Text",
        ],
    );
}

#[tokio::test]
async fn spreadsheets_give_one_table_per_sheet_under_its_name() {
    for file in ["workbook.xlsx", "workbook.ods", "workbook.xls"] {
        let r = parse_fixture(file).await;
        let md = r.markdown();
        assert_in_order(
            md,
            &[
                "## Sales",
                "| Region | Date | Amount | Ratio |\n| --- | --- | --- | --- |",
                "| South | 2024-02-29 13:45 | 987.5 |",
                "| East & \\<West> | 1999-12-31 | -42 |",
                "## People",
                "| Name | Active |",
                "## Big",
                "| 1200 | 1440000 |",
            ],
        );
        // Every row is kept (the cap, 100 000 rows per sheet, is far away).
        assert!(r.data()["warning"].is_null(), "{file}: {}", r.pretty());
    }
}

#[tokio::test]
async fn slides_come_under_slide_headings_with_their_notes() {
    let md = parse_fixture("deck.pptx").await.markdown().to_string();
    assert_in_order(
        &md,
        &[
            "## Slide 1: Welcome Slide",
            "Subtitle text here",
            "### Notes",
            "Speaker notes for slide one",
            "## Slide 2: Agenda",
            "- First point\n  - Nested point",
            "[(docs)](https://example.org/docs)",
            "## Slide 3: Numbers Table",
            "| Metric | Value |",
            "Notes on the table slide",
            "## Slide 4",
            "Slide without a title",
        ],
    );
    let md = parse_fixture("deck.odp").await.markdown().to_string();
    assert_in_order(
        &md,
        &[
            "## Slide 1: Welcome Slide",
            "Speaker notes for slide one",
            "## Slide 3: Numbers Table",
            "| Users | 1000 |",
            "## Slide 4",
            "Slide without a title",
        ],
    );
    let md = parse_fixture("deck.ppt").await.markdown().to_string();
    assert_in_order(
        &md,
        &[
            "## Slide 1",
            "Speaker note: welcome everyone.",
            "## Slide 2",
            "- Reach ten thousand users",
            "## Slide 3",
        ],
    );
}

#[tokio::test]
async fn epub_chapters_follow_the_spine() {
    let r = parse_fixture("book.epub").await;
    let md = r.markdown();
    // The spine puts chapter 2 first; scripts and styles are dropped.
    assert_in_order(
        md,
        &[
            "# Chapter Beta",
            "| k | v |",
            "# Chapter Alpha",
            "[an outside link](https://example.net/)",
        ],
    );
    assert!(!md.contains("alert(1)") && !md.contains("color:red"), "{md}");
    assert_eq!(r.metadata()["title"], "The Fixture Book");
}

#[tokio::test]
async fn rtf_and_doc_keep_headings_lists_tables_and_links() {
    for file in ["sample.rtf", "report.doc"] {
        let md = parse_fixture(file).await.markdown().to_string();
        assert_in_order(
            &md,
            &[
                "# Quarterly Report",
                "[the example site](https://example.com/)",
                "## Highlights",
                "- Revenue grew by twelve percent",
                "## Sales by Region",
                "| North | Apples | 1200 |",
                "## Outlook",
                "Hire two engineers",
                "## Appendix",
            ],
        );
    }
}

#[tokio::test]
async fn csv_quoting_and_delimiters_survive() {
    let md = parse_fixture("sample.csv").await.markdown().to_string();
    assert_in_order(
        &md,
        &[
            "| Product | Price | Notes |",
            "| Widget | 9.99 | Small, blue |",
            "| Gadget, deluxe | 19.50 | Says \"hello\" |",
        ],
    );
    let md = parse_fixture("sample-semicolon.csv").await.markdown().to_string();
    assert!(md.starts_with("| "), "{md}");
    assert!(!md.contains(';'), "semicolons not taken as the delimiter: {md}");
}

#[tokio::test]
async fn scrape_of_a_document_url_goes_through_its_converter() {
    let server = shared().url();
    // By extension.
    let r = scrape(
        server,
        &json!({ "url": site().url("/documents/word-features.docx") }),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("# Main Heading One"), "{}", r.pretty());
    assert_eq!(
        r.metadata()["sourceURL"],
        site().url("/documents/word-features.docx").as_str()
    );
    // By content type, under a path without an extension.
    let url = site().url("/download?file=report.pdf&type=application/pdf");
    let r = scrape(server, &json!({ "url": url, "formats": ["markdown", "html"] })).await;
    r.assert_ok();
    assert!(r.markdown().contains("|North|Apples|1200|"), "{}", r.pretty());
    assert_eq!(r.metadata()["numPages"], 3, "{}", r.pretty());
    assert!(r.data_str("html").contains("<table"), "{}", r.pretty());
    let url = site().url(
        "/download?file=deck.pptx&type=application/vnd.openxmlformats-officedocument.presentationml.presentation",
    );
    let r = scrape(server, &json!({ "url": url })).await;
    r.assert_ok();
    assert!(
        r.markdown().contains("## Slide 1: Welcome Slide"),
        "{}",
        r.pretty()
    );
}
