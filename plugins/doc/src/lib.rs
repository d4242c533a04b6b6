//! Distill converter plugin `doc`: binary Word 97-2003 documents to HTML.
//!
//! Reads the `WordDocument` stream of the OLE compound file: the FIB, the piece
//! table (CLX) in the table stream, and the paragraph properties (PAPX FKPs)
//! for table cells/rows, list items and outline levels; heading levels come
//! from the built-in style ids (sti 1..9) in the style sheet. Fields show their
//! result; `HYPERLINK` fields become links. Character formatting is not read.

use distill_sdk::documents::bytes::{u16_at, u32_at};
use distill_sdk::documents::cfb::{self, read_stream};
use distill_sdk::documents::codepage::cp1252_char;
use distill_sdk::documents::html::esc;
use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value, json, serde_json};

/// Most characters of main text read.
const MAX_CHARS: usize = 16 << 20;

pub struct Doc;

impl ConverterPlugin for Doc {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Binary Word 97-2003 (.doc) to HTML: paragraphs, headings, lists, tables, links.")
            .extension("doc")
            .extension("dot")
            .content_type("application/msword")
    }

    fn convert(file: &FileInput, _options: &Value) -> Result<Document, PluginError> {
        convert_doc(&file.bytes)
    }
}

distill_sdk::export_plugin!(converter: Doc);

fn unsupported(msg: impl Into<String>) -> PluginError {
    PluginError::UnsupportedInput(msg.into())
}

struct Piece {
    cp_start: u32,
    cp_end: u32,
    /// Byte offset in WordDocument.
    fc: u32,
    compressed: bool,
}

#[derive(Clone, Copy, Default, Debug)]
struct ParaProps {
    istd: u16,
    in_table: bool,
    ttp: bool,
    ilfo: u16,
    outline: Option<u8>,
}

pub fn convert_doc(bytes: &[u8]) -> Result<Document, PluginError> {
    let mut c = cfb::open(bytes, "Word 97-2003 .doc", ".docx")?;
    let wd = read_stream(&mut c, "/WordDocument")?
        .ok_or_else(|| unsupported("the compound file has no WordDocument stream (not a Word document)"))?;
    if u16_at(&wd, 0) != Some(0xA5EC) {
        return Err(unsupported("the WordDocument stream has no valid FIB"));
    }
    let nfib = u16_at(&wd, 2).unwrap_or(0);
    let flags = u16_at(&wd, 0x0A).unwrap_or(0);
    if flags & 0x0100 != 0 {
        return Err(unsupported("the document is encrypted"));
    }
    if nfib < 101 {
        return Err(unsupported(
            "Word 6/95 documents are not supported (only Word 97-2003)",
        ));
    }
    let table_name = if flags & 0x0200 != 0 { "/1Table" } else { "/0Table" };
    let table = read_stream(&mut c, table_name)?
        .ok_or_else(|| unsupported(format!("the {table_name} stream is missing")))?;

    // FIB: FibBase (32) | csw | fibRgW | cslw | fibRgLw | cbRgFcLcb | blob
    let bad_fib = || unsupported("the FIB is truncated");
    let csw = u16_at(&wd, 32).ok_or_else(bad_fib)? as usize;
    let lw_at = 34 + csw * 2;
    let cslw = u16_at(&wd, lw_at).ok_or_else(bad_fib)? as usize;
    let rglw = lw_at + 2;
    let ccp_text = u32_at(&wd, rglw + 3 * 4).ok_or_else(bad_fib)? as usize;
    let blob = rglw + cslw * 4 + 2;
    let fclcb = |i: usize| -> Option<(usize, usize)> {
        Some((
            u32_at(&wd, blob + i * 8)? as usize,
            u32_at(&wd, blob + i * 8 + 4)? as usize,
        ))
    };
    let (fc_clx, lcb_clx) = fclcb(33).ok_or_else(bad_fib)?;
    let clx = table
        .get(fc_clx..fc_clx.saturating_add(lcb_clx))
        .ok_or_else(|| unsupported("the piece table is outside the table stream"))?;
    let pieces = parse_clx(clx)?;

    // Text of the main document.
    let ccp_text = ccp_text.min(MAX_CHARS);
    let mut text: Vec<char> = Vec::with_capacity(ccp_text.min(1 << 20));
    let mut char_fc: Vec<u32> = Vec::with_capacity(ccp_text.min(1 << 20));
    for p in &pieces {
        if p.cp_start as usize >= ccp_text {
            break;
        }
        let end = (p.cp_end as usize).min(ccp_text);
        for i in 0..(end - p.cp_start as usize) {
            let (ch, fc) = if p.compressed {
                let o = p.fc as usize + i;
                (wd.get(o).map(|&b| cp1252_char(b)), o as u32)
            } else {
                let o = p.fc as usize + i * 2;
                (
                    u16_at(&wd, o).map(|u| char::from_u32(u as u32).unwrap_or('\u{FFFD}')),
                    o as u32,
                )
            };
            let Some(ch) = ch else { break };
            text.push(ch);
            char_fc.push(fc);
        }
    }

    let papx = parse_papx(&wd, &table, fclcb(13));
    let heading_of_istd = parse_styles(&table, fclcb(1));
    let html = render(&text, &char_fc, &papx, &heading_of_istd);

    let mut meta = serde_json::Map::new();
    if let Some(title) = cfb::summary_title(&mut c) {
        meta.insert("title".into(), json!(title));
    }
    let mut doc = Document::html(html).with_metadata(Value::Object(meta));
    if text.is_empty() && ccp_text > 0 {
        doc = doc.with_warning("the document's text could not be read (damaged piece table)");
    }
    Ok(doc)
}

