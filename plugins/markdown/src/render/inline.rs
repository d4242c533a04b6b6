//! The inline writer: collapses HTML whitespace, escapes markdown syntax in
//! text, writes line breaks for its context, and wraps content in markers
//! (`**`, `_`, `[...](...)`) only when the content is not empty, keeping
//! surrounding spaces and breaks outside the markers.

use crate::text_scan::{ascii_ws_end, invisible_len, word_stop, ws_len};

/// What a line break (`<br>`, or a block edge inside inline content) becomes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Break {
    /// In a paragraph: a hard break, two spaces and a newline; two in a row
    /// end the paragraph.
    Hard,
    /// Inside link text: backslash-newline (a hard break that keeps the link whole).
    Label,
    /// In a table cell: `<br>`.
    Cell,
    /// In a heading, a definition term or alt text: a space.
    Space,
}

/// A position where a wrapper opened (see [`Inline::open`]).
pub struct Mark {
    start: usize,
    bol: bool,
    quiet: bool,
    /// The enclosing wrapper's start ([`Inline::wrap_start`] when this one opened).
    outer: usize,
}

/// Inline markdown being written into `s`.
pub struct Inline {
    pub s: String,
    pub brk: Break,
    /// Collapsible whitespace was seen and not yet written.
    space: bool,
    /// At the start of a line: whitespace is dropped, line-start syntax escaped.
    bol: bool,
    /// The next content directly follows an opening marker, so it is not at a
    /// markdown line start even when `bol`.
    quiet: bool,
    /// Depth inside link text / alt text (brackets are escaped there).
    pub label: u32,
    /// Where the innermost link text starts: no line break before its content.
    pub label_start: usize,
    /// Open wrappers: a double `<br>` cannot end the paragraph inside them.
    wraps: u32,
    pub em: u32,
    pub strong: u32,
    pub del: u32,
    /// At the start of a list item, before any content (task-list checkboxes).
    pub item_start: bool,
    /// Positions of the `_` markers of an emphasis that just closed: if a
    /// letter follows directly, they become `*` (`_` cannot close inside a word).
    pub em_close: Option<(usize, usize)>,
    /// Start of the current paragraph: trimming never goes below it.
    pub floor: usize,
    /// Where the innermost open wrapper's content starts (0 when none is open): a
    /// closing wrapper joins the one before it only where that edit stays after this
    /// position, so the marks of the wrappers still open keep pointing at their content.
    wrap_start: usize,
}

impl Inline {
    pub fn new(brk: Break) -> Self {
        Inline::with_buffer(String::new(), brk)
    }

    pub fn with_buffer(s: String, brk: Break) -> Self {
        let floor = s.len();
        Inline {
            s,
            brk,
            space: false,
            bol: true,
            quiet: false,
            label: 0,
            label_start: 0,
            wraps: 0,
            em: 0,
            strong: 0,
            del: 0,
            item_start: false,
            em_close: None,
            floor,
            wrap_start: 0,
        }
    }

    /// Starts a new line/paragraph at the end of the buffer.
    pub fn reset_line(&mut self) {
        self.bol = true;
        self.space = false;
        self.quiet = false;
    }

    /// Notes collapsible whitespace (written as one space before the next content).
    pub fn space(&mut self) {
        self.space = true;
    }

    fn before_content(&mut self) {
        if self.space {
            if !self.bol {
                self.s.push(' ');
            }
            self.space = false;
        }
        self.item_start = false;
    }

    fn after_content(&mut self) {
        self.bol = false;
        self.quiet = false;
        self.em_close = None;
    }

    /// Writes markup as is (after a pending space).
    pub fn raw(&mut self, markup: &str) {
        if !markup.is_empty() {
            self.before_content();
            self.s.push_str(markup);
            self.after_content();
        }
    }

    /// Writes markup produced by `f` (after a pending space).
    pub fn raw_with(&mut self, f: impl FnOnce(&mut String)) {
        self.before_content();
        self.em_close = None;
        f(&mut self.s);
        self.after_content();
    }

    /// Writes a text of ASCII whitespace alone (a text node flagged
    /// [`crate::parse::WS_ONLY`]): what [`Inline::text`] makes of it, a
    /// pending space, without its loop.
    pub fn blank(&mut self, text: &str) {
        self.space |= !text.is_empty();
    }

