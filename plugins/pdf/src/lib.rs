//! Distill converter plugin `pdf`: PDF to markdown.
//!
//! Extraction is done by Firecrawl's own `pdf-inspector` crate (MIT, the engine
//! behind upstream's native PDF path): text in reading order, headings from font
//! sizes, bold/italic, lists, links, GFM tables, and per-page detection of pages
//! without a usable text layer (scanned or garbled) for the host's OCR.
//!
//! Options: the request's `parsers` entry of type "pdf" (declared with
//! [`ParserSpec`], checked by the host): `mode` ("fast" | "auto" | "ocr") and `maxPages`.
//!
//! Output: markdown, pages in order. A page that needs OCR (every processed page
//! in mode `ocr`) is replaced by the marker `<!-- distill:ocr-page N -->`, which
//! the host swaps for the OCR text; in mode `fast` the text layer is kept as is.
//! Metadata: `numPages` (pages processed), `totalPages`, `title` (Info dict).
//! Pages that need OCR are handed to the host with `Document::with_ocr_page`.
//!
//! Hostile input: before parsing, every Flate stream is inflated into a small
//! scratch buffer to measure it; a decompression bomb is refused.

use distill_sdk::{
    ConverterPlugin, Document, FileInput, OptionSpec, Options, ParserSpec, PluginError, PluginInfo, Value,
    json,
};
use pdf_inspector::{MarkdownOptions, PdfError, PdfOptions, PdfType};

/// Largest `maxPages` honoured (the API's bound), and the default page cap.
pub const MAX_PAGES: u32 = 10_000;
/// Most bytes one non-image Flate stream may inflate to.
pub const MAX_STREAM_INFLATED: u64 = 32 << 20;
/// Most bytes all non-image Flate streams together may inflate to.
pub const MAX_TOTAL_INFLATED: u64 = 256 << 20;
/// Longest markdown returned.
pub const MAX_MARKDOWN: usize = 32 << 20;

pub struct Pdf;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Fast,
    Auto,
    Ocr,
}

/// The parsed converter options.
#[derive(Debug)]
pub struct Opts {
    pub mode: Mode,
    pub max_pages: Option<u32>,
}

pub fn parse_options(options: &Value) -> Result<Opts, PluginError> {
    let options = Options::new(options);
    let mode = match options.text("mode", &["fast", "auto", "ocr"])? {
        Some("fast") => Mode::Fast,
        Some("ocr") => Mode::Ocr,
        _ => Mode::Auto,
    };
    let max_pages = options
        .integer("maxPages", 1, MAX_PAGES as i64)?
        .map(|n| n as u32);
    Ok(Opts { mode, max_pages })
}

/// The `parsers` entry that configures this converter: upstream's "pdf".
fn parser() -> ParserSpec {
    ParserSpec::new("pdf")
        .option(OptionSpec::text(
            "mode",
            "fast: text layer only; auto: OCR pages without text; ocr: OCR every page",
            &["fast", "auto", "ocr"],
        ))
        .option(OptionSpec::integer(
            "maxPages",
            "most pages to convert",
            1,
            MAX_PAGES as i64,
        ))
        .raw_unless_listed()
}

impl ConverterPlugin for Pdf {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description(
                "PDF to markdown (headings, lists, tables); reports pages without a text layer for OCR.",
            )
            .extension("pdf")
            .content_type("application/pdf")
            .content_type("application/x-pdf")
            .parser(parser())
            .memory_limit_mib(512)
    }

    fn convert(file: &FileInput, options: &Value) -> Result<Document, PluginError> {
        let opts = parse_options(options)?;
        convert_pdf(&file.bytes, &opts)
    }
}

distill_sdk::export_plugin!(converter: Pdf);

