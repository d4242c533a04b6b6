use super::*;
use distill_sdk::documents::testing::{self, many_entries_zip, pos, unsupported};

fn fixture(name: &str) -> Vec<u8> {
    testing::fixture(env!("CARGO_MANIFEST_DIR"), name)
}

fn convert(name: &str) -> Result<Document, PluginError> {
    testing::convert_fixture::<Spreadsheet>(env!("CARGO_MANIFEST_DIR"), name)
}

fn check_workbook(name: &str) {
    let doc = convert(name).unwrap();
    let h = &doc.content;
    let meta: Value = serde_json::from_str(&doc.metadata).unwrap();
    assert_eq!(meta["numSheets"], 4, "{name}");
    // Sheets in order, each with a heading.
    assert!(pos(h, "<h2>Sales</h2>") < pos(h, "<h2>People</h2>"));
    assert!(pos(h, "<h2>People</h2>") < pos(h, "<h2>Big</h2>"));
    assert!(h.contains("<h2>Empty</h2>"));
    assert!(
        h.contains("<tr><th>Region</th><th>Date</th><th>Amount</th><th>Ratio</th></tr>"),
        "{name}: {h}"
    );
    assert!(
        h.contains("<tr><td>North</td><td>2024-01-15</td><td>1200</td><td>0.25</td></tr>"),
        "{name}: {h}"
    );
    assert!(
        h.contains("<td>South</td><td>2024-02-29 13:45</td><td>987.5</td><td>0.3333333333</td>"),
        "{name}: {h}"
    );
    assert!(
        h.contains("<td>East &amp; &lt;West&gt;</td><td>1999-12-31</td><td>-42</td>"),
        "{name}: {h}"
    );
    // LibreOffice stores the converted booleans as numbers 1/0 in the .ods.
    assert!(
        h.contains("<tr><td>Alice</td><td>TRUE</td></tr>") || h.contains("<tr><td>Alice</td><td>1</td></tr>"),
        "{name}"
    );
    // Trailing empty rows/columns trimmed: no empty cells in the Sales table.
    let sales = &h[pos(h, "<h2>Sales</h2>")..pos(h, "<h2>People</h2>")];
    assert!(!sales.contains("<td></td>"), "{name}: {sales}");
    assert_eq!(sales.matches("<tr>").count(), 4);
    // All 1201 rows of "Big" (under the default cap of 100 000), no warning.
    assert!(h.contains("<td>1200</td><td>1440000</td>"));
    assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
}

#[test]
fn xlsx() {
    check_workbook("workbook.xlsx");
    let doc = convert("workbook.xlsx").unwrap();
    let meta: Value = serde_json::from_str(&doc.metadata).unwrap();
    assert_eq!(meta["title"], "Workbook Fixture");
}

#[test]
fn ods() {
    check_workbook("workbook.ods");
}

#[test]
fn xls() {
    check_workbook("workbook.xls");
}

#[test]
fn row_cap_option() {
    let file = FileInput {
        name: "w.xlsx".into(),
        content_type: None,
        bytes: fixture("workbook.xlsx"),
    };
    // 1201 rows in "Big", capped at 1000 (the header row included) with a warning.
    let doc = Spreadsheet::convert(&file, &json!({"maxRowsPerSheet": 1000})).unwrap();
    assert!(doc.content.contains("<td>999</td><td>998001</td>"));
    assert!(!doc.content.contains("<td>1000</td><td>1000000</td>"));
    assert!(
        doc.warnings
            .iter()
            .any(|w| w.contains("Big") && w.contains("1000 rows")),
        "{:?}",
        doc.warnings
    );
    let bad = Spreadsheet::convert(&file, &json!({"maxRowsPerSheet": 0}));
    assert!(matches!(bad, Err(PluginError::InvalidOptions(_))));
}

#[test]
fn sparse_sheet_does_not_allocate_the_whole_grid() {
    let doc = convert("hostile-sparse.xlsx").unwrap();
    assert!(doc.content.contains("corner"));
    assert!(!doc.warnings.is_empty());
}

#[test]
fn hostile_inputs_are_refused() {
    assert!(unsupported(convert("hostile-zip-bomb.xlsx")).contains("ZIP bomb"));
    let m = unsupported(convert("hostile-truncated.xlsx"));
    assert!(m.contains("truncated or corrupt"), "{m}");
    assert!(unsupported(convert("hostile-pdf-renamed.xlsx")).contains("PDF"));
    let r = testing::convert_bytes::<Spreadsheet>("e.xlsx", fixture("hostile-encrypted.docx"));
    let m = unsupported(r);
    assert!(!m.is_empty());
    let many = testing::convert_bytes::<Spreadsheet>("many.xlsx", many_entries_zip(10_001));
    assert!(unsupported(many).contains("entries"));
    let docx = testing::convert_bytes::<Spreadsheet>("x.xlsx", fixture("word-features.docx"));
    assert!(unsupported(docx).contains("Word"));
}

