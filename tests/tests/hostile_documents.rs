//! Hostile documents: zip bombs, an entry-count bomb, deeply nested XML, entity
//! expansion, truncated, encrypted and mislabelled files. Each gets a clear 4xx
//! JSON error (or, where the file is harmless, a bounded result) well within the
//! request's time limit, and the server keeps serving.

use distill_e2e::{Reply, get, parse_upload, read_document, shared};
use distill_sdk::documents::testing::many_entries_zip;
use serde_json::json;
use std::time::Duration;

/// Far above what any of these takes (tens of ms): a hang guard, not a benchmark.
const HANG_GUARD: Duration = Duration::from_secs(20);

/// Uploads `bytes` as `name` to the shared server with a 30 s timeout.
async fn upload(name: &str, bytes: Vec<u8>) -> Reply {
    parse_upload(
        shared().url(),
        name,
        None,
        bytes,
        Some(&json!({"timeout": 30000})),
    )
    .await
}

async fn expect_refusal(name: &str, bytes: Vec<u8>, message_part: &str) {
    let r = upload(name, bytes).await;
    r.assert_error(400, "PARSE_DOCUMENT_ERROR");
    assert!(
        r.error().contains(name),
        "{name}: error does not name the file: {}",
        r.pretty()
    );
    assert!(
        r.error().to_lowercase().contains(&message_part.to_lowercase()),
        "{name}: expected {message_part:?} in: {}",
        r.pretty()
    );
    assert!(r.elapsed < HANG_GUARD, "{name}: took {:?}", r.elapsed);
}

/// A well-formed `name` from the fixtures still converts on the same server.
async fn expect_converted(name: &str) {
    upload(name, read_document(name)).await.assert_ok();
}

#[tokio::test]
async fn zip_bombs_are_refused() {
    for name in ["hostile-zip-bomb.docx", "hostile-zip-bomb.xlsx"] {
        expect_refusal(name, read_document(name), "ZIP bomb").await;
    }
    // A PDF whose compressed stream inflates to ~90 MB.
    expect_refusal(
        "flate-bomb.pdf",
        read_document("flate-bomb.pdf"),
        "decompression bomb",
    )
    .await;
}

#[tokio::test]
async fn an_entry_count_bomb_is_refused() {
    for ext in ["docx", "xlsx", "pptx", "odt", "epub"] {
        let name = format!("many-entries.{ext}");
        expect_refusal(&name, many_entries_zip(20_000), "entries").await;
    }
}

#[tokio::test]
async fn deeply_nested_xml_is_refused() {
    for name in ["hostile-deep-nesting.docx", "hostile-deep-nesting.pptx"] {
        expect_refusal(name, read_document(name), "deeper than").await;
    }
}

#[tokio::test]
async fn xml_entities_are_not_expanded() {
    let r = parse_upload(
        shared().url(),
        "laughs.docx",
        None,
        read_document("hostile-billion-laughs.docx"),
        None,
    )
    .await;
    r.assert_ok();
    assert!(
        r.markdown().len() < 1000,
        "entities expanded: {} bytes",
        r.markdown().len()
    );
    assert!(!r.markdown().contains("lollol"), "{}", r.pretty());
}

#[tokio::test]
async fn truncated_files_are_refused() {
    for (name, part) in [
        ("hostile-truncated.docx", "truncated or corrupt"),
        ("hostile-truncated.xlsx", "truncated or corrupt"),
        ("hostile-truncated.pptx", "truncated or corrupt"),
        ("truncated.pdf", "damaged or truncated"),
    ] {
        expect_refusal(name, read_document(name), part).await;
    }
    let doc = read_document("report.doc");
    expect_refusal("cut.doc", doc[..3000].to_vec(), "").await;
    let ppt = read_document("deck.ppt");
    expect_refusal("cut.ppt", ppt[..ppt.len() / 3].to_vec(), "").await;
    // Cut inside a sector (found by fuzzing: calamine asserted on it).
    expect_refusal(
        "fuzz-partial-sector.xls",
        read_document("fuzz-partial-sector.xls"),
        "",
    )
    .await;
}