pub fn convert_pdf(bytes: &[u8], opts: &Opts) -> Result<Document, PluginError> {
    let Some(header) = find(bytes, b"%PDF-", 0).filter(|&p| p < 1024) else {
        return Err(PluginError::UnsupportedInput(
            "the file is not a PDF (no %PDF- header)".into(),
        ));
    };
    check_inflated_sizes(&bytes[header..])?;

    let limit = opts.max_pages.unwrap_or(MAX_PAGES);
    let markdown_options = MarkdownOptions {
        include_page_numbers: true,
        ..MarkdownOptions::default()
    };
    let pdf_opts = PdfOptions::new().markdown(markdown_options).pages(1..=limit);
    let result = pdf_inspector::process_pdf_mem_with_options(bytes, pdf_opts).map_err(|e| match e {
        PdfError::Encrypted => PluginError::UnsupportedInput("the PDF is encrypted".into()),
        PdfError::NotAPdf(why) => PluginError::UnsupportedInput(format!("the file is not a PDF: {why}")),
        PdfError::InvalidStructure => {
            PluginError::UnsupportedInput("the PDF is damaged or truncated (invalid structure)".into())
        }
        PdfError::Parse(why) => PluginError::UnsupportedInput(format!("the PDF could not be parsed: {why}")),
        PdfError::Io(e) => PluginError::Failed(format!("reading the PDF failed: {e}")),
    })?;

    let total = result.page_count;
    let processed = total.min(limit);
    let mut needing: Vec<u32> = match opts.mode {
        Mode::Ocr => (1..=processed).collect(),
        _ => result
            .pages_needing_ocr
            .iter()
            .copied()
            .filter(|&p| p >= 1 && p <= processed)
            .collect(),
    };
    // A scanned PDF may come back without per-page detail.
    if needing.is_empty() && matches!(result.pdf_type, PdfType::Scanned | PdfType::ImageBased) {
        needing = (1..=processed).collect();
    }
    needing.sort_unstable();
    needing.dedup();

    let pages = split_pages(result.markdown.as_deref().unwrap_or(""), processed);
    let mut out = String::new();
    let mut truncated = false;
    for (i, text) in pages.iter().enumerate() {
        let n = i as u32 + 1;
        let body = if opts.mode != Mode::Fast && needing.binary_search(&n).is_ok() {
            ocr_marker(n)
        } else {
            text.trim().to_string()
        };
        if body.is_empty() {
            continue;
        }
        if out.len() + body.len() > MAX_MARKDOWN {
            truncated = true;
            break;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(&body);
    }
    out.push('\n');

    let mut meta = serde_json_map();
    meta.insert("numPages".into(), json!(processed));
    meta.insert("totalPages".into(), json!(total));
    if let Some(t) = result.title.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        meta.insert("title".into(), json!(t));
    }
    if let Some(a) = result.author.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        meta.insert("author".into(), json!(a));
    }
    let mut doc = Document::markdown(out).with_metadata(Value::Object(meta));
    for n in needing {
        doc = doc.with_ocr_page(n, ocr_marker(n));
    }
    if truncated {
        doc = doc.with_warning(format!(
            "the PDF's text is longer than {} MiB and was truncated",
            MAX_MARKDOWN >> 20
        ));
    }
    if processed < total {
        doc = doc.with_warning(format!(
            "only the first {processed} of {total} pages were converted (maxPages)"
        ));
    }
    Ok(doc)
}

/// Where page `n`'s OCR text goes.
fn ocr_marker(n: u32) -> String {
    format!("<!-- distill:ocr-page {n} -->")
}

fn serde_json_map() -> distill_sdk::serde_json::Map<String, Value> {
    distill_sdk::serde_json::Map::new()
}