fn parse_clx(clx: &[u8]) -> Result<Vec<Piece>, PluginError> {
    let mut i = 0usize;
    while i < clx.len() {
        match clx[i] {
            0x01 => {
                let cb = u16_at(clx, i + 1).ok_or_else(|| unsupported("truncated CLX"))? as usize;
                i += 3 + cb;
            }
            0x02 => {
                let lcb = u32_at(clx, i + 1).ok_or_else(|| unsupported("truncated CLX"))? as usize;
                let plc = clx
                    .get(i + 5..i + 5 + lcb)
                    .ok_or_else(|| unsupported("truncated piece table"))?;
                if lcb < 4 {
                    return Err(unsupported("empty piece table"));
                }
                let n = (lcb - 4) / 12;
                let mut pieces = Vec::with_capacity(n);
                for k in 0..n {
                    let cp_start = u32_at(plc, k * 4).unwrap_or(0);
                    let cp_end = u32_at(plc, (k + 1) * 4).unwrap_or(0);
                    let pcd = (n + 1) * 4 + k * 8;
                    let fc_raw = u32_at(plc, pcd + 2).unwrap_or(0);
                    let compressed = fc_raw & 0x4000_0000 != 0;
                    let fc = fc_raw & 0x3FFF_FFFF;
                    let fc = if compressed { fc / 2 } else { fc };
                    if cp_end > cp_start {
                        pieces.push(Piece {
                            cp_start,
                            cp_end,
                            fc,
                            compressed,
                        });
                    }
                }
                pieces.sort_by_key(|p| p.cp_start);
                return Ok(pieces);
            }
            _ => return Err(unsupported("the piece table (CLX) is damaged")),
        }
    }
    Err(unsupported("the document has no piece table"))
}