#[tokio::test]
async fn encrypted_files_are_refused_unless_the_password_is_empty() {
    expect_refusal(
        "encrypted-user-password.pdf",
        read_document("encrypted-user-password.pdf"),
        "encrypted",
    )
    .await;
    expect_refusal(
        "hostile-encrypted.docx",
        read_document("hostile-encrypted.docx"),
        "password-protected",
    )
    .await;
    // An empty user password is no protection: readers open these without asking.
    for name in [
        "encrypted-empty-password-aes256.pdf",
        "encrypted-empty-password-rc4.pdf",
    ] {
        let r = parse_upload(shared().url(), name, None, read_document(name), None).await;
        r.assert_ok();
        assert!(
            r.markdown().contains("Quarterly Report"),
            "{name}: {}",
            r.pretty()
        );
    }
}

#[tokio::test]
async fn a_file_whose_extension_lies_is_refused_with_what_it_really_is() {
    for ext in ["docx", "xlsx", "pptx", "odt", "epub"] {
        let name = format!("hostile-pdf-renamed.{ext}");
        expect_refusal(&name, read_document(&name), "is a PDF file").await;
    }
    expect_refusal("html-named.pdf", read_document("html-named.pdf"), "not a PDF").await;
    expect_refusal("zip-named.doc", read_document("zip-named.doc"), "zip archive").await;
    expect_refusal("random.xls", b"just some text, not a workbook".to_vec(), "").await;
    expect_refusal("empty.pptx", Vec::new(), "empty").await;
}

#[tokio::test]
async fn a_sparse_sheet_does_not_allocate_the_whole_grid() {
    // Cells at A1 and XFD1048576 only: 17 billion cells if materialised.
    let r = parse_upload(
        shared().url(),
        "sparse.xlsx",
        None,
        read_document("hostile-sparse.xlsx"),
        None,
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("corner"), "{}", r.pretty());
    assert!(r.elapsed < HANG_GUARD);
}

#[tokio::test]
async fn the_server_keeps_serving_after_hostile_uploads() {
    for name in [
        "hostile-zip-bomb.docx",
        "flate-bomb.pdf",
        "hostile-deep-nesting.docx",
        "truncated.pdf",
    ] {
        let _ = parse_upload(shared().url(), name, None, read_document(name), None).await;
    }
    let health = get(&shared().endpoint("/health")).await;
    assert_eq!(health.status, 200, "{}", health.pretty());
    let r = parse_upload(
        shared().url(),
        "ok.docx",
        None,
        read_document("word-features.docx"),
        None,
    )
    .await;
    r.assert_ok();
}

/// A converter that crashes, spins or outgrows its memory fails that upload with
/// a document error, and the server and the other converters carry on.
#[tokio::test]
async fn a_misbehaving_converter_fails_its_upload_and_never_the_server() {
    let server = distill_e2e::TestServer::start(distill_e2e::ServerOptions {
        plugins: distill_e2e::Plugins::ShippedAnd(&["crashy"]),
        ..distill_e2e::ServerOptions::default()
    });
    let url = server.url();
    let upload = async |body: &str, timeout: u64| {
        parse_upload(
            url,
            "x.crashy",
            None,
            body.as_bytes().to_vec(),
            Some(&json!({ "timeout": timeout })),
        )
        .await
    };
    upload("hello", 10_000).await.assert_ok();

    let r = upload("panic", 10_000).await;
    r.assert_error(400, "PARSE_DOCUMENT_ERROR");
    assert!(
        r.error().contains("the converter failed on this file"),
        "{}",
        r.pretty()
    );

    let r = upload("fail", 10_000).await;
    r.assert_error(400, "PARSE_DOCUMENT_ERROR");
    assert!(r.error().contains("crashy failed on purpose"), "{}", r.pretty());

    // 256 MiB does not fit in its declared 32 MiB.
    let r = upload("grow", 10_000).await;
    r.assert_error(400, "PARSE_DOCUMENT_ERROR");
    assert!(r.error().contains("too large or too complex"), "{}", r.pretty());
    assert!(r.error().contains("memory limit of 32 MiB"), "{}", r.pretty());

    // A converter that never returns is stopped by the request's deadline.
    let r = upload("loop", 1500).await;
    r.assert_error(408, "SCRAPE_TIMEOUT");
    assert!(r.elapsed < Duration::from_secs(10), "{:?}", r.elapsed);

    assert!(server.is_running());
    upload("hello again", 10_000).await.assert_ok();
    let r = parse_upload(url, "w.docx", None, read_document("word-features.docx"), None).await;
    r.assert_ok();
    let (found, logs) = server.wait_for_logs(Duration::from_secs(2), |l| {
        l.contains("crashy was asked to panic")
    });
    assert!(found, "the panic is not in the log:\n{logs}");
}

