//! Distill converter plugin `rtf`: Rich Text Format to HTML.
//!
//! A small, bounded tokenizer (no dependency): paragraphs, bold/italic/underline,
//! headings (`\outlinelevelN` or a "heading N" style), lists (`\lsN` / `\pntext`),
//! hyperlinks (`HYPERLINK` fields), tables (`\intbl` / `\cell` / `\row`), Unicode
//! (`\uN` with `\ucN`) and `\'hh` bytes in the document's ANSI code page.

use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value, json, serde_json};
use std::collections::HashMap;

/// Deepest group nesting followed; deeper groups are read as plain content.
const MAX_DEPTH: usize = 256;
/// Most output text kept (characters).
const MAX_TEXT: usize = 16 * 1024 * 1024;

pub struct Rtf;

impl ConverterPlugin for Rtf {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description(
                "Rich Text Format (.rtf) to HTML: paragraphs, emphasis, headings, lists, links, tables.",
            )
            .extension("rtf")
            .content_type("application/rtf")
            .content_type("text/rtf")
    }

    fn convert(file: &FileInput, _options: &Value) -> Result<Document, PluginError> {
        let start = file
            .bytes
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(0);
        if !file.bytes[start..].starts_with(b"{\\rtf") {
            return Err(PluginError::UnsupportedInput(
                "the file is not RTF (no {\\rtf header)".into(),
            ));
        }
        let out = convert_rtf(&file.bytes[start..]);
        let mut doc = Document::html(out.html);
        let mut meta = serde_json::Map::new();
        if let Some(t) = out.title.filter(|t| !t.trim().is_empty()) {
            meta.insert("title".into(), json!(t.trim()));
        }
        if let Some(a) = out.author.filter(|t| !t.trim().is_empty()) {
            meta.insert("author".into(), json!(a.trim()));
        }
        doc = doc.with_metadata(Value::Object(meta));
        if out.unbalanced {
            doc = doc.with_warning("the RTF file is truncated or its groups are unbalanced");
        }
        if out.truncated {
            doc = doc.with_warning("the RTF text was too long and was truncated");
        }
        Ok(doc)
    }
}

distill_sdk::export_plugin!(converter: Rtf);

#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
struct Fmt {
    bold: bool,
    italic: bool,
    underline: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dest {
    Text,
    Skip,
    FontTable,
    StyleSheet,
    Title,
    Author,
    FieldInst,
    FieldResult,
    ListText,
}

#[derive(Clone, Debug)]
struct State {
    fmt: Fmt,
    dest: Dest,
    uc: usize,
    font: i32,
    /// Paragraph properties live in the group state too (RTF semantics).
    in_table: bool,
    outline: Option<u8>,
    style: i32,
    list: Option<i32>,
}

impl Default for State {
    fn default() -> Self {
        State {
            fmt: Fmt::default(),
            dest: Dest::Text,
            uc: 1,
            font: -1,
            in_table: false,
            outline: None,
            style: 0,
            list: None,
        }
    }
}

#[derive(Default)]
struct Para {
    spans: Vec<(Fmt, Option<String>, String)>,
    list_marker: String,
    marker_text: String,
}

impl Para {
    fn push(&mut self, fmt: Fmt, link: Option<&String>, s: &str) {
        if let Some(last) = self.spans.last_mut()
            && last.0 == fmt
            && last.1.as_ref() == link
        {
            last.2.push_str(s);
            return;
        }
        self.spans.push((fmt, link.cloned(), s.to_string()));
    }
    fn is_blank(&self) -> bool {
        self.spans.iter().all(|s| s.2.trim().is_empty())
    }
    fn html(&self) -> String {
        let mut out = String::new();
        for (fmt, link, text) in &self.spans {
            let mut t = esc(text);
            if text.trim().is_empty() {
                out.push_str(&t);
                continue;
            }
            if fmt.underline && link.is_none() {
                t = format!("<u>{t}</u>");
            }
            if fmt.italic {
                t = format!("<em>{t}</em>");
            }
            if fmt.bold {
                t = format!("<strong>{t}</strong>");
            }
            if let Some(href) = link {
                t = format!("<a href=\"{}\">{t}</a>", esc(href));
            }
            out.push_str(&t);
        }
        out.trim().to_string()
    }
}

struct Out {
    html: String,
    title: Option<String>,
    author: Option<String>,
    unbalanced: bool,
    truncated: bool,
}

enum Block {
    P {
        html: String,
        heading: Option<u8>,
        list: Option<(i32, bool)>,
    },
    Table(Vec<Vec<String>>),
}

struct Conv<'a> {
    stack: Vec<State>,
    st: State,
    para: Para,
    blocks: Vec<Block>,
    row: Vec<String>,
    cell: Vec<String>,
    rows: Vec<Vec<String>>,
    title: Option<String>,
    author: Option<String>,
    field_inst: String,
    link: Option<String>,
    field_depth: Option<usize>,
    codepage: u32,
    font_cp: HashMap<i32, u32>,
    cur_font_def: Option<(i32, u32)>,
    style_names: HashMap<i32, u8>,
    cur_style_def: Option<(i32, String)>,
    text_len: usize,
    truncated: bool,
    src: &'a [u8],
    depth_overflow: usize,
}

