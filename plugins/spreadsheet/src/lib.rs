//! Distill converter plugin `spreadsheet`: workbooks (.xlsx, .xlsm, .xlsb, .xls,
//! .ods) → HTML, one `<h2>sheet name</h2>` and one table per worksheet, first row
//! as header, empty leading/trailing rows and columns trimmed, dates and numbers
//! formatted, rows per sheet capped (with a warning).
//!
//! Options, from a request's `parsers` entry `{"type": "spreadsheet", ...}`
//! (declared with `ParserSpec`, checked by the host): `maxRowsPerSheet`
//! (default 100 000, the most allowed), `maxColumns` (default 100, at most 1000).

use distill_sdk::documents::{archive, html};

use archive::Archive;
use calamine::{Data, DataRef, ExcelDateTime, Range, Reader, SheetType, Sheets};
use cfb_reader::WorkbookReader;
use distill_sdk::{
    ConverterPlugin, Document, FileInput, OptionSpec, Options, ParserSpec, PluginError, PluginInfo, Value,
    json,
};
use html::esc;

mod cfb_reader;
mod xlsb_guard;
mod xlsb_parts;

/// The plugin.
pub struct Spreadsheet;

/// Default rows rendered per sheet (header included).
pub const DEFAULT_MAX_ROWS: usize = 100_000;
/// Default columns rendered per sheet.
pub const DEFAULT_MAX_COLS: usize = 100;
/// The most rows per sheet and columns a request may ask for.
pub const MAX_ROWS: usize = 100_000;
pub const MAX_COLS: usize = 1000;
/// Cells read from one workbook at most, rendered or not.
const MAX_CELLS_READ: usize = 2_000_000;

impl ConverterPlugin for Spreadsheet {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Spreadsheets (.xlsx, .xlsm, .xlsb, .xls, .ods) to HTML tables, one per sheet.")
            .extension("xlsx")
            .extension("xlsm")
            .extension("xlsb")
            .extension("xls")
            .extension("ods")
            .content_type("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
            .content_type("application/vnd.ms-excel.sheet.macroenabled.12")
            .content_type("application/vnd.ms-excel.sheet.binary.macroenabled.12")
            .content_type("application/vnd.ms-excel")
            .content_type("application/vnd.oasis.opendocument.spreadsheet")
            .parser(
                ParserSpec::new("spreadsheet")
                    .option(OptionSpec::integer(
                        "maxRowsPerSheet",
                        "rows kept per sheet",
                        1,
                        MAX_ROWS as i64,
                    ))
                    .option(OptionSpec::integer(
                        "maxColumns",
                        "columns kept per sheet",
                        1,
                        MAX_COLS as i64,
                    )),
            )
            .memory_limit_mib(512)
    }

    fn convert(file: &FileInput, options: &Value) -> Result<Document, PluginError> {
        let options = Options::new(options);
        let max_rows = options
            .integer("maxRowsPerSheet", 1, MAX_ROWS as i64)?
            .map_or(DEFAULT_MAX_ROWS, |n| n as usize);
        let max_cols = options
            .integer("maxColumns", 1, MAX_COLS as i64)?
            .map_or(DEFAULT_MAX_COLS, |n| n as usize);
        convert_bytes(&file.bytes, max_rows, max_cols)
    }
}

distill_sdk::export_plugin!(converter: Spreadsheet);

#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Xlsx,
    Xlsb,
    Xls,
    Ods,
}

fn unsupported(msg: impl Into<String>) -> PluginError {
    PluginError::UnsupportedInput(msg.into())
}

/// A sheet's non-empty cells: (row, col, text).
struct Cells {
    cells: Vec<(u32, u32, String)>,
    truncated_read: bool,
}