    /// Writes text: whitespace collapsed, markdown syntax escaped.
    pub fn text(&mut self, text: &str) {
        #[cfg(target_arch = "wasm32")]
        {
            // SAFETY: SIMD128 is part of the wasm features wasmtime enables
            // by default; a runtime without it refuses the component.
            unsafe { self.text_simd128(text) }
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.text_body(text)
    }

    /// [`Inline::text_body`] compiled with SIMD128, so the run scan
    /// (`crate::text_scan::stop`) inlines into its loop.
    #[cfg(target_arch = "wasm32")]
    #[target_feature(enable = "simd128")]
    unsafe fn text_simd128(&mut self, text: &str) {
        self.text_body(text)
    }

    #[inline(always)]
    fn text_body(&mut self, text: &str) {
        let b = text.as_bytes();
        // Brackets are escaped in link text, and where the text spells a link.
        // Computed when a word first holds a bracket: most text has none.
        let mut brackets = Brackets {
            text: b,
            escape: (self.label > 0).then_some(true),
        };
        let mut i = 0;
        while i < b.len() {
            let ws = if CLASS[b[i] as usize] & (WS | LEAD) == 0 {
                0
            } else {
                ws_len(b, i)
            };
            if ws > 0 {
                self.space = true;
                i += ws;
                // The rest of an ASCII whitespace run (indentation) in one scan.
                i = ascii_ws_end(b, i);
                continue;
            }
            let mut end = i + 1;
            // The classes of the word's bytes: without SPECIAL or LEAD,
            // `word` has nothing to escape or drop and skips its own scan.
            // A lead byte counts only before an invisible character (a
            // curly quote or a dash is copied like a letter).
            let mut seen = word_class(b, i);
            // Bytes of no class skipped in one scan: they neither end the
            // word nor add to `seen`.
            end += word_stop(&b[end..]);
            while end < b.len() {
                let class = CLASS[b[end] as usize];
                if class & WS != 0 || class & LEAD != 0 && ws_len(b, end) > 0 {
                    break;
                }
                seen |= if class & LEAD != 0 {
                    word_class(b, end)
                } else {
                    class
                };
                end += 1;
            }
            let plain = seen & (SPECIAL | LEAD) == 0;
            if let Some((open, close)) = self.em_close
                && !self.space
                && close + 1 == self.s.len()
                && text[i..].chars().next().is_some_and(char::is_alphanumeric)
            {
                self.s.replace_range(open..open + 1, "*");
                self.s.replace_range(close..close + 1, "*");
            }
            let before = self.s.len();
            let pending = self.space;
            self.before_content();
            let written = self.s.len();
            self.word(&text[i..end], end < b.len(), &mut brackets, plain);
            if self.s.len() == written {
                // Only invisible characters: keep the space pending.
                self.s.truncate(before);
                self.space = pending;
                i = end;
            } else {
                self.after_content();
                i = end + plain_run(&b[end..]);
                self.s.push_str(&text[end..i]);
            }
        }
    }

    /// Escapes one whitespace-free word. `plain`: the word holds no byte of
    /// class SPECIAL and no invisible character (nothing to escape or drop
    /// past a line start).
    fn word(&mut self, w: &str, space_after: bool, brackets: &mut Brackets<'_>, plain: bool) {
        let b = w.as_bytes();
        let mut i = 0;
        if self.bol && !self.quiet && matches!(self.brk, Break::Hard | Break::Label) {
            i = self.line_start(w);
        }
        if plain {
            self.s.push_str(&w[i..]);
            return;
        }
        let prev_written = if self.bol {
            None
        } else {
            self.s.as_bytes().last().copied()
        };
        let mut run = i;
        while i < b.len() {
            let c = b[i];
            if CLASS[c as usize] & (SPECIAL | LEAD) == 0 {
                i += 1;
                continue;
            }
            let next = b
                .get(i + 1)
                .copied()
                .or(if space_after { Some(b' ') } else { None });
            let prev = if i == 0 { prev_written } else { Some(b[i - 1]) };
            let escape = match c {
                b'\\' => next.is_none_or(|n| n.is_ascii_punctuation()),
                b'*' => !(w == "*" && space_after && prev.is_none_or(is_space)),
                b'_' => !(prev.is_some_and(is_wordish) && next.is_some_and(is_wordish)),
                b'`' => true,
                b'[' | b']' => brackets.escape(),
                b'<' => next.is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, b'/' | b'!' | b'?')),
                b'&' => looks_like_entity(&b[i + 1..]),
                b'~' => next == Some(b'~') || prev == Some(b'~'),
                0xC2 | 0xE2 | 0xEF => {
                    let drop = invisible_len(b, i);
                    if drop > 0 {
                        self.s.push_str(&w[run..i]);
                        i += drop;
                        run = i;
                        continue;
                    }
                    false
                }
                _ => false,
            };
            if escape {
                self.s.push_str(&w[run..i]);
                self.s.push('\\');
                run = i;
            }
            i += 1;
        }
        self.s.push_str(&w[run..]);
    }

    /// Escapes what would start a block at a line start (`#`, `>`, `-`, `+`,
    /// `*`, `1.`, setext underlines). Returns the bytes of `w` consumed.
    fn line_start(&mut self, w: &str) -> usize {
        let b = w.as_bytes();
        let alone = |n: usize| n == b.len();
        match b[0] {
            b'>' => {
                self.s.push_str("\\>");
                1
            }
            b'#' if b.len() <= 6 && b.iter().all(|&c| c == b'#') => {
                self.s.push('\\');
                0
            }
            b'-' | b'+' | b'*' if alone(1) => {
                self.s.push('\\');
                0
            }
            b'=' | b'-' if b.iter().all(|&c| c == b[0]) => {
                self.s.push('\\');
                0
            }
            b'0'..=b'9' => {
                let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
                if digits <= 9 && matches!(b.get(digits), Some(b'.' | b')')) && alone(digits + 1) {
                    self.s.push_str(&w[..digits]);
                    self.s.push('\\');
                    return digits;
                }
                0
            }
            _ => 0,
        }
    }

    /// An explicit `<br>`.
    pub fn br(&mut self) {
        if self.brk == Break::Hard && self.bol {
            // A second break in a row ends the paragraph (outside wrappers).
            if self.wraps == 0 && self.s.len() >= self.floor + 3 && self.s.ends_with("  \n") {
                self.s.truncate(self.s.len() - 3);
                self.s.push_str("\n\n");
            }
            return;
        }
        self.boundary();
    }

    /// A line break where a block starts or ends inside inline content.
    pub fn boundary(&mut self) {
        if self.brk == Break::Space {
            self.space = true;
            return;
        }
        if self.bol || self.brk == Break::Label && self.s.len() <= self.label_start {
            return;
        }
        self.space = false;
        self.s.push_str(match self.brk {
            Break::Hard => "  \n",
            Break::Label => "\\\n",
            _ => "<br>",
        });
        self.bol = true;
        self.quiet = false;
    }

    /// Opens a wrapper: content written until [`Inline::close`] gets markers.
    pub fn open(&mut self) -> Mark {
        self.wraps += 1;
        self.em_close = None;
        let mark = Mark {
            start: self.s.len(),
            bol: self.bol,
            quiet: self.quiet,
            outer: self.wrap_start,
        };
        self.wrap_start = mark.start;
        self.quiet = true;
        mark
    }

    /// Closes the wrapper opened at `m`. With visible content, `open` goes
    /// before it and `close` after it (leading/trailing spaces and breaks stay
    /// outside); otherwise nothing is added. With `join` (symmetric markers
    /// such as `**`), a wrapper right after an identical one extends it.
    /// Returns where the opening marker went, if markers were written.
    pub fn close(
        &mut self,
        m: Mark,
        open: &str,
        join: bool,
        close: impl FnOnce(&mut String),
    ) -> Option<usize> {
        self.wraps -= 1;
        self.em_close = None;
        self.wrap_start = m.outer;
        let content = &self.s[m.start..];
        if content.is_empty() {
            self.quiet = m.quiet;
            self.bol = m.bol;
            return None;
        }
        let lead = junk_prefix(content);
        if lead == content.len() {
            return None;
        }
        let trail = junk_suffix(&content[lead..]);
        let tail = self.s.split_off(self.s.len() - trail);
        let before = &self.s.as_bytes()[..m.start];
        let opened_at = if join
            && lead == 0
            && before.ends_with(open.as_bytes())
            && m.start - open.len() >= m.outer
            && !odd_backslashes(&before[..before.len() - open.len()])
        {
            // `**a****b**` → `**ab**`: join with the same wrapper just closed.
            self.s.replace_range(m.start - open.len()..m.start, "");
            m.start - open.len()
        } else {
            self.s.insert_str(m.start + lead, open);
            m.start + lead
        };
        close(&mut self.s);
        self.s.push_str(&tail);
        self.bol = trail > 0;
        self.quiet = false;
        Some(opened_at)
    }

    /// The byte before the opening position of `m` (for choosing markers).
    pub fn byte_before(&self, m: &Mark) -> Option<u8> {
        let content = &self.s[m.start..];
        let lead = junk_prefix(content);
        if lead > 0 {
            content.as_bytes().get(lead - 1).copied()
        } else {
            self.s.as_bytes()[..m.start].last().copied()
        }
    }

    /// Removes trailing spaces and breaks down to `floor`.
    pub fn trim_end(&mut self, floor: usize) {
        let cut = junk_suffix(&self.s[floor..]);
        self.s.truncate(self.s.len() - cut);
        self.space = false;
    }

    /// The text written so far with trailing spaces and breaks removed.
    pub fn finish(mut self) -> String {
        self.trim_end(0);
        self.s
    }
}