/// (fc_start, fc_end, props) runs from the PAPX FKPs, sorted by fc.
fn parse_papx(wd: &[u8], table: &[u8], loc: Option<(usize, usize)>) -> Vec<(u32, u32, ParaProps)> {
    let mut runs = Vec::new();
    let Some((fc, lcb)) = loc else { return runs };
    let Some(plc) = table.get(fc..fc.saturating_add(lcb)) else {
        return runs;
    };
    if lcb < 4 {
        return runs;
    }
    let n = (lcb - 4) / 8;
    for k in 0..n.min(100_000) {
        let Some(pn) = u32_at(plc, (n + 1) * 4 + k * 4) else {
            break;
        };
        let pn = (pn & 0x3F_FFFF) as usize;
        let Some(fkp) = wd.get(pn * 512..pn * 512 + 512) else {
            continue;
        };
        let crun = fkp[511] as usize;
        for r in 0..crun.min(101) {
            let (Some(a), Some(b)) = (u32_at(fkp, r * 4), u32_at(fkp, r * 4 + 4)) else {
                break;
            };
            let bx = (crun + 1) * 4 + r * 13;
            let Some(&boff) = fkp.get(bx) else { break };
            let mut props = ParaProps::default();
            if boff != 0 {
                let off = boff as usize * 2;
                let Some(&cb) = fkp.get(off) else { continue };
                let (start, len) = if cb == 0 {
                    (off + 2, fkp.get(off + 1).map(|&c| c as usize * 2).unwrap_or(0))
                } else {
                    (off + 1, cb as usize * 2 - 1)
                };
                let end = (start + len).min(511);
                if start + 2 <= end {
                    props.istd = u16_at(fkp, start).unwrap_or(0);
                    apply_sprms(&fkp[start + 2..end], &mut props);
                }
            }
            runs.push((a, b, props));
        }
    }
    runs.sort_by_key(|r| r.0);
    runs
}

fn apply_sprms(g: &[u8], p: &mut ParaProps) {
    let mut i = 0usize;
    while i + 2 <= g.len() {
        let sprm = u16::from_le_bytes([g[i], g[i + 1]]);
        i += 2;
        let size = match sprm >> 13 {
            0 | 1 => 1,
            2 | 4 | 5 => 2,
            3 => 4,
            7 => 3,
            _ => {
                if sprm == 0xD608 {
                    u16_at(g, i).map(|c| c as usize + 1).unwrap_or(usize::MAX)
                } else {
                    g.get(i).map(|&c| c as usize + 1).unwrap_or(usize::MAX)
                }
            }
        };
        let Some(op) = g.get(i..i.saturating_add(size)) else {
            break;
        };
        match sprm {
            0x2416 => p.in_table = op[0] != 0,
            0x2417 => p.ttp = op[0] != 0,
            0x244B => p.in_table = p.in_table || op[0] != 0,
            0x244C => p.ttp = p.ttp || op[0] != 0,
            0x6649 => p.in_table = p.in_table || u32_at(op, 0).unwrap_or(0) > 0,
            0x460B => p.ilfo = u16_at(op, 0).unwrap_or(0),
            0x2640 => p.outline = (op[0] < 9).then_some(op[0]),
            _ => {}
        }
        i += size;
    }
}

/// istd → heading level, from built-in style ids (sti 1..9 = Heading 1..9).
fn parse_styles(table: &[u8], loc: Option<(usize, usize)>) -> Vec<Option<u8>> {
    let mut out = Vec::new();
    let Some((fc, lcb)) = loc else { return out };
    let Some(st) = table.get(fc..fc.saturating_add(lcb)) else {
        return out;
    };
    let Some(cb_stshi) = u16_at(st, 0) else { return out };
    let cstd = u16_at(st, 2).unwrap_or(0) as usize;
    let mut i = 2 + cb_stshi as usize;
    for _ in 0..cstd.min(4096) {
        let Some(cb) = u16_at(st, i) else { break };
        i += 2;
        if cb == 0 {
            out.push(None);
            continue;
        }
        let sti = u16_at(st, i).unwrap_or(0) & 0x0FFF;
        out.push((1..=9).contains(&sti).then_some(sti as u8));
        i += cb as usize;
    }
    out
}

fn props_at(runs: &[(u32, u32, ParaProps)], fc: u32) -> Option<ParaProps> {
    let idx = runs.partition_point(|r| r.0 <= fc);
    let r = runs.get(idx.checked_sub(1)?)?;
    (fc < r.1).then_some(r.2)
}

#[derive(Default)]
struct Field {
    inst: String,
    in_result: bool,
    link: bool,
}