#[test]
fn numbers() {
    assert_eq!(format_float(3.0), "3");
    assert_eq!(format_float(0.1 + 0.2), "0.3");
    assert_eq!(format_float(1e20), "1e20");
    assert_eq!(format_float(-2.5), "-2.5");
}

/// Documents per second, natively: `cargo test --release -- --ignored --nocapture throughput`.
#[test]
#[ignore]
fn throughput() {
    testing::throughput::<Spreadsheet>(env!("CARGO_MANIFEST_DIR"), &["workbook.xlsx"], 300);
}

/// Found by the `convert_spreadsheet` fuzz target: a compound file whose last
/// sector is cut mid-word made calamine panic (an `assert_eq!` on whole 32-bit
/// entries). Such files, and a real workbook cut at every such length, now
/// convert or are refused without a panic.
#[test]
fn an_xls_cut_inside_a_sector_never_panics() {
    let found = fixture("fuzz-partial-sector.xls");
    assert_ne!(found.len() % 4, 0);
    let _ = convert_bytes(&found, 1000, 100);
    let whole = fixture("workbook.xls");
    for cut in [513, 1026, 1539, whole.len() / 2 + 1, whole.len() - 1] {
        let _ = convert_bytes(&whole[..cut], 1000, 100);
    }
    // A whole workbook is not affected by the rounding.
    assert!(convert_bytes(&whole, 1000, 100).is_ok());
}

/// Found by fuzzing: a sheet record whose relationship id runs past the
/// record, or names a relationship the workbook lacks, made calamine panic
/// (slice out of range, a missing map key; in release too). The guard
/// refuses both first, naming the record. (The fuzzer's own file is refused
/// earlier still: its workbook part fails its checksum.)
#[test]
fn xlsb_sheet_records_calamine_would_panic_on_are_refused_first() {
    for (name, why) in [
        ("hostile-xlsb-sheet-record-overrun.xlsb", "runs past its end"),
        ("hostile-xlsb-unknown-sheet-relationship.xlsb", "does not have"),
        ("fuzz-bundle-sheet-overrun.xlsb", "checksum"),
    ] {
        match convert(name) {
            Err(PluginError::UnsupportedInput(msg)) => assert!(msg.contains(why), "{name}: {msg}"),
            other => panic!("{name}: expected a refusal, got {:?}", other.map(|d| d.content)),
        }
    }
    // The well-formed original still converts.
    let doc = convert("workbook.xlsb").unwrap();
    assert!(doc.content.contains("<h2>Inventory</h2>"), "{}", doc.content);
}

/// Found by fuzzing (finding 5): a worksheet cell naming a shared string past
/// calamine's table (here the workbook has no table at all) made calamine's
/// cells reader index its empty table, a panic in release too. The guard
/// walks each worksheet part first and refuses the file, naming the part and
/// the cell's index.
#[test]
fn an_xlsb_cell_past_the_shared_string_table_is_refused_first() {
    let name = "hostile-xlsb-cell-past-shared-strings.xlsb";
    match convert(name) {
        Err(PluginError::UnsupportedInput(msg)) => {
            assert!(msg.contains("xl/worksheets/sheet1.bin"), "{msg}");
            assert!(msg.contains("shared string 0 of a table of 0"), "{msg}");
        }
        other => panic!("expected a refusal, got {:?}", other.map(|d| d.content)),
    }
}

/// Found by fuzzing (finding 6): a compound file whose chain names the
/// highest sector id calamine allows, which lies wholly past the end of the
/// file (the header fills the first sector), made calamine slice backwards
/// (a panic in release too). calamine now sees the file one sector shorter
/// (`cfb_reader`) and refuses that sector itself; whole workbooks still read.
#[test]
fn an_xls_sector_past_the_end_of_the_file_is_refused() {
    let name = "fuzz-cfb-sector-past-end.xls";
    match convert(name) {
        Err(PluginError::UnsupportedInput(msg)) => assert!(msg.contains("past end of file"), "{msg}"),
        other => panic!("expected a refusal, got {:?}", other.map(|d| d.content)),
    }
    assert!(convert("workbook.xls").is_ok());
}