/// The length of the run at the start of `rest` (just after a written word)
/// that [`Inline::text`] would write unchanged: single spaces each followed
/// by a word with nothing to escape or drop, ending after a whole word. After
/// a written word (no pending space, not at a line start, no emphasis to
/// fix) each such space and word is copied as is, so the run is copied in
/// one piece; found with a wide scan ([`crate::text_scan`]).
#[inline(always)]
fn plain_run(rest: &[u8]) -> usize {
    let stop = crate::text_scan::stop(rest);
    let mut end = stop;
    if stop < rest.len() && CLASS[rest[stop] as usize] & WS == 0 {
        // A byte to escape or drop: the word holding it is not plain.
        end = rest[..stop].iter().rposition(|&c| c == b' ').unwrap_or(0);
    }
    if end > 0 && rest[end - 1] == b' ' {
        // A trailing space stays pending.
        end -= 1;
    }
    end
}

/// Whether `[` and `]` are escaped in one text: inside link text, or where
/// the text spells a link (`](`), decided at the first bracket.
struct Brackets<'t> {
    text: &'t [u8],
    escape: Option<bool>,
}

impl Brackets<'_> {
    fn escape(&mut self) -> bool {
        *self
            .escape
            .get_or_insert_with(|| crate::scan::find2(self.text, *b"](").is_some())
    }
}