/// Found by the `convert_spreadsheet` fuzz target: an .xls whose MulRk record
/// names its last column before its first (calamine subtracts them). The
/// shipped converter (built without overflow checks, as calamine then wraps
/// and its own length check refuses the record) answers a clear 400, and the
/// server keeps serving.
#[tokio::test]
async fn an_xls_record_with_reversed_columns_is_answered_cleanly() {
    let name = "fuzz-mulrk-reversed-columns.xls";
    let r = upload(name, read_document(name)).await;
    r.assert_error(400, "PARSE_DOCUMENT_ERROR");
    assert!(r.error().contains(name), "{}", r.pretty());
    assert!(r.error().contains("cannot read the workbook"), "{}", r.pretty());
    assert!(r.elapsed < HANG_GUARD, "took {:?}", r.elapsed);
    assert_eq!(get(&format!("{}/", shared().url())).await.status, 200);
}

/// Found by the `convert_spreadsheet` fuzz target: an .xlsb whose sheet record
/// claims a relationship id longer than the record (or one the workbook lacks)
/// makes calamine index past its buffer (a panic in release too). The
/// converter checks those records first: a clear 400 naming the file and the
/// record. (The fuzzer's own file already fails its zip checksum.)
#[tokio::test]
async fn an_xlsb_record_the_parser_library_would_panic_on_is_refused_clearly() {
    for (name, why) in [
        ("hostile-xlsb-sheet-record-overrun.xlsb", "sheet record"),
        ("hostile-xlsb-unknown-sheet-relationship.xlsb", "sheet record"),
        ("fuzz-bundle-sheet-overrun.xlsb", "checksum"),
    ] {
        expect_refusal(name, read_document(name), why).await;
    }
    assert_eq!(get(&format!("{}/", shared().url())).await.status, 200);
}

/// Found by the `convert_xlsb` fuzz target (finding 5): a worksheet cell
/// naming a shared string past the workbook's table (here: no table at all)
/// makes calamine index its empty table (a panic in release too). The
/// converter walks each worksheet part first: a clear 400 naming the file,
/// the part and the cell, and the server serves on.
#[tokio::test]
async fn an_xlsb_cell_past_the_shared_string_table_is_refused_clearly() {
    let name = "hostile-xlsb-cell-past-shared-strings.xlsb";
    expect_refusal(name, read_document(name), "shared string 0 of a table of 0").await;
    expect_converted("workbook.xlsb").await;
}

/// Found by the `convert_spreadsheet` fuzz target (finding 6): an .xls whose
/// sector chain names the highest sector id calamine allows, which lies past
/// the end of the file, made calamine slice backwards (a panic in release
/// too). calamine now sees the file one sector shorter and refuses that
/// sector itself: a clear 400, and a whole .xls still converts.
#[tokio::test]
async fn an_xls_sector_past_the_end_of_the_file_is_refused_clearly() {
    let name = "fuzz-cfb-sector-past-end.xls";
    expect_refusal(name, read_document(name), "past end of file").await;
    expect_converted("workbook.xls").await;
}
