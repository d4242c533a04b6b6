//! The block writer: a sequence of blocks separated by blank lines, with the
//! current paragraph written in place by an [`Inline`]. Empty paragraphs and
//! blocks leave no trace (no stray separators).

use super::inline::{Break, Inline};

/// Blocks being written; `inl.s` is the whole output so far.
pub struct Blocks {
    pub inl: Inline,
    /// Where the separator before the current paragraph starts.
    sep_at: usize,
    /// Inside a list item: a nested list follows its paragraph on the next line.
    pub item: bool,
}

impl Blocks {
    pub fn new() -> Self {
        Blocks {
            inl: Inline::new(Break::Hard),
            sep_at: 0,
            item: false,
        }
    }

    /// A writer for the content of a list item.
    pub fn for_item() -> Self {
        let mut b = Blocks::new();
        b.item = true;
        b.inl.item_start = true;
        b
    }

    /// Ends the current paragraph (trimmed; dropped with its separator when empty).
    fn end_para(&mut self) {
        let floor = self.inl.floor;
        self.inl.trim_end(floor);
        if self.inl.s.len() == floor {
            self.inl.s.truncate(self.sep_at);
        }
    }

    fn begin_para(&mut self) {
        self.sep_at = self.inl.s.len();
        if !self.inl.s.is_empty() {
            self.inl.s.push_str("\n\n");
        }
        self.inl.floor = self.inl.s.len();
        self.inl.reset_line();
    }

    /// Ends the current paragraph and starts another.
    pub fn para_break(&mut self) {
        if self.inl.s.len() == self.inl.floor {
            return;
        }
        self.end_para();
        self.begin_para();
    }

    /// Appends a finished block, separated by `sep` from what precedes it.
    pub fn push_block(&mut self, block: &str, sep: &str) {
        self.end_para();
        if !block.is_empty() {
            if !self.inl.s.is_empty() {
                self.inl.s.push_str(sep);
            }
            self.inl.s.push_str(block);
        }
        self.begin_para();
    }

    /// Starts a block written in place after `prefix` (a heading); returns
    /// where its content starts, for [`Blocks::end_in_place`].
    pub fn begin_in_place(&mut self, prefix: &str) -> (usize, usize) {
        self.end_para();
        let sep_at = self.inl.s.len();
        if !self.inl.s.is_empty() {
            self.inl.s.push_str("\n\n");
        }
        self.inl.s.push_str(prefix);
        let start = self.inl.s.len();
        self.inl.floor = start;
        self.inl.reset_line();
        (sep_at, start)
    }

    /// Ends an in-place block: trimmed, and removed whole when it has no content.
    pub fn end_in_place(&mut self, (sep_at, start): (usize, usize)) {
        self.inl.trim_end(start);
        if self.inl.s.len() == start {
            self.inl.s.truncate(sep_at);
        }
        self.begin_para();
    }

    /// The finished markdown of these blocks.
    pub fn finish(mut self) -> String {
        self.end_para();
        self.inl.s
    }
}

/// Appends `content` to `out`, indenting every line after the first by
/// `indent` spaces (blank lines stay empty).
pub fn indent_into(out: &mut String, content: &str, indent: usize) {
    let mut lines = content.split('\n');
    if let Some(first) = lines.next() {
        out.push_str(first);
    }
    for line in lines {
        out.push('\n');
        if !line.is_empty() {
            out.extend(std::iter::repeat_n(' ', indent));
            out.push_str(line);
        }
    }
}

/// `content` with every line prefixed by `> ` (`>` for blank lines).
pub fn quote(content: &str) -> String {
    let mut out = String::with_capacity(content.len() + content.len() / 16 + 2);
    for (i, line) in content.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push('>');
        if !line.is_empty() {
            out.push(' ');
            out.push_str(line);
        }
    }
    out
}
