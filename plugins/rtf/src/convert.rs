//! The RTF reader: group state (formatting, destination, story, `\ucN`, font),
//! destinations (font table, stylesheet, `\info`, fields, list markers,
//! headers, footers, footnotes, `\upr`/`\ud`), and text routed to its story.
//! Bytes (`\'hh`, literal text, `\\ \{ \}`) are gathered and decoded together
//! in the code page of the current font, so double-byte characters whose trail
//! byte is a literal or escaped character stay whole.

use crate::charset::{self, Utf16};
use crate::lexer::{Lexer, Token};
use crate::render::{self, Stories};
use crate::story::{Fmt, ParaProps, Story};
use std::collections::HashMap;

/// Deepest group nesting followed; deeper groups are read as plain content.
const MAX_DEPTH: usize = 256;
/// Most output text kept (bytes of UTF-8).
const MAX_TEXT: usize = 16 * 1024 * 1024;
/// Most stories (headers, footers, footnotes) kept besides the body.
const MAX_STORIES: usize = 10_000;

/// What the text of the current group is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dest {
    /// Content of the current story.
    Text,
    /// Ignored (unknown `\*` destinations, pictures, tables of the file...).
    Skip,
    FontTable,
    StyleSheet,
    /// Inside `\info`: only `\title` and `\author` are read.
    Info,
    Title,
    Author,
    FieldInst,
    /// `\pntext` / `\listtext`: a list item's marker.
    ListText,
    /// A shape (`\shp`, `\shpinst`): only its text box (`\shptxt`) is read.
    Shape,
}

/// Kinds of stories besides the body.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Body,
    Header,
    Footer,
    Footnote(usize),
}

#[derive(Clone, Debug)]
struct State {
    fmt: Fmt,
    dest: Dest,
    /// Index into `Conv::stories`.
    story: usize,
    uc: usize,
    font: i32,
    /// The destination `\upr` hid, given back by `\ud`.
    upr_parent: Option<Dest>,
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
            story: 0,
            uc: 1,
            font: -1,
            upr_parent: None,
            in_table: false,
            outline: None,
            style: 0,
            list: None,
        }
    }
}

/// What a conversion gives.
pub struct Out {
    pub html: String,
    pub title: Option<String>,
    pub author: Option<String>,
    pub unbalanced: bool,
    pub truncated: bool,
}

struct Conv {
    stack: Vec<State>,
    st: State,
    stories: Vec<(Kind, Story)>,
    footnotes: usize,
    title: Option<String>,
    author: Option<String>,
    field_inst: String,
    link: Option<String>,
    field_depth: Option<usize>,
    /// `\ansicpg` (or `\mac`, `\pc`, `\pca`).
    codepage: u32,
    /// Fonts whose charset or `\cpg` names their own code page.
    font_cp: HashMap<i32, u32>,
    cur_font_def: Option<(i32, Option<u32>)>,
    style_names: HashMap<i32, u8>,
    cur_style_def: Option<(i32, String)>,
    /// Bytes waiting to be decoded together.
    bytes: Vec<u8>,
    utf16: Utf16,
    /// Characters still to skip after `\uN` (the ANSI fallback).
    skip: usize,
    /// The last token was `\*`.
    star: bool,
    text_len: usize,
    truncated: bool,
    depth_overflow: usize,
}

/// Converts RTF bytes (starting at `{\rtf`) to HTML.
pub fn convert(src: &[u8]) -> Out {
    let mut c = Conv {
        stack: Vec::new(),
        st: State::default(),
        stories: vec![(Kind::Body, Story::default())],
        footnotes: 0,
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
        bytes: Vec::new(),
        utf16: Utf16::default(),
        skip: 0,
        star: false,
        text_len: 0,
        truncated: false,
        depth_overflow: 0,
    };
    let unbalanced = c.run(src);
    c.flush();
    // Whatever is still open (a truncated file) ends where the file ends.
    let props = c.props();
    for (_, story) in &mut c.stories {
        story.end_para(props);
        story.flush_table();
    }
    let mut stories = Stories {
        headers: Vec::new(),
        body: &c.stories[0].1,
        footnotes: Vec::new(),
        footers: Vec::new(),
    };
    for (kind, story) in &c.stories {
        match kind {
            Kind::Body => {}
            Kind::Header => stories.headers.push(story),
            Kind::Footer => stories.footers.push(story),
            Kind::Footnote(n) => stories.footnotes.push((*n, story)),
        }
    }
    Out {
        html: render::document(&stories),
        title: c.title,
        author: c.author,
        unbalanced,
        truncated: c.truncated,
    }
}

