//! Distill converter plugin `csv`: turns a CSV/TSV file into one HTML table.
//!
//! - Encoding: BOM, UTF-16 without BOM, UTF-8, else guessed (Shift-JIS, GBK,
//!   EUC-KR, Big5, Windows-125x...: module `charset`).
//! - Delimiter sniffed among `,` `;` tab `|` from the first lines (quotes respected).
//! - RFC 4180 quoting: `"a ""b"" c"`, delimiters and newlines inside quotes.
//! - The first row becomes the header (`<thead>`); rows and columns are capped.

mod charset;

use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value, json};

/// Most data rows rendered (the header not counted).
pub const MAX_ROWS: usize = 10_000;
/// Most columns rendered.
pub const MAX_COLS: usize = 512;
/// Longest cell kept, in characters.
const MAX_CELL_CHARS: usize = 32_768;

pub struct Csv;

impl ConverterPlugin for Csv {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("CSV/TSV files to an HTML table (delimiter sniffing, quotes, header row).")
            .extension("csv")
            .extension("tsv")
            .content_type("text/csv")
            .content_type("text/tab-separated-values")
            .content_type("application/csv")
    }

    fn convert(file: &FileInput, options: &Value) -> Result<Document, PluginError> {
        let (text, encoding) = charset::decode(&file.bytes)?;
        let max_rows = options
            .get("maxRows")
            .and_then(Value::as_u64)
            .map(|n| (n as usize).clamp(1, MAX_ROWS))
            .unwrap_or(MAX_ROWS);
        let forced = file.name.to_ascii_lowercase().ends_with(".tsv")
            || file
                .content_type
                .as_deref()
                .is_some_and(|c| c.contains("tab-separated"));
        let delim = if forced { '\t' } else { sniff(&text) };
        let parsed = parse(&text, delim, max_rows + 1);
        let mut doc = Document::html(render(&parsed.rows, parsed.max_cols.min(MAX_COLS)));
        let data_rows = parsed.rows.len().saturating_sub(1);
        let mut warnings = Vec::new();
        if parsed.truncated {
            warnings.push(format!(
                "the CSV has more than {max_rows} data rows; only the first {max_rows} were converted"
            ));
        }
        if parsed.max_cols > MAX_COLS {
            warnings.push(format!(
                "the CSV has {} columns; only the first {MAX_COLS} were converted",
                parsed.max_cols
            ));
        }
        if parsed.unterminated_quote {
            warnings.push("the CSV ends inside a quoted field".to_string());
        }
        for w in warnings {
            doc = doc.with_warning(w);
        }
        let title = file.name.rsplit('/').next().unwrap_or(&file.name).to_string();
        Ok(doc.with_metadata(json!({
            "title": title,
            "numRows": data_rows,
            "numColumns": parsed.max_cols,
            "delimiter": delim.to_string(),
            "encoding": encoding,
        })))
    }
}

distill_sdk::export_plugin!(converter: Csv);

/// Picks the delimiter whose per-line count (outside quotes) is most consistent
/// over the first lines, preferring more columns on ties.
fn sniff(text: &str) -> char {
    const CANDIDATES: [char; 4] = [',', ';', '\t', '|'];
    let sample: String = text.chars().take(64 * 1024).collect();
    let mut best = (',', 0usize, 0usize);
    for &d in &CANDIDATES {
        let rows = parse(&sample, d, 50).rows;
        let rows: Vec<_> = rows
            .iter()
            .filter(|r| !(r.len() == 1 && r[0].is_empty()))
            .collect();
        if rows.is_empty() {
            continue;
        }
        let first = rows[0].len();
        if first < 2 {
            continue;
        }
        let consistent = rows.iter().filter(|r| r.len() == first).count();
        // Score: lines agreeing with the first line, then column count.
        if (consistent, first) > (best.1, best.2) {
            best = (d, consistent, first);
        }
    }
    best.0
}

struct Parsed {
    rows: Vec<Vec<String>>,
    max_cols: usize,
    truncated: bool,
    unterminated_quote: bool,
}