/// Converts workbook bytes.
pub fn convert_bytes(bytes: &[u8], max_rows: usize, max_cols: usize) -> Result<Document, PluginError> {
    let mut title = None;
    let kind = if bytes.starts_with(b"PK\x03\x04") {
        let mut zip = Archive::open(bytes, "spreadsheet")?;
        let names = zip.names();
        let kind = if names.iter().any(|n| n == "xl/workbook.xml") {
            Kind::Xlsx
        } else if names.iter().any(|n| n == "xl/workbook.bin") {
            Kind::Xlsb
        } else if names.iter().any(|n| n == "content.xml") {
            Kind::Ods
        } else if names.iter().any(|n| n.starts_with("word/")) {
            return Err(unsupported("not a spreadsheet: the archive is a Word document"));
        } else if names.iter().any(|n| n.starts_with("ppt/")) {
            return Err(unsupported(
                "not a spreadsheet: the archive is a PowerPoint presentation",
            ));
        } else {
            return Err(unsupported("not a spreadsheet: the ZIP archive has no workbook"));
        };
        title = read_title(&mut zip, kind);
        if kind == Kind::Xlsb {
            check_xlsb(&mut zip)?;
        }
        kind
    } else if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        Kind::Xls
    } else {
        return Err(unsupported(format!(
            "not a spreadsheet: the content is {}",
            archive::sniff(bytes)
        )));
    };

    // A compound file (.xls) is whole sectors, so a well-formed one is a
    // multiple of 512 bytes; a truncated one ends in a partial sector, and
    // calamine asserts (a panic, even in release) that a sector's table
    // entries are whole 32-bit words. The last 1–3 bytes can hold no whole
    // entry: they are dropped, and the file is read (or refused) by calamine.
    let bytes = if matches!(kind, Kind::Xls) {
        &bytes[..bytes.len() / 4 * 4]
    } else {
        bytes
    };
    let cursor = if matches!(kind, Kind::Xls) {
        WorkbookReader::compound(bytes)
    } else {
        WorkbookReader::plain(bytes)
    };
    let bad = |e: &dyn std::fmt::Display| {
        let msg = e.to_string();
        if msg.to_ascii_lowercase().contains("password") || msg.to_ascii_lowercase().contains("encrypt") {
            unsupported(format!("the workbook is password-protected ({msg})"))
        } else {
            unsupported(format!("cannot read the workbook ({kind:?}): {msg}"))
        }
    };
    let mut book: Sheets<WorkbookReader<'_>> = match kind {
        Kind::Xlsx => Sheets::Xlsx(calamine::open_workbook_from_rs(cursor).map_err(|e| bad(&e))?),
        Kind::Xlsb => Sheets::Xlsb(calamine::open_workbook_from_rs(cursor).map_err(|e| bad(&e))?),
        Kind::Xls => Sheets::Xls(calamine::open_workbook_from_rs(cursor).map_err(|e| bad(&e))?),
        Kind::Ods => Sheets::Ods(calamine::open_workbook_from_rs(cursor).map_err(|e| bad(&e))?),
    };

    let sheets: Vec<(String, SheetType)> = book
        .sheets_metadata()
        .iter()
        .map(|s| (s.name.clone(), s.typ))
        .collect();
    let mut out = String::new();
    let mut warnings = Vec::new();
    let mut budget = MAX_CELLS_READ;
    let mut rendered = 0usize;
    for (name, typ) in &sheets {
        if !matches!(typ, SheetType::WorkSheet) {
            continue;
        }
        rendered += 1;
        out.push_str(&format!("<section>\n<h2>{}</h2>\n", esc(name)));
        let cells = match read_cells(&mut book, name, max_rows, max_cols, &mut budget) {
            Ok(c) => c,
            Err(e) => {
                warnings.push(format!("sheet \"{name}\" could not be read: {e}"));
                out.push_str("</section>\n");
                continue;
            }
        };
        render_sheet(name, cells, max_rows, max_cols, &mut out, &mut warnings);
        out.push_str("</section>\n");
    }
    let mut meta = serde_json::Map::new();
    if let Some(t) = &title {
        meta.insert("title".into(), json!(t));
    }
    meta.insert("numSheets".into(), json!(rendered));
    let mut doc = Document::html(html::page(title.as_deref(), &out)).with_metadata(Value::Object(meta));
    for w in warnings {
        doc = doc.with_warning(w);
    }
    Ok(doc)
}