impl Conv {
    /// Returns true when the groups did not balance.
    fn run(&mut self, src: &[u8]) -> bool {
        let mut closed_root = false;
        for tok in Lexer::new(src) {
            if !matches!(tok, Token::Word(..)) {
                self.star = false;
            }
            match tok {
                Token::Open => {
                    self.flush();
                    self.skip = 0;
                    if self.stack.len() >= MAX_DEPTH {
                        self.depth_overflow += 1;
                        continue;
                    }
                    self.stack.push(self.st.clone());
                }
                Token::Close => {
                    self.flush();
                    self.skip = 0;
                    if self.depth_overflow > 0 {
                        self.depth_overflow -= 1;
                        continue;
                    }
                    self.end_group();
                    if self.stack.is_empty() {
                        closed_root = true;
                        break;
                    }
                }
                Token::Hex(b) => {
                    if !self.skipped() {
                        self.bytes.push(b);
                    }
                }
                Token::Text(run) => {
                    let n = self.skip.min(run.len());
                    self.skip -= n;
                    self.bytes.extend_from_slice(&run[n..]);
                }
                Token::Symbol(s) => {
                    if self.skipped() {
                        continue;
                    }
                    if matches!(s, b'\\' | b'{' | b'}') {
                        // Literal characters; also the trail byte of a double-byte one.
                        self.bytes.push(s);
                    } else {
                        self.flush();
                        self.symbol(s);
                    }
                }
                Token::Word(word, param) => {
                    let star = std::mem::take(&mut self.star);
                    if self.skipped() {
                        continue;
                    }
                    if word == "u" {
                        if let Some(p) = param {
                            self.flush_bytes();
                            let s = self.utf16.push(p);
                            self.text(&s);
                            self.skip = self.st.uc;
                        }
                        continue;
                    }
                    self.flush();
                    self.control(word, param, star);
                }
            }
        }
        !closed_root || !self.stack.is_empty()
    }

    /// Counts one character against the `\uN` fallback; true when it is skipped.
    fn skipped(&mut self) -> bool {
        if self.skip > 0 {
            self.skip -= 1;
            true
        } else {
            false
        }
    }

    /// Decodes the pending bytes and ends a `\uN` run.
    fn flush(&mut self) {
        self.flush_bytes();
        if let Some(c) = self.utf16.finish() {
            self.text(&c.to_string());
        }
    }

    fn flush_bytes(&mut self) {
        if self.bytes.is_empty() {
            return;
        }
        let cp = self.font_cp.get(&self.st.font).copied().unwrap_or(self.codepage);
        let bytes = std::mem::take(&mut self.bytes);
        let s = charset::decode(&bytes, cp);
        self.text(&s);
    }

    fn story(&mut self) -> &mut Story {
        let i = self.st.story.min(self.stories.len() - 1);
        &mut self.stories[i].1
    }