pub fn html_of(bytes: &[u8]) -> String {
    convert_rtf(bytes).html
}

fn convert_rtf(src: &[u8]) -> Out {
    let mut c = Conv {
        stack: Vec::new(),
        st: State::default(),
        para: Para::default(),
        blocks: Vec::new(),
        row: Vec::new(),
        cell: Vec::new(),
        rows: Vec::new(),
        title: None,
        author: None,
        field_inst: String::new(),
        link: None,
        field_depth: None,
        codepage: 1252,
        font_cp: HashMap::new(),
        cur_font_def: None,
        style_names: HashMap::new(),
        cur_style_def: None,
        text_len: 0,
        truncated: false,
        src,
        depth_overflow: 0,
    };
    let unbalanced = c.run();
    c.end_para();
    c.flush_table();
    let html = render(&c.blocks);
    Out {
        html,
        title: c.title,
        author: c.author,
        unbalanced,
        truncated: c.truncated,
    }
}

impl Conv<'_> {
    /// Returns true when the groups did not balance.
    fn run(&mut self) -> bool {
        let src = self.src;
        let mut i = 0usize;
        let mut skip_chars = 0usize; // chars to skip after \uN
        let mut pending_bytes: Vec<u8> = Vec::new();
        let mut closed_root = false;
        while i < src.len() && !closed_root {
            let b = src[i];
            if b != b'\\' || src.get(i + 1) != Some(&b'\'') {
                self.flush_bytes(&mut pending_bytes);
            }
            match b {
                b'{' => {
                    i += 1;
                    if self.stack.len() >= MAX_DEPTH {
                        self.depth_overflow += 1;
                        continue;
                    }
                    self.stack.push(self.st.clone());
                }
                b'}' => {
                    i += 1;
                    if self.depth_overflow > 0 {
                        self.depth_overflow -= 1;
                        continue;
                    }
                    self.end_group();
                    if self.stack.is_empty() {
                        closed_root = true;
                    }
                }
                b'\\' => {
                    i += 1;
                    let Some(&n) = src.get(i) else { break };
                    if n.is_ascii_alphabetic() {
                        let s = i;
                        while i < src.len() && src[i].is_ascii_alphabetic() && i - s < 32 {
                            i += 1;
                        }
                        let word = std::str::from_utf8(&src[s..i]).unwrap_or("");
                        let ps = i;
                        if i < src.len() && src[i] == b'-' {
                            i += 1;
                        }
                        while i < src.len() && src[i].is_ascii_digit() && i - ps < 11 {
                            i += 1;
                        }
                        let param: Option<i32> = std::str::from_utf8(&src[ps..i])
                            .ok()
                            .and_then(|p| p.parse::<i64>().ok())
                            .map(|v| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
                        if i < src.len() && src[i] == b' ' {
                            i += 1;
                        }
                        if word == "bin" {
                            let n = param.unwrap_or(0).max(0) as usize;
                            i = i.saturating_add(n).min(src.len());
                            continue;
                        }
                        if word == "u" {
                            if let Some(p) = param {
                                let cp = if p < 0 { (p + 65536) as u32 } else { p as u32 };
                                let ch = char::from_u32(cp).unwrap_or('\u{FFFD}');
                                self.text(&ch.to_string());
                                skip_chars = self.st.uc;
                            }
                            continue;
                        }
                        skip_chars = 0;
                        self.control(word, param);
                    } else {
                        i += 1;
                        match n {
                            b'\'' => {
                                let hex = src
                                    .get(i..i + 2)
                                    .and_then(|h| std::str::from_utf8(h).ok())
                                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                                i += 2;
                                if let Some(v) = hex {
                                    if skip_chars > 0 {
                                        skip_chars -= 1;
                                    } else {
                                        pending_bytes.push(v);
                                    }
                                }
                                continue;
                            }
                            b'*' => {
                                if self.st.dest != Dest::FieldInst {
                                    self.st.dest = Dest::Skip;
                                }
                                // \*\fldinst is handled by the control word.
                            }
                            b'~' => self.text("\u{a0}"),
                            b'_' => self.text("-"),
                            b'-' => {}
                            b'\\' | b'{' | b'}' => self.text(&(n as char).to_string()),
                            b'\n' | b'\r' => self.end_para(),
                            b'|' | b':' => {}
                            _ => {}
                        }
                        skip_chars = 0;
                    }
                }
                b'\r' | b'\n' => i += 1,
                _ => {
                    // Plain text run.
                    let s = i;
                    while i < src.len() && !matches!(src[i], b'{' | b'}' | b'\\' | b'\r' | b'\n') {
                        i += 1;
                    }
                    let mut run = &src[s..i];
                    while skip_chars > 0 && !run.is_empty() {
                        run = &run[1..];
                        skip_chars -= 1;
                    }
                    if !run.is_empty() {
                        pending_bytes.extend_from_slice(run);
                        self.flush_bytes(&mut pending_bytes);
                    }
                }
            }
        }
        self.flush_bytes(&mut pending_bytes);
        !closed_root || !self.stack.is_empty()
    }

    fn flush_bytes(&mut self, bytes: &mut Vec<u8>) {
        if bytes.is_empty() {
            return;
        }
        let cp = self.font_cp.get(&self.st.font).copied().unwrap_or(self.codepage);
        let s = decode_cp(bytes, cp);
        bytes.clear();
        self.text(&s);
    }

    fn text(&mut self, s: &str) {
        match self.st.dest {
            Dest::ListText => {
                if self.para.marker_text.len() < 32 {
                    self.para.marker_text.push_str(s);
                }
            }
            Dest::Skip => {}
            Dest::FontTable => {}
            Dest::StyleSheet => {
                if let Some((_, name)) = &mut self.cur_style_def {
                    name.push_str(s);
                }
            }
            Dest::Title => self.title.get_or_insert_with(String::new).push_str(s),
            Dest::Author => self.author.get_or_insert_with(String::new).push_str(s),
            Dest::FieldInst => self.field_inst.push_str(s),
            Dest::Text | Dest::FieldResult => {
                if self.text_len >= MAX_TEXT {
                    self.truncated = true;
                    return;
                }
                self.text_len += s.len();
                let link = self.link.clone();
                self.para.push(self.st.fmt, link.as_ref(), s);
            }
        }
    }

    fn end_group(&mut self) {
        let depth = self.stack.len();
        // Leaving a stylesheet entry or font entry: record it.
        if self.st.dest == Dest::StyleSheet
            && let Some((id, name)) = self.cur_style_def.take()
        {
            let n = name.trim().trim_end_matches(';').trim().to_ascii_lowercase();
            if let Some(level) = n
                .strip_prefix("heading")
                .and_then(|l| l.trim().parse::<u8>().ok())
            {
                self.style_names.insert(id, level.clamp(1, 6));
            } else if n == "title" {
                self.style_names.insert(id, 1);
            }
        }
        if self.st.dest == Dest::FontTable
            && let Some((id, cp)) = self.cur_font_def.take()
        {
            self.font_cp.insert(id, cp);
        }
        if self.st.dest == Dest::FieldInst {
            let inst = self.field_inst.trim().to_string();
            if let Some(rest) = inst.strip_prefix("HYPERLINK") {
                let mut url = String::new();
                let rest = rest.trim();
                if let Some(q) = rest.find('"') {
                    let r = &rest[q + 1..];
                    url = r[..r.find('"').unwrap_or(r.len())].to_string();
                } else if let Some(w) = rest.split_whitespace().find(|w| !w.starts_with('\\')) {
                    url = w.to_string();
                }
                if !url.is_empty() {
                    self.link = Some(url);
                }
            }
            self.field_inst.clear();
        }
        if let Some(fd) = self.field_depth
            && depth <= fd
        {
            self.field_depth = None;
            self.link = None;
        }
        if let Some(prev) = self.stack.pop() {
            // Paragraph properties are group-scoped too, but a paragraph that is
            // still open keeps the properties it started with.
            self.st = prev;
        }
    }

    fn control(&mut self, word: &str, param: Option<i32>) {
        let on = param.map(|p| p != 0).unwrap_or(true);
        match word {
            // Destinations
            "fonttbl" => self.st.dest = Dest::FontTable,
            "stylesheet" => self.st.dest = Dest::StyleSheet,
            "colortbl" | "pict" | "object" | "header" | "headerl" | "headerr" | "headerf" | "footer"
            | "footerl" | "footerr" | "footerf" | "footnote" | "listtable" | "listoverridetable"
            | "revtbl" | "rsidtbl" | "xmlnstbl" | "themedata" | "colorschememapping" | "datastore"
            | "latentstyles" | "generator" | "operator" | "company" | "comment" | "doccomm" | "subject"
            | "keywords" | "creatim" | "revtim" | "printim" | "buptim" | "pgdsctbl" | "pnseclvl"
            | "bkmkstart" | "bkmkend" | "fldtype" | "shppict" | "nonshppict" | "shp" | "mmathPr" | "info"
            | "userprops" | "ftnsep" | "ftnsepc" | "aftnsep" | "aftnsepc" | "template" | "atnid"
            | "atnauthor" | "annotation" | "private" => {
                if word == "info" {
                    // Title and author are picked from inside \info.
                    self.st.dest = Dest::Skip;
                    self.st.font = -2; // marker: inside info
                } else {
                    self.st.dest = Dest::Skip;
                }
            }
            "title" if self.st.font == -2 => self.st.dest = Dest::Title,
            "author" if self.st.font == -2 => self.st.dest = Dest::Author,
            "field" => self.field_depth = Some(self.stack.len()),
            "fldinst" => {
                self.st.dest = Dest::FieldInst;
                self.field_inst.clear();
            }
            "fldrslt" => self.st.dest = Dest::FieldResult,
            "pntext" | "listtext" => {
                self.st.dest = Dest::ListText;
                self.para.list_marker = "•".into();
            }
            "pn" => self.st.dest = Dest::Skip,
            // Fonts
            "f" => {
                if self.st.dest == Dest::FontTable {
                    self.cur_font_def = Some((param.unwrap_or(0), self.codepage));
                } else if self.st.font != -2 {
                    self.st.font = param.unwrap_or(0);
                }
            }
            "fcharset" => {
                if let Some((_, cp)) = &mut self.cur_font_def {
                    *cp = charset_cp(param.unwrap_or(0)).unwrap_or(*cp);
                }
            }
            "ansicpg" => self.codepage = param.unwrap_or(1252).max(0) as u32,
            "mac" => self.codepage = 10000,
            "uc" => self.st.uc = param.unwrap_or(1).clamp(0, 8) as usize,
            // Styles
            "s" => {
                if self.st.dest == Dest::StyleSheet {
                    self.cur_style_def = Some((param.unwrap_or(0), String::new()));
                } else {
                    self.st.style = param.unwrap_or(0);
                }
            }
            "outlinelevel" => self.st.outline = param.map(|p| p.clamp(0, 5) as u8),
            "ls" => self.st.list = param,
            "pard" => {
                self.st.in_table = false;
                self.st.outline = None;
                self.st.style = 0;
                self.st.list = None;
            }
            "plain" => self.st.fmt = Fmt::default(),
            "b" => self.st.fmt.bold = on,
            "i" => self.st.fmt.italic = on,
            "ul" => self.st.fmt.underline = on,
            "ulnone" => self.st.fmt.underline = false,
            // Breaks
            "par" | "sect" => self.end_para(),
            "line" => self.text("\n"),
            "tab" => self.text("\t"),
            "emdash" => self.text("—"),
            "endash" => self.text("–"),
            "bullet" => self.text("•"),
            "lquote" => self.text("‘"),
            "rquote" => self.text("’"),
            "ldblquote" => self.text("“"),
            "rdblquote" => self.text("”"),
            "emspace" | "enspace" | "qmspace" => self.text(" "),
            // Tables
            "intbl" => self.st.in_table = true,
            "trowd" => {}
            "cell" | "nestcell" => {
                self.st.in_table = true;
                self.end_para();
                let cell = std::mem::take(&mut self.cell);
                self.row.push(cell.join("<br>"));
            }
            "row" | "nestrow" => {
                self.end_para();
                if !self.cell.is_empty() {
                    let cell = std::mem::take(&mut self.cell);
                    self.row.push(cell.join("<br>"));
                }
                let row = std::mem::take(&mut self.row);
                if !row.is_empty() && self.rows.len() < 10_000 {
                    self.rows.push(row);
                }
            }
            _ => {}
        }
    }

    fn end_para(&mut self) {
        if !matches!(self.st.dest, Dest::Text | Dest::FieldResult) {
            return;
        }
        let para = std::mem::take(&mut self.para);
        if self.st.in_table {
            if !para.is_blank() {
                self.cell.push(para.html());
            }
            return;
        }
        self.flush_table();
        if para.is_blank() {
            return;
        }
        let heading = self
            .st
            .outline
            .map(|l| l + 1)
            .or_else(|| self.style_names.get(&self.st.style).copied());
        let list = if heading.is_none() && (self.st.list.is_some() || !para.list_marker.is_empty()) {
            let m = para.marker_text.trim();
            let ordered = m.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
                && (m.ends_with('.') || m.ends_with(')'));
            Some((self.st.list.unwrap_or(0), ordered))
        } else {
            None
        };
        self.blocks.push(Block::P {
            html: para.html(),
            heading,
            list,
        });
    }

    fn flush_table(&mut self) {
        if !self.row.is_empty() || !self.cell.is_empty() {
            let mut row = std::mem::take(&mut self.row);
            if !self.cell.is_empty() {
                row.push(std::mem::take(&mut self.cell).join("<br>"));
            }
            self.rows.push(row);
        }
        if !self.rows.is_empty() {
            self.blocks.push(Block::Table(std::mem::take(&mut self.rows)));
        }
    }
}