use distill_sdk::serde_json;

/// Refuses an .xlsb that calamine would index short: its global records
/// (`xlsb_guard`), then its shared strings, styles and each sheet's part
/// (`xlsb_parts`), in calamine's order. Where calamine stops with an error of
/// its own the check stops too, and calamine's error is what the upload gets.
fn check_xlsb(zip: &mut Archive) -> Result<(), PluginError> {
    use xlsb_parts::Walk;
    let refuse = |why: String| unsupported(format!("cannot read the workbook (Xlsb): {why}"));
    // calamine finds parts by name case-insensitively, `\` read as `/`.
    let mut by_lower = std::collections::HashMap::new();
    for name in zip.names() {
        by_lower.insert(name.replace('\\', "/").to_ascii_lowercase(), name);
    }
    let part = |zip: &mut Archive, path: &str| -> Result<Option<Vec<u8>>, PluginError> {
        let name = by_lower
            .get(&path.to_ascii_lowercase())
            .map_or(path, String::as_str);
        zip.read(name)
    };
    let strings = match part(zip, "xl/sharedStrings.bin")? {
        Some(bin) => match xlsb_parts::shared_strings(&bin)
            .map_err(|why| refuse(format!("sharedStrings.bin: {why}")))?
        {
            Walk::Reads(count) => count,
            Walk::Stops => return Ok(()),
        },
        None => 0,
    };
    if let Some(bin) = part(zip, "xl/styles.bin")?
        && xlsb_parts::styles(&bin).map_err(|why| refuse(format!("styles.bin: {why}")))? == Walk::Stops
    {
        return Ok(());
    }
    let rels = zip.read_string("xl/_rels/workbook.bin.rels")?.unwrap_or_default();
    let rels = xlsb_guard::relationships(&rels);
    let workbook = part(zip, "xl/workbook.bin")?.unwrap_or_default();
    let sheets = xlsb_guard::check(&workbook, &|id| rels.contains_key(id)).map_err(refuse)?;
    for id in sheets {
        let path = format!("xl/{}", rels[&id]);
        if let Some(bin) = part(zip, &path)? {
            xlsb_parts::worksheet(&bin, strings).map_err(|why| refuse(format!("{path}: {why}")))?;
        }
    }
    Ok(())
}