fn render(text: &[char], char_fc: &[u32], runs: &[(u32, u32, ParaProps)], headings: &[Option<u8>]) -> String {
    let mut out = String::new();
    let mut para = String::new();
    let mut fields: Vec<Field> = Vec::new();
    let mut cell: Vec<String> = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut in_list = false;
    let have_props = !runs.is_empty();
    let mut prev_was_cell_mark = false;

    let flush_table = |rows: &mut Vec<Vec<String>>, out: &mut String| {
        if rows.is_empty() {
            return;
        }
        let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
        out.push_str("<table>\n");
        for (i, r) in rows.iter().enumerate() {
            let tag = if i == 0 { "th" } else { "td" };
            out.push_str("<tr>");
            for c in 0..cols {
                out.push_str(&format!(
                    "<{tag}>{}</{tag}>",
                    r.get(c).map(String::as_str).unwrap_or("")
                ));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
        rows.clear();
    };

    for (i, &ch) in text.iter().enumerate() {
        let inst_mode = fields.last().is_some_and(|f| !f.in_result);
        match ch {
            '\u{13}' => fields.push(Field::default()),
            '\u{14}' => {
                if let Some(f) = fields.last_mut() {
                    f.in_result = true;
                    if let Some(url) = hyperlink(&f.inst) {
                        f.link = true;
                        para.push_str(&format!("<a href=\"{}\">", esc(&url)));
                    }
                }
            }
            '\u{15}' => {
                if let Some(f) = fields.pop()
                    && f.link
                {
                    para.push_str("</a>");
                }
            }
            _ if inst_mode => {
                if let Some(f) = fields.last_mut()
                    && f.inst.len() < 4096
                {
                    f.inst.push(ch);
                }
            }
            '\r' | '\u{7}' | '\u{c}' => {
                // Close links left open at the paragraph end.
                for f in fields.iter_mut().filter(|f| f.link) {
                    para.push_str("</a>");
                    f.link = false;
                }
                let props = char_fc
                    .get(i)
                    .and_then(|&fc| props_at(runs, fc))
                    .unwrap_or_default();
                let content = para.trim().to_string();
                para.clear();
                if ch == '\u{7}' {
                    let row_end = if have_props {
                        props.ttp
                    } else {
                        prev_was_cell_mark && content.is_empty()
                    };
                    if row_end {
                        if !cell.is_empty() {
                            row.push(std::mem::take(&mut cell).join("<br>"));
                        }
                        if rows.len() < 10_000 {
                            rows.push(std::mem::take(&mut row));
                        }
                    } else {
                        if !content.is_empty() {
                            cell.push(content);
                        }
                        row.push(std::mem::take(&mut cell).join("<br>"));
                    }
                    prev_was_cell_mark = true;
                    continue;
                }
                prev_was_cell_mark = false;
                if props.in_table {
                    if !content.is_empty() {
                        cell.push(content);
                    }
                    continue;
                }
                if !row.is_empty() {
                    rows.push(std::mem::take(&mut row));
                }
                flush_table(&mut rows, &mut out);
                if content.is_empty() {
                    continue;
                }
                let level = props
                    .outline
                    .map(|l| l + 1)
                    .or_else(|| headings.get(props.istd as usize).copied().flatten())
                    .map(|l| l.min(6));
                let is_list = level.is_none() && props.ilfo != 0;
                if in_list && !is_list {
                    out.push_str("</ul>\n");
                    in_list = false;
                }
                if let Some(l) = level {
                    out.push_str(&format!("<h{l}>{content}</h{l}>\n"));
                } else if is_list {
                    if !in_list {
                        out.push_str("<ul>\n");
                        in_list = true;
                    }
                    out.push_str(&format!("<li>{content}</li>\n"));
                } else {
                    out.push_str(&format!("<p>{content}</p>\n"));
                }
            }
            '\u{b}' => para.push_str("<br>"),
            '\t' => para.push(' '),
            '\u{1e}' => para.push('-'),
            '\u{a0}' => para.push('\u{a0}'),
            c if (c as u32) < 0x20 => {} // objects, footnote refs, optional hyphens...
            c => {
                prev_was_cell_mark = false;
                match c {
                    '&' => para.push_str("&amp;"),
                    '<' => para.push_str("&lt;"),
                    '>' => para.push_str("&gt;"),
                    '\u{f000}'..='\u{f0ff}' => para.push('•'), // Symbol-font bullets
                    c => para.push(c),
                }
            }
        }
    }
    let rest = para.trim();
    if !rest.is_empty() {
        out.push_str(&format!("<p>{rest}</p>\n"));
    }
    if !row.is_empty() {
        rows.push(row);
    }
    flush_table(&mut rows, &mut out);
    if in_list {
        out.push_str("</ul>\n");
    }
    out
}

fn hyperlink(inst: &str) -> Option<String> {
    let rest = inst.trim().strip_prefix("HYPERLINK")?.trim();
    let url = if let Some(r) = rest.strip_prefix('"') {
        r[..r.find('"').unwrap_or(r.len())].to_string()
    } else {
        rest.split_whitespace()
            .find(|w| !w.starts_with('\\'))?
            .trim_matches('"')
            .to_string()
    };
    (!url.is_empty()).then_some(url)
}

#[cfg(test)]
mod tests {
    use super::*;
    use distill_sdk::documents::testing::{assert_in_order, summary_information, with_stream};

    fn fixture(name: &str) -> Vec<u8> {
        distill_sdk::documents::testing::fixture(env!("CARGO_MANIFEST_DIR"), name)
    }

    #[test]
    fn report() {
        let d = convert_doc(&fixture("report.doc")).unwrap();
        let c = &d.content;
        eprintln!("{c}\n{}", d.metadata);
        for s in [
            "<h1>Quarterly Report</h1>",
            "<h2>Highlights</h2>",
            "<li>Revenue grew by twelve percent</li>",
            "<a href=\"https://example.com/\">the example site</a>",
            "<tr><td>North</td><td>Apples</td><td>1200</td></tr>",
            "<th>Region</th>",
            "Hire two engineers",
        ] {
            assert!(c.contains(s), "missing {s}: {c}");
        }
        assert_in_order(
            c,
            &[
                "Quarterly Report",
                "Highlights",
                "Sales by Region",
                "North",
                "Outlook",
                "Appendix",
            ],
        );
        assert!(d.metadata.contains("Quarterly Report"));
    }

    #[test]
    fn summary_title_in_its_code_page() {
        let title = "Bericht “Q3” – 5 €\0";
        let utf16: Vec<u8> = title.encode_utf16().flat_map(u16::to_le_bytes).collect();
        for info in [
            summary_information(Some(1252), 30, b"Bericht \x93Q3\x94 \x96 5 \x80\0"),
            summary_information(Some(65001), 30, title.as_bytes()),
            summary_information(Some(1200), 31, &utf16),
        ] {
            let doc = with_stream(&fixture("report.doc"), "/\u{5}SummaryInformation", &info);
            let d = convert_doc(&doc).unwrap();
            let meta: Value = serde_json::from_str(&d.metadata).unwrap();
            assert_eq!(meta["title"], "Bericht “Q3” – 5 €");
        }
    }

    #[test]
    fn hostile() {
        for (bytes, why) in [
            (fixture("zip-named.doc"), "zip"),
            (b"hello".to_vec(), "OLE"),
            (fixture("report.doc")[..3000].to_vec(), ""),
        ] {
            let e = convert_doc(&bytes).unwrap_err();
            assert!(
                matches!(&e, PluginError::UnsupportedInput(m) if m.contains(why)),
                "{e:?}"
            );
        }
        // Random corruption of the body must not panic.
        let mut b = fixture("report.doc");
        for i in (600..b.len()).step_by(97) {
            b[i] = b[i].wrapping_mul(31).wrapping_add(7);
        }
        let _ = convert_doc(&b);
    }
}