/// Splits pdf-inspector's markdown (with `<!-- Page N -->` lines) into `count`
/// pages; pages it printed no marker for (no text) stay empty.
fn split_pages(md: &str, count: u32) -> Vec<String> {
    let mut pages = vec![String::new(); count as usize];
    let mut current: usize = 0;
    let mut last_marker = 0u32;
    for line in md.split_inclusive('\n') {
        let t = line.trim();
        if let Some(n) = t
            .strip_prefix("<!-- Page ")
            .and_then(|r| r.strip_suffix(" -->"))
            .and_then(|n| n.trim().parse::<u32>().ok())
            .filter(|&n| n > last_marker && n <= count)
        {
            last_marker = n;
            current = n as usize - 1;
            continue;
        }
        if let Some(p) = pages.get_mut(current) {
            p.push_str(line);
        }
    }
    pages
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from >= hay.len() {
        return None;
    }
    hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// Inflates every Flate-encoded stream of the raw file into a scratch buffer,
/// counting bytes, and refuses the file when a non-image stream (content,
/// object stream, font...) or all of them together inflate past the limits.
/// Encrypted or broken streams simply stop inflating early.
pub fn check_inflated_sizes(pdf: &[u8]) -> Result<(), PluginError> {
    let mut total: u64 = 0;
    let mut scratch = vec![0u8; 64 * 1024];
    let mut pos = 0usize;
    while let Some(k) = find(pdf, b"stream", pos) {
        pos = k + 6;
        // Keyword `stream` (not `endstream`), then EOL.
        if k >= 3 && &pdf[k - 3..k] == b"end" {
            continue;
        }
        let data_start = match pdf.get(pos) {
            Some(b'\r') if pdf.get(pos + 1) == Some(&b'\n') => pos + 2,
            Some(b'\n') | Some(b'\r') => pos + 1,
            _ => continue,
        };
        // The stream dictionary: back to the object's `obj` keyword (bounded).
        let dict_from = k.saturating_sub(4096);
        let head = &pdf[dict_from..k];
        let dict = match rfind(head, b"obj") {
            Some(o) => &head[o..],
            None => head,
        };
        if !has_name(dict, b"FlateDecode") && !has_name(dict, b"Fl") {
            continue;
        }
        let is_image = has_name(dict, b"Image");
        let end = find(pdf, b"endstream", data_start).unwrap_or(pdf.len());
        let data = &pdf[data_start..end];
        pos = end;
        let cap = if is_image {
            MAX_TOTAL_INFLATED
        } else {
            MAX_STREAM_INFLATED
        };
        let n = inflated_size(data, cap + 1, &mut scratch);
        if n > cap {
            return Err(PluginError::UnsupportedInput(format!(
                "the PDF has a compressed stream that inflates to more than {} MiB (decompression bomb?)",
                cap >> 20
            )));
        }
        if !is_image {
            total += n;
            if total > MAX_TOTAL_INFLATED {
                return Err(PluginError::UnsupportedInput(format!(
                    "the PDF's compressed streams inflate to more than {} MiB (decompression bomb?)",
                    MAX_TOTAL_INFLATED >> 20
                )));
            }
        }
    }
    Ok(())
}

/// Whether the dictionary text holds the name `/name` (followed by a delimiter).
fn has_name(dict: &[u8], name: &[u8]) -> bool {
    let mut from = 0;
    while let Some(p) = find(dict, name, from) {
        from = p + 1;
        let before = p.checked_sub(1).map(|i| dict[i]);
        let after = dict.get(p + name.len()).copied();
        if before == Some(b'/') && !after.is_some_and(|c| c.is_ascii_alphanumeric()) {
            return true;
        }
    }
    false
}

/// Bytes `data` inflates to (zlib, or raw deflate as a fallback), stopping at `cap`.
fn inflated_size(data: &[u8], cap: u64, scratch: &mut [u8]) -> u64 {
    let zlib =
        data.len() >= 2 && (data[0] & 0x0F) == 8 && (u16::from(data[0]) << 8 | u16::from(data[1])) % 31 == 0;
    let mut d = flate2::Decompress::new(zlib);
    loop {
        let before_in = d.total_in() as usize;
        let before_out = d.total_out();
        let res = d.decompress(
            &data[before_in.min(data.len())..],
            scratch,
            flate2::FlushDecompress::None,
        );
        let produced = d.total_out() - before_out;
        if d.total_out() >= cap {
            return d.total_out();
        }
        match res {
            Ok(flate2::Status::StreamEnd) => return d.total_out(),
            Ok(_) if produced == 0 && d.total_in() as usize == before_in => return d.total_out(),
            Ok(_) => {}
            Err(_) => return d.total_out(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/../../tests/fixtures/documents/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    fn conv(name: &str, options: Value) -> Result<Document, PluginError> {
        let file = FileInput {
            name: name.into(),
            content_type: Some("application/pdf".into()),
            bytes: fixture(name),
        };
        Pdf::convert(&file, &options)
    }

    fn meta(d: &Document) -> Value {
        distill_sdk::serde_json::from_str(&d.metadata).unwrap()
    }

    fn ocr(d: &Document) -> Vec<u32> {
        d.ocr_pages.iter().map(|p| p.page).collect()
    }

    fn auto() -> Value {
        json!({"mode": "auto"})
    }

    #[test]
    fn report_structure_and_order() {
        let d = conv("report.pdf", auto()).unwrap();
        let c = &d.content;
        eprintln!("{c}");
        assert!(c.starts_with("# Quarterly Report"), "{c}");
        // Known pdf-inspector weakness: the bullet list right above the bordered
        // table is folded into a spurious first table row, eating "## Highlights".
        assert!(c.contains("## Outlook") && c.contains("## Appendix"));
        assert!(c.contains("**third quarter**"));
        assert!(c.contains("|North|Apples|1200|"), "table: {c}");
        assert!(c.contains("1. Hire two engineers"));
        let order = [
            "Quarterly Report",
            "Sales by Region",
            "North",
            "Outlook",
            "Appendix",
        ];
        let pos: Vec<usize> = order.iter().map(|s| c.find(s).unwrap()).collect();
        assert!(pos.windows(2).all(|w| w[0] < w[1]), "{pos:?}");
        let m = meta(&d);
        assert_eq!(m["numPages"], 3);
        assert_eq!(m["totalPages"], 3);
        assert_eq!(m["title"], "Quarterly Report");
        assert!(ocr(&d).is_empty());
        assert!(!c.contains("<!-- Page"));
    }

    #[test]
    fn max_pages() {
        let d = conv("long-16p.pdf", json!({"maxPages": 2})).unwrap();
        let m = meta(&d);
        assert_eq!(m["numPages"], 2);
        assert_eq!(m["totalPages"], 16);
        assert!(d.content.contains("# Chapter 1") && d.content.contains("# Chapter 2"));
        assert!(!d.content.contains("Chapter 3"), "{}", d.content);
        assert_eq!(d.warnings.len(), 1);
        let d = conv("long-16p.pdf", auto()).unwrap();
        assert_eq!(meta(&d)["numPages"], 16);
        assert!(d.content.contains("# Chapter 12"));
        // The fixture's "Item" and "Count" columns nearly touch (pdftotext merges them too).
        assert!(d.content.contains("|Item 3 21|9.50|"), "{}", d.content);
    }

    #[test]
    fn scanned_pages_get_markers() {
        let d = conv("scanned.pdf", auto()).unwrap();
        let m = meta(&d);
        assert_eq!(ocr(&d), vec![1]);
        assert_eq!(m["title"], "Scanned Invoice");
        assert_eq!(d.content.trim(), "<!-- distill:ocr-page 1 -->");

        let d = conv("mixed-scanned-page2.pdf", auto()).unwrap();
        let c = &d.content;
        assert_eq!(ocr(&d), vec![2]);
        let (a, b, z) = (
            c.find("Quarterly Report").unwrap(),
            c.find("<!-- distill:ocr-page 2 -->").unwrap(),
            c.find("Appendix").unwrap(),
        );
        assert!(a < b && b < z, "{c}");

        // fast: no markers, but the pages are still reported.
        let d = conv("mixed-scanned-page2.pdf", json!({"mode": "fast"})).unwrap();
        assert!(!d.content.contains("distill:ocr-page"));
        assert_eq!(ocr(&d), vec![2]);

        // ocr: every processed page.
        let d = conv("report.pdf", json!({"mode": "ocr", "maxPages": 2})).unwrap();
        assert_eq!(ocr(&d), vec![1, 2]);
        assert!(
            d.content.contains("<!-- distill:ocr-page 1 -->")
                && d.content.contains("<!-- distill:ocr-page 2 -->")
        );
    }

    #[test]
    fn encryption() {
        let e = conv("encrypted-user-password.pdf", auto()).unwrap_err();
        assert!(
            matches!(&e, PluginError::UnsupportedInput(m) if m == "the PDF is encrypted"),
            "{e:?}"
        );
        for f in [
            "encrypted-empty-password-aes256.pdf",
            "encrypted-empty-password-rc4.pdf",
        ] {
            let d = conv(f, auto()).unwrap();
            assert!(d.content.contains("|North|Apples|1200|"), "{f}: {}", d.content);
        }
    }

    #[test]
    fn hostile() {
        for f in ["truncated.pdf", "html-named.pdf", "flate-bomb.pdf"] {
            let e = conv(f, auto()).unwrap_err();
            assert!(matches!(e, PluginError::UnsupportedInput(_)), "{f}: {e:?}");
        }
        let e = conv("flate-bomb.pdf", auto()).unwrap_err();
        assert!(format!("{e:?}").contains("bomb"));
        for bytes in [
            &b""[..],
            b"%PDF-1.7\n",
            b"%PDF-1.4\n1 0 obj << /Length 5 /Filter /FlateDecode >>\nstream\n\x78\x9c\xff\xff\xff",
        ] {
            let f = FileInput {
                name: "x.pdf".into(),
                content_type: None,
                bytes: bytes.to_vec(),
            };
            assert!(Pdf::convert(&f, &auto()).is_err());
        }
    }

    #[test]
    fn options() {
        assert!(matches!(
            parse_options(&json!({"mode": "slow"})),
            Err(PluginError::InvalidOptions(_))
        ));
        assert!(matches!(
            parse_options(&json!({"maxPages": 0})),
            Err(PluginError::InvalidOptions(_))
        ));
        let o = parse_options(&json!({"mode": "ocr", "maxPages": 7})).unwrap();
        assert_eq!((o.mode, o.max_pages), (Mode::Ocr, Some(7)));
        let o = parse_options(&json!({})).unwrap();
        assert_eq!(o.mode, Mode::Auto);
    }
}