fn read_title(zip: &mut Archive, kind: Kind) -> Option<String> {
    let (part, tag) = match kind {
        Kind::Ods => ("meta.xml", "dc:title>"),
        _ => ("docProps/core.xml", "dc:title>"),
    };
    let text = zip.read_string(part).ok()??;
    // A tiny extraction is enough here (no markup inside a title).
    let open = text.find(&format!("<{}", &tag[..tag.len() - 1]))?;
    let start = open + text[open..].find('>')? + 1;
    let end = start + text[start..].find(&format!("</{tag}"))?;
    let t = unescape(text[start..end].trim());
    (!t.is_empty()).then_some(t)
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn read_cells(
    book: &mut Sheets<WorkbookReader<'_>>,
    name: &str,
    max_rows: usize,
    max_cols: usize,
    budget: &mut usize,
) -> Result<Cells, String> {
    let mut cells = Vec::new();
    let mut truncated_read = false;
    // Rows beyond this are never rendered; one extra row tells us the cap was hit.
    let keep = |r: u32, c: u32, first: &mut Option<(u32, u32)>| -> bool {
        let (r0, c0) = *first.get_or_insert((r, c));
        (r.saturating_sub(r0) as usize) <= max_rows + 1
            && (c.saturating_sub(c0) as usize) <= max_cols * 4 + 1000
    };
    let mut first: Option<(u32, u32)> = None;
    // One streamed cell: counted against the budget, kept when in range; `false`
    // when reading stops (budget spent, or past the last row that can show).
    let mut take = |(r, c): (u32, u32), text: &dyn Fn() -> String| -> bool {
        if *budget == 0 {
            truncated_read = true;
            return false;
        }
        *budget -= 1;
        let text = text();
        if text.is_empty() {
            return true;
        }
        if keep(r, c, &mut first) {
            cells.push((r, c, text));
        } else if r.saturating_sub(first.unwrap().0) as usize > max_rows + 1 {
            truncated_read = true;
            return false;
        }
        true
    };
    match book {
        // Streaming readers: memory stays proportional to the cells kept.
        Sheets::Xlsx(x) => {
            let mut reader = x.worksheet_cells_reader(name).map_err(|e| e.to_string())?;
            while let Some(cell) = reader.next_cell().map_err(|e| e.to_string())? {
                if !take(cell.get_position(), &|| format_ref(cell.get_value())) {
                    break;
                }
            }
        }
        Sheets::Xlsb(x) => {
            let mut reader = x.worksheet_cells_reader(name).map_err(|e| e.to_string())?;
            while let Some(cell) = reader.next_cell().map_err(|e| e.to_string())? {
                if !take(cell.get_position(), &|| format_ref(cell.get_value())) {
                    break;
                }
            }
        }
        Sheets::Xls(_) | Sheets::Ods(_) => {
            let range: Range<Data> = book.worksheet_range(name).map_err(|e| e.to_string())?;
            for (r, c, v) in range.used_cells() {
                if *budget == 0 {
                    truncated_read = true;
                    break;
                }
                *budget -= 1;
                let (r0, c0) = range.start().unwrap_or((0, 0));
                let text = format_data(v);
                if text.is_empty() {
                    continue;
                }
                let (r, c) = (r as u32 + r0, c as u32 + c0);
                if keep(r, c, &mut first) {
                    cells.push((r, c, text));
                }
            }
        }
    }
    Ok(Cells {
        cells,
        truncated_read,
    })
}

fn render_sheet(
    name: &str,
    cells: Cells,
    max_rows: usize,
    max_cols: usize,
    out: &mut String,
    warnings: &mut Vec<String>,
) {
    let Cells {
        cells,
        truncated_read,
    } = cells;
    if cells.is_empty() {
        return;
    }
    let min_r = cells.iter().map(|c| c.0).min().unwrap();
    let max_r = cells.iter().map(|c| c.0).max().unwrap();
    let min_c = cells.iter().map(|c| c.1).min().unwrap();
    let max_c = cells.iter().map(|c| c.1).max().unwrap();
    let total_rows = (max_r - min_r) as usize + 1;
    let total_cols = (max_c - min_c) as usize + 1;
    let rows = total_rows.min(max_rows);
    let cols = total_cols.min(max_cols);
    if total_rows > max_rows || truncated_read {
        warnings.push(format!(
            "sheet \"{name}\": only the first {rows} rows are included (maxRowsPerSheet {max_rows})"
        ));
    }
    if total_cols > max_cols {
        warnings.push(format!(
            "sheet \"{name}\": only the first {cols} of {total_cols} columns are included"
        ));
    }
    let mut grid: Vec<Vec<Option<String>>> = vec![vec![None; cols]; rows];
    for (r, c, text) in cells {
        let (r, c) = ((r - min_r) as usize, (c - min_c) as usize);
        if r < rows && c < cols {
            grid[r][c] = Some(text);
        }
    }
    // Trim again: the cap may have cut off the cells that made a column used.
    let used_cols = (0..cols)
        .rev()
        .find(|&c| grid.iter().any(|row| row[c].is_some()))
        .map_or(0, |c| c + 1);
    out.push_str("<table>\n");
    for (i, row) in grid.iter().enumerate() {
        if i == 0 {
            out.push_str("<thead>\n");
        } else if i == 1 {
            out.push_str("<tbody>\n");
        }
        out.push_str("<tr>");
        let tag = if i == 0 { "th" } else { "td" };
        for cell in row.iter().take(used_cols) {
            out.push_str(&format!("<{tag}>"));
            if let Some(t) = cell {
                out.push_str(&esc(t).replace('\n', "<br>"));
            }
            out.push_str(&format!("</{tag}>"));
        }
        out.push_str("</tr>\n");
        if i == 0 {
            out.push_str("</thead>\n");
        }
    }
    if grid.len() > 1 {
        out.push_str("</tbody>\n");
    }
    out.push_str("</table>\n");
}

fn format_ref(v: &DataRef) -> String {
    match v {
        DataRef::Int(i) => i.to_string(),
        DataRef::Float(f) => format_float(*f),
        DataRef::String(s) => s.clone(),
        DataRef::SharedString(s) => s.to_string(),
        DataRef::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        DataRef::DateTime(d) => format_datetime(d),
        DataRef::DateTimeIso(s) => format_iso(s),
        DataRef::DurationIso(s) => s.clone(),
        DataRef::Error(e) => e.to_string(),
        DataRef::Empty => String::new(),
    }
}

fn format_data(v: &Data) -> String {
    match v {
        Data::Int(i) => i.to_string(),
        Data::Float(f) => format_float(*f),
        Data::String(s) => s.clone(),
        Data::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        Data::DateTime(d) => format_datetime(d),
        Data::DateTimeIso(s) => format_iso(s),
        Data::DurationIso(s) => s.clone(),
        Data::Error(e) => e.to_string(),
        Data::Empty => String::new(),
    }
}

/// Integers without ".0", others rounded to 10 decimals, huge ones in exponent form.
pub fn format_float(f: f64) -> String {
    if !f.is_finite() {
        return f.to_string();
    }
    if f.fract() == 0.0 && f.abs() < 1e15 {
        return format!("{}", f as i64);
    }
    if f.abs() >= 1e15 {
        return format!("{f:e}");
    }
    let rounded = (f * 1e10).round() / 1e10;
    if rounded == 0.0 {
        return format!("{f:e}");
    }
    format!("{rounded}")
}

/// ISO 8601 date/time (ODS) in the same shape as [`format_datetime`].
pub fn format_iso(s: &str) -> String {
    let s = s.trim();
    let (date, time) = match s.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (s, None),
    };
    let Some(time) = time else { return date.to_string() };
    let time = time.split('.').next().unwrap_or(time);
    let time = time.strip_suffix(":00").unwrap_or(time);
    if date.is_empty() {
        time.to_string()
    } else if time == "00:00" {
        date.to_string()
    } else {
        format!("{date} {time}")
    }
}

/// `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]`, `HH:MM[:SS]`, or `[h]:mm:ss` for durations.
pub fn format_datetime(d: &ExcelDateTime) -> String {
    let v = d.as_f64();
    if d.is_duration() {
        let secs = (v * 86400.0).round() as i64;
        let sign = if secs < 0 { "-" } else { "" };
        let s = secs.abs();
        return format!("{sign}{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
    }
    let (y, mo, day, h, mi, s, _) = d.to_ymd_hms_milli();
    let time = if s != 0 {
        format!("{h:02}:{mi:02}:{s:02}")
    } else {
        format!("{h:02}:{mi:02}")
    };
    if (0.0..1.0).contains(&v) {
        time
    } else if h == 0 && mi == 0 && s == 0 {
        format!("{y:04}-{mo:02}-{day:02}")
    } else {
        format!("{y:04}-{mo:02}-{day:02} {time}")
    }
}

#[cfg(test)]
mod tests;