fn parse(text: &str, delim: char, max_rows: usize) -> Parsed {
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut cell = String::new();
    let mut cell_chars = 0usize;
    let mut in_quotes = false;
    let mut max_cols = 0usize;
    let mut total_cols = 0usize;
    let mut truncated = false;
    let mut chars = text.chars().peekable();
    let mut row_has_content = false;

    let push_cell = |row: &mut Vec<String>, cell: &mut String, total: &mut usize| {
        *total += 1;
        if row.len() < MAX_COLS {
            row.push(std::mem::take(cell));
        } else {
            cell.clear();
        }
    };

    while let Some(c) = chars.next() {
        if in_quotes {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    if cell_chars < MAX_CELL_CHARS {
                        cell.push('"');
                        cell_chars += 1;
                    }
                } else {
                    in_quotes = false;
                }
            } else if cell_chars < MAX_CELL_CHARS {
                cell.push(c);
                cell_chars += 1;
            }
            continue;
        }
        if c == '"' && cell.trim().is_empty() {
            cell.clear();
            in_quotes = true;
            row_has_content = true;
        } else if c == delim {
            push_cell(&mut row, &mut cell, &mut total_cols);
            cell_chars = 0;
            row_has_content = true;
        } else if c == '\n' || c == '\r' {
            if c == '\r' && chars.peek() == Some(&'\n') {
                chars.next();
            }
            if row_has_content || !cell.is_empty() {
                push_cell(&mut row, &mut cell, &mut total_cols);
                max_cols = max_cols.max(total_cols);
                rows.push(std::mem::take(&mut row));
            }
            total_cols = 0;
            cell_chars = 0;
            row_has_content = false;
            if rows.len() >= max_rows {
                // More non-blank content after this point means rows were dropped.
                truncated = chars.any(|c| !c.is_whitespace());
                return Parsed {
                    rows,
                    max_cols,
                    truncated,
                    unterminated_quote: false,
                };
            }
        } else if cell_chars < MAX_CELL_CHARS {
            cell.push(c);
            cell_chars += 1;
            row_has_content = true;
        }
    }
    if row_has_content || !cell.is_empty() {
        push_cell(&mut row, &mut cell, &mut total_cols);
        max_cols = max_cols.max(total_cols);
        rows.push(row);
    }
    Parsed {
        rows,
        max_cols,
        truncated,
        unterminated_quote: in_quotes,
    }
}

fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("<br>"),
            '\r' => {}
            c => out.push(c),
        }
    }
}