fn render(blocks: &[Block]) -> String {
    let mut out = String::new();
    let mut open_list: Option<&str> = None;
    for b in blocks {
        let list_tag = match b {
            Block::P {
                list: Some((_, true)),
                ..
            } => Some("ol"),
            Block::P {
                list: Some((_, false)),
                ..
            } => Some("ul"),
            _ => None,
        };
        if let Some(t) = open_list
            && list_tag != Some(t)
        {
            out.push_str(&format!("</{t}>\n"));
            open_list = None;
        }
        match b {
            Block::P {
                html,
                heading: Some(h),
                ..
            } => {
                // Headings are bold anyway: drop a <strong> wrapping the whole text.
                let inner = html
                    .strip_prefix("<strong>")
                    .and_then(|s| s.strip_suffix("</strong>"))
                    .filter(|s| !s.contains("<strong>"))
                    .unwrap_or(html);
                out.push_str(&format!("<h{h}>{inner}</h{h}>\n"))
            }
            Block::P {
                html, list: Some(_), ..
            } => {
                if open_list.is_none() {
                    let t = list_tag.unwrap_or("ul");
                    out.push_str(&format!("<{t}>\n"));
                    open_list = Some(t);
                }
                out.push_str(&format!("<li>{html}</li>\n"));
            }
            Block::P { html, .. } => out.push_str(&format!("<p>{}</p>\n", html.replace('\n', "<br>"))),
            Block::Table(rows) => {
                let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
                out.push_str("<table>\n");
                for (i, row) in rows.iter().enumerate() {
                    out.push_str("<tr>");
                    let tag = if i == 0 { "th" } else { "td" };
                    for c in 0..cols {
                        out.push_str(&format!(
                            "<{tag}>{}</{tag}>",
                            row.get(c).map(String::as_str).unwrap_or("")
                        ));
                    }
                    out.push_str("</tr>\n");
                }
                out.push_str("</table>\n");
            }
        }
    }
    if let Some(t) = open_list {
        out.push_str(&format!("</{t}>\n"));
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn charset_cp(charset: i32) -> Option<u32> {
    Some(match charset {
        0 => 1252,
        77 => 10000,
        128 => 932,
        134 => 936,
        161 => 1253,
        162 => 1254,
        177 => 1255,
        178 => 1256,
        186 => 1257,
        204 => 1251,
        238 => 1250,
        _ => return None,
    })
}

/// Decodes bytes in a Windows code page. 1252 and 1251 are mapped exactly; other
/// single-byte pages fall back to Latin-1; multi-byte pages to U+FFFD for high bytes.
fn decode_cp(bytes: &[u8], cp: u32) -> String {
    const CP1252: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž', '\u{8F}',
        '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}', 'ž', 'Ÿ',
    ];
    bytes
        .iter()
        .map(|&b| match (cp, b) {
            (_, 0..=0x7F) => b as char,
            (1251, 0xC0..=0xFF) => char::from_u32(0x410 + (b as u32 - 0xC0)).unwrap_or('?'),
            (1251, 0xA8) => 'Ё',
            (1251, 0xB8) => 'ё',
            (932 | 936 | 949 | 950, _) => '\u{FFFD}',
            (_, 0x80..=0x9F) => CP1252[(b - 0x80) as usize],
            _ => b as char,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(bytes: &[u8]) -> Result<Document, PluginError> {
        Rtf::convert(
            &FileInput {
                name: "a.rtf".into(),
                content_type: None,
                bytes: bytes.to_vec(),
            },
            &json!({}),
        )
    }

    #[test]
    fn basic_formatting() {
        let d = conv(br"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}}{\info{\title My Doc}}\f0 Hello {\b bold} and {\i it}\'e9\par Second\u8364? end\par}").unwrap();
        assert!(
            d.content
                .contains("<p>Hello <strong>bold</strong> and <em>it</em>é</p>"),
            "{}",
            d.content
        );
        assert!(d.content.contains("<p>Second€ end</p>"), "{}", d.content);
        assert!(d.metadata.contains("My Doc"));
    }

    #[test]
    fn table_and_link() {
        let d = conv(br#"{\rtf1 {\field{\*\fldinst HYPERLINK "https://x.org/"}{\fldrslt Site}}\par\trowd\cellx100\cellx200\intbl A\cell B\cell\row\intbl 1\cell 2\cell\row\pard After\par}"#).unwrap();
        assert!(
            d.content.contains("<a href=\"https://x.org/\">Site</a>"),
            "{}",
            d.content
        );
        assert!(
            d.content.contains("<tr><th>A</th><th>B</th></tr>"),
            "{}",
            d.content
        );
        assert!(
            d.content.contains("<tr><td>1</td><td>2</td></tr>"),
            "{}",
            d.content
        );
        assert!(d.content.find("</table>").unwrap() < d.content.find("After").unwrap());
    }

    #[test]
    fn rejects_non_rtf_and_survives_garbage() {
        assert!(matches!(
            conv(b"PK\x03\x04"),
            Err(PluginError::UnsupportedInput(_))
        ));
        let mut deep = b"{\\rtf1 ".to_vec();
        deep.extend(std::iter::repeat_n(b'{', 100_000));
        deep.extend(b"x");
        let d = conv(&deep).unwrap();
        assert!(!d.warnings.is_empty());
        let d = conv(br"{\rtf1 truncated \b te").unwrap();
        assert!(d.content.contains("truncated"));
    }

    #[test]
    fn fixture() {
        let bytes = std::fs::read(format!(
            "{}/../../tests/fixtures/documents/sample.rtf",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let d = conv(&bytes).unwrap();
        let c = &d.content;
        eprintln!("{c}");
        for s in [
            "Quarterly Report",
            "<strong>",
            "<em>",
            "<table>",
            "Apples",
            "<li>",
            "https://example.com/",
        ] {
            assert!(c.contains(s), "missing {s}: {c}");
        }
        assert!(c.find("Quarterly Report").unwrap() < c.find("Apples").unwrap());
        assert!(
            c.contains("<h1>Quarterly Report</h1>") && c.contains("<h2>Highlights</h2>"),
            "{c}"
        );
        assert!(c.contains("<ol>\n<li>Hire two engineers</li>"), "{c}");
        assert!(c.contains("<ul>\n<li>Revenue grew by twelve percent</li>"), "{c}");
    }
}