    fn text(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        match self.st.dest {
            Dest::ListText => {
                let para = &mut self.story().para;
                if para.marker_text.len() < 32 {
                    para.marker_text.push_str(s);
                }
            }
            Dest::Skip | Dest::FontTable | Dest::Info | Dest::Shape => {}
            Dest::StyleSheet => {
                if let Some((_, name)) = &mut self.cur_style_def {
                    name.push_str(s);
                }
            }
            Dest::Title => self.title.get_or_insert_with(String::new).push_str(s),
            Dest::Author => self.author.get_or_insert_with(String::new).push_str(s),
            Dest::FieldInst => self.field_inst.push_str(s),
            Dest::Text => {
                if s.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\t')) {
                    let kept: String = s
                        .chars()
                        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
                        .collect();
                    return self.text(&kept);
                }
                if self.text_len >= MAX_TEXT {
                    self.truncated = true;
                    return;
                }
                self.text_len += s.len();
                let (fmt, link) = (self.st.fmt, self.link.clone());
                self.story().para.push(fmt, link.as_ref(), s);
            }
        }
    }

    /// The paragraph properties in force.
    fn props(&self) -> ParaProps {
        ParaProps {
            in_table: self.st.in_table,
            heading: self
                .st
                .outline
                .map(|l| l + 1)
                .or_else(|| self.style_names.get(&self.st.style).copied()),
            list: self.st.list,
        }
    }

    fn end_para(&mut self) {
        if self.st.dest != Dest::Text {
            return;
        }
        let props = self.props();
        self.story().end_para(props);
    }

    fn end_group(&mut self) {
        let depth = self.stack.len();
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
            && let Some(cp) = cp
        {
            self.font_cp.insert(id, cp);
        }
        if self.st.dest == Dest::FieldInst {
            self.field_link();
        }
        if let Some(fd) = self.field_depth
            && depth <= fd
        {
            self.field_depth = None;
            self.link = None;
        }
        let Some(prev) = self.stack.pop() else { return };
        if prev.story != self.st.story && self.st.dest == Dest::Text {
            // Leaving a header, footer or footnote: its last paragraph ends here.
            let props = self.props();
            let story = self.story();
            story.end_para(props);
            story.flush_table();
        }
        // Paragraph properties are group-scoped too, but a paragraph that is
        // still open keeps the properties it started with.
        self.st = prev;
    }

    /// A `HYPERLINK "url"` field instruction sets the link of its result.
    fn field_link(&mut self) {
        let inst = std::mem::take(&mut self.field_inst);
        let Some(rest) = inst.trim().strip_prefix("HYPERLINK") else {
            return;
        };
        let rest = rest.trim();
        let url = if let Some(q) = rest.find('"') {
            let r = &rest[q + 1..];
            r[..r.find('"').unwrap_or(r.len())].to_string()
        } else {
            rest.split_whitespace()
                .find(|w| !w.starts_with('\\'))
                .unwrap_or("")
                .to_string()
        };
        if !url.is_empty() {
            self.link = Some(url);
        }
    }

    /// Opens a new story (header, footer, footnote) for the current group.
    fn open_story(&mut self, kind: Kind) {
        if self.stories.len() > MAX_STORIES {
            self.st.dest = Dest::Skip;
            return;
        }
        self.stories.push((kind, Story::default()));
        self.st.story = self.stories.len() - 1;
        self.st.dest = Dest::Text;
        self.st.in_table = false;
        self.st.outline = None;
        self.st.style = 0;
        self.st.list = None;
    }

    fn symbol(&mut self, s: u8) {
        match s {
            b'*' => self.star = true,
            b'~' => self.text("\u{a0}"),
            b'_' => self.text("-"),
            b'\n' | b'\r' => self.end_para(),
            _ => {}
        }
    }

    fn control(&mut self, word: &str, param: Option<i32>, star: bool) {
        if self.st.dest == Dest::Skip {
            // Nothing inside an ignored group counts, except the Unicode
            // twin of a `\upr` group.
            if word == "ud"
                && let Some(d) = self.st.upr_parent.take()
            {
                self.st.dest = d;
            }
            return;
        }
        if self.destination(word) {
            return;
        }
        if star {
            // `\*\unknown`: an optional destination we do not read.
            self.st.dest = Dest::Skip;
            return;
        }
        self.property(word, param);
    }

    /// Handles destination control words; false when `word` is not one.
    fn destination(&mut self, word: &str) -> bool {
        match word {
            "fonttbl" => self.st.dest = Dest::FontTable,
            "stylesheet" => self.st.dest = Dest::StyleSheet,
            "info" => self.st.dest = Dest::Info,
            "title" if self.st.dest == Dest::Info => self.st.dest = Dest::Title,
            "author" if self.st.dest == Dest::Info => self.st.dest = Dest::Author,
            "upr" => {
                self.st.upr_parent = Some(self.st.dest);
                self.st.dest = Dest::Skip;
            }
            "field" => self.field_depth = Some(self.stack.len()),
            "fldinst" => {
                self.st.dest = Dest::FieldInst;
                self.field_inst.clear();
            }
            "fldrslt" => self.st.dest = Dest::Text,
            "pntext" | "listtext" => {
                self.st.dest = Dest::ListText;
                self.story().para.list_marker = true;
            }
            // Text boxes: the text in place, not the shape's drawn fallback.
            "shp" if self.st.dest == Dest::Text => self.st.dest = Dest::Shape,
            "shpinst" if self.st.dest == Dest::Shape => {}
            "shptxt" if self.st.dest == Dest::Shape => self.st.dest = Dest::Text,
            "header" | "headerl" | "headerr" | "headerf" if self.st.dest == Dest::Text => {
                self.open_story(Kind::Header)
            }
            "footer" | "footerl" | "footerr" | "footerf" if self.st.dest == Dest::Text => {
                self.open_story(Kind::Footer)
            }
            "footnote" if self.st.dest == Dest::Text => {
                self.footnotes += 1;
                let n = self.footnotes;
                let link = self.link.clone();
                self.story()
                    .para
                    .push(Fmt::default(), link.as_ref(), &format!("[{n}]"));
                self.open_story(Kind::Footnote(n));
                self.st.fmt = Fmt::default();
            }
            "colortbl" | "pict" | "object" | "listtable" | "listoverridetable" | "revtbl" | "rsidtbl"
            | "xmlnstbl" | "themedata" | "colorschememapping" | "datastore" | "latentstyles"
            | "generator" | "operator" | "company" | "comment" | "doccomm" | "subject" | "keywords"
            | "creatim" | "revtim" | "printim" | "buptim" | "pgdsctbl" | "pnseclvl" | "bkmkstart"
            | "bkmkend" | "fldtype" | "shppict" | "nonshppict" | "shp" | "shpinst" | "shptxt" | "shprslt"
            | "do" | "mmathPr" | "userprops" | "ftnsep" | "ftnsepc" | "aftnsep" | "aftnsepc" | "template"
            | "atnid" | "atnauthor" | "annotation" | "private" | "pn" | "header" | "headerl" | "headerr"
            | "headerf" | "footer" | "footerl" | "footerr" | "footerf" | "footnote" | "category"
            | "manager" | "hlinkbase" | "nextfile" | "blipuid" | "listpicture" | "fchars" | "lchars" => {
                self.st.dest = Dest::Skip;
            }
            _ => return false,
        }
        true
    }

    /// Character, paragraph, table and document properties; special characters.
    fn property(&mut self, word: &str, param: Option<i32>) {
        let on = param.map(|p| p != 0).unwrap_or(true);
        match word {
            // Fonts and code pages
            "f" => {
                if self.st.dest == Dest::FontTable {
                    // A font table may list fonts without a group each.
                    if let Some((id, Some(cp))) = self.cur_font_def.take() {
                        self.font_cp.insert(id, cp);
                    }
                    self.cur_font_def = Some((param.unwrap_or(0), None));
                } else {
                    self.st.font = param.unwrap_or(0);
                }
            }
            "deff" => self.st.font = param.unwrap_or(0),
            "fcharset" => {
                if let Some((_, cp)) = &mut self.cur_font_def
                    && cp.is_none()
                {
                    *cp = charset::codepage_of_charset(param.unwrap_or(0));
                }
            }
            "cpg" => {
                if let Some((_, cp)) = &mut self.cur_font_def {
                    *cp = param.and_then(|p| u32::try_from(p).ok()).or(*cp);
                }
            }
            "ansicpg" => {
                if let Some(cp) = param.and_then(|p| u32::try_from(p).ok()).filter(|&p| p > 0) {
                    self.codepage = cp;
                }
            }
            "mac" => self.codepage = 10000,
            "pc" => self.codepage = 437,
            "pca" => self.codepage = 850,
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
            "cell" | "nestcell" if self.st.dest == Dest::Text => {
                self.st.in_table = true;
                let props = self.props();
                self.story().end_cell(props);
            }
            "row" | "nestrow" if self.st.dest == Dest::Text => {
                let props = self.props();
                self.story().end_row(props);
            }
            _ => {}
        }
    }
}