fn render(rows: &[Vec<String>], cols: usize) -> String {
    let mut out = String::with_capacity(rows.iter().flatten().map(|c| c.len() + 9).sum::<usize>() + 64);
    out.push_str("<table>\n");
    let mut iter = rows.iter();
    if let Some(header) = iter.next() {
        out.push_str("<thead><tr>");
        for i in 0..cols {
            out.push_str("<th>");
            escape(header.get(i).map(|s| s.trim()).unwrap_or(""), &mut out);
            out.push_str("</th>");
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for row in iter {
            out.push_str("<tr>");
            for i in 0..cols {
                out.push_str("<td>");
                escape(row.get(i).map(|s| s.trim()).unwrap_or(""), &mut out);
                out.push_str("</td>");
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n");
    }
    out.push_str("</table>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(name: &str, bytes: &[u8]) -> Result<Document, PluginError> {
        Csv::convert(
            &FileInput {
                name: name.into(),
                content_type: None,
                bytes: bytes.to_vec(),
            },
            &json!({}),
        )
    }

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/../../tests/fixtures/documents/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn comma_with_quotes() {
        let d = conv(
            "a.csv",
            b"name,comment\n\"Smith, J\",\"said \"\"hi\"\"\"\nBob,\"two\nlines\"\n",
        )
        .unwrap();
        assert!(
            d.content.contains("<th>name</th><th>comment</th>"),
            "{}",
            d.content
        );
        assert!(
            d.content
                .contains("<td>Smith, J</td><td>said &quot;hi&quot;</td>"),
            "{}",
            d.content
        );
        assert!(d.content.contains("<td>two<br>lines</td>"));
        assert!(d.metadata.contains("\"numRows\":2"));
    }

    #[test]
    fn sniffs_semicolon_and_tab() {
        let d = conv("a.csv", b"a;b;c\r\n1,5;2;3\r\n4;5;6\r\n").unwrap();
        assert!(
            d.content.contains("<td>1,5</td><td>2</td><td>3</td>"),
            "{}",
            d.content
        );
        let d = conv("a.csv", b"x\ty\n1\t2\n").unwrap();
        assert!(d.content.contains("<th>x</th><th>y</th>"));
    }

    #[test]
    fn ragged_rows_padded_and_bom() {
        let d = conv("a.csv", "\u{FEFF}h1,h2,h3\n1\n1,2,3,4\n".as_bytes()).unwrap();
        assert!(d.content.contains("<th>h1</th>"));
        assert!(
            d.content.contains("<td>1</td><td></td><td></td><td></td>"),
            "{}",
            d.content
        );
    }

    #[test]
    fn caps_rows_with_warning() {
        let mut s = String::from("n,sq\n");
        for i in 0..(MAX_ROWS + 5) {
            s.push_str(&format!("{i},{}\n", i * i));
        }
        let d = conv("big.csv", s.as_bytes()).unwrap();
        assert_eq!(d.warnings.len(), 1, "{:?}", d.warnings);
        assert_eq!(d.content.matches("<tr>").count(), MAX_ROWS + 1);
    }

    #[test]
    fn rejects_binary() {
        assert!(matches!(
            conv("x.csv", b"PK\x03\x04\x00\x00binary"),
            Err(PluginError::UnsupportedInput(_))
        ));
    }

    #[test]
    fn latin1_fallback() {
        let d = conv("a.csv", b"city,temp\nK\xf6ln,3\n").unwrap();
        assert!(d.content.contains("Köln"));
    }

    #[test]
    fn fixture_file() {
        let d = conv("sample.csv", &fixture("sample.csv")).unwrap();
        let c = &d.content;
        assert!(c.contains("<th>Product</th><th>Price</th><th>Notes</th>"), "{c}");
        let a = c.find("Widget").unwrap();
        let b = c.find("Gadget, deluxe").unwrap();
        assert!(a < b);
        let d = conv("sample-semicolon.csv", &fixture("sample-semicolon.csv")).unwrap();
        assert!(d.content.contains("<td>3,50</td>"), "{}", d.content);
    }

    #[test]
    fn tsv_in_a_legacy_encoding_is_detected() {
        // A Russian TSV saved by a Windows spreadsheet (windows-1251, no BOM): the same
        // detection as a CSV's, with the tab forced by the extension.
        let text = "Город\tНаселение\tРегион\nМосква\t13104177\tЦентральный\n\
                    Санкт-Петербург\t5600044\tСеверо-Западный\nНовосибирск\t1633595\tСибирский\n";
        let (bytes, _, lossy) = encoding_rs::WINDOWS_1251.encode(text);
        assert!(!lossy);
        let d = conv("cities.tsv", &bytes).unwrap();
        let c = &d.content;
        assert!(
            c.contains("<th>Город</th><th>Население</th><th>Регион</th>"),
            "{c}"
        );
        assert!(
            c.contains("<td>Санкт-Петербург</td><td>5600044</td><td>Северо-Западный</td>"),
            "{c}"
        );
        assert!(
            d.metadata.contains("\"encoding\":\"windows-1251\""),
            "{}",
            d.metadata
        );
    }

    #[test]
    fn legacy_encoded_fixtures() {
        let d = conv("japanese-cp932.csv", &fixture("japanese-cp932.csv")).unwrap();
        let c = &d.content;
        assert!(
            c.contains("<th>商品名</th><th>価格</th><th>産地</th><th>備考</th>"),
            "{c}"
        );
        assert!(
            c.contains("<td>みかん</td><td>80</td><td>愛媛県</td><td>甘い、小さい</td>"),
            "{c}"
        );
        assert!(c.contains("<td>表計算ソフト</td><td>9800</td>"), "{c}");
        assert!(
            d.metadata.contains("\"encoding\":\"Shift_JIS\""),
            "{}",
            d.metadata
        );
        let d = conv("western-cp1252.csv", &fixture("western-cp1252.csv")).unwrap();
        let c = &d.content;
        assert!(c.contains("<th>Ville</th><th>Café</th><th>Prix (€)</th>"), "{c}");
        assert!(
            c.contains("<td>Köln</td><td>Früh am Dom</td><td>3,50</td><td>Kölsch – sehr gut</td>"),
            "{c}"
        );
        assert!(c.contains("<td>São Paulo</td>"), "{c}");
        assert!(
            d.metadata.contains("\"encoding\":\"windows-1252\""),
            "{}",
            d.metadata
        );
    }
}