/// Byte classes for the text loops.
const WS: u8 = 1;
/// Characters that may need a backslash.
const SPECIAL: u8 = 2;
/// Lead bytes of the multi-byte spaces and invisible characters.
const LEAD: u8 = 4;

static CLASS: [u8; 256] = {
    let t = crate::scan::mark([0u8; 256], crate::scan::HTML_WS, WS);
    let t = crate::scan::mark(t, b"\\*_`[]<&~", SPECIAL);
    crate::scan::mark(t, &[0xC2, 0xE2, 0xEF], LEAD)
};

/// The class of the byte at `i` inside a word: LEAD only where an
/// invisible character (which `word` drops) starts.
#[inline(always)]
fn word_class(b: &[u8], i: usize) -> u8 {
    let class = CLASS[b[i] as usize];
    if class & LEAD != 0 && invisible_len(b, i) == 0 {
        class & !LEAD
    } else {
        class
    }
}

fn is_space(c: u8) -> bool {
    c.is_ascii_whitespace()
}

/// Not whitespace and not ASCII punctuation (non-ASCII bytes count as letters).
fn is_wordish(c: u8) -> bool {
    !c.is_ascii_whitespace() && !c.is_ascii_punctuation()
}

/// Whether `&` followed by `rest` would read as a character reference.
fn looks_like_entity(rest: &[u8]) -> bool {
    let body = match rest.first() {
        Some(b'#') => &rest[1..],
        Some(c) if c.is_ascii_alphabetic() => rest,
        _ => return false,
    };
    let n = body
        .iter()
        .take(32)
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    n > 0 && body.get(n) == Some(&b';')
}

/// Leading spaces and breaks of `s`, in bytes.
fn junk_prefix(s: &str) -> usize {
    let mut i = 0;
    loop {
        let rest = &s[i..];
        let n = if rest.starts_with("  \n") {
            3
        } else if rest.starts_with("\\\n") {
            2
        } else if rest.starts_with("<br>") {
            4
        } else if rest.starts_with(' ') || rest.starts_with('\n') {
            1
        } else {
            return i;
        };
        i += n;
    }
}

/// Trailing spaces and breaks of `s`, in bytes.
fn junk_suffix(s: &str) -> usize {
    let b = s.as_bytes();
    let mut end = b.len();
    loop {
        let n = match b[..end].last() {
            Some(b' ') => 1,
            Some(b'\n') if end >= 2 && b[end - 2] == b'\\' && odd_backslashes(&b[..end - 1]) => 2,
            Some(b'\n') => 1,
            Some(b'>') if b[..end].ends_with(b"<br>") && !odd_backslashes(&b[..end - 4]) => 4,
            _ => return b.len() - end,
        };
        end -= n;
    }
}

/// Whether `b` ends with an odd number of backslashes (so the next character is escaped).
fn odd_backslashes(b: &[u8]) -> bool {
    b.iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 1
}
