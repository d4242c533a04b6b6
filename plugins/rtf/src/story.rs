//! A story: one flow of paragraphs and tables (the body, a page header or
//! footer, a footnote). Text is gathered into the open paragraph as formatted
//! spans; `\par`, `\cell` and `\row` turn paragraphs into blocks.

/// Character formatting kept in the output.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct Fmt {
    pub bold: bool,
    pub italic: bool,
    pub underline: bool,
}

/// The paragraph properties in force when a paragraph ends.
#[derive(Clone, Copy, Default, Debug)]
pub struct ParaProps {
    pub in_table: bool,
    pub heading: Option<u8>,
    pub list: Option<i32>,
}

/// The paragraph being read.
#[derive(Default)]
pub struct Para {
    /// (formatting, link target, text)
    pub spans: Vec<(Fmt, Option<String>, String)>,
    /// Set by `\pntext` / `\listtext`: the paragraph is a list item.
    pub list_marker: bool,
    /// The marker's own text ("1.", "•"), to tell ordered lists.
    pub marker_text: String,
}

impl Para {
    pub fn push(&mut self, fmt: Fmt, link: Option<&String>, s: &str) {
        if let Some(last) = self.spans.last_mut()
            && last.0 == fmt
            && last.1.as_ref() == link
        {
            last.2.push_str(s);
            return;
        }
        self.spans.push((fmt, link.cloned(), s.to_string()));
    }

    pub fn is_blank(&self) -> bool {
        self.spans.iter().all(|s| s.2.trim().is_empty())
    }

    /// The inline HTML of the paragraph.
    pub fn html(&self) -> String {
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

/// A finished block of a story.
pub enum Block {
    P {
        html: String,
        heading: Option<u8>,
        /// (list id, ordered)
        list: Option<(i32, bool)>,
    },
    /// Rows of cells' inline HTML; the first row is the header.
    Table(Vec<Vec<String>>),
}

/// Most table rows kept per table.
const MAX_ROWS: usize = 10_000;

#[derive(Default)]
pub struct Story {
    pub para: Para,
    pub blocks: Vec<Block>,
    row: Vec<String>,
    cell: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Story {
    /// Ends the open paragraph with the properties in force.
    pub fn end_para(&mut self, props: ParaProps) {
        let para = std::mem::take(&mut self.para);
        if props.in_table {
            if !para.is_blank() {
                self.cell.push(para.html());
            }
            return;
        }
        self.flush_table();
        if para.is_blank() {
            return;
        }
        let list = if props.heading.is_none() && (props.list.is_some() || para.list_marker) {
            let m = para.marker_text.trim();
            let ordered = m.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
                && (m.ends_with('.') || m.ends_with(')'));
            Some((props.list.unwrap_or(0), ordered))
        } else {
            None
        };
        self.blocks.push(Block::P {
            html: para.html(),
            heading: props.heading,
            list,
        });
    }

    /// `\cell`: the paragraphs read since the last cell make one cell.
    pub fn end_cell(&mut self, props: ParaProps) {
        self.end_para(ParaProps {
            in_table: true,
            ..props
        });
        let cell = std::mem::take(&mut self.cell);
        self.row.push(cell.join("<br>"));
    }

    /// `\row`: the cells read since the last row make one row.
    pub fn end_row(&mut self, props: ParaProps) {
        self.end_para(props);
        if !self.cell.is_empty() {
            let cell = std::mem::take(&mut self.cell);
            self.row.push(cell.join("<br>"));
        }
        let row = std::mem::take(&mut self.row);
        if !row.is_empty() && self.rows.len() < MAX_ROWS {
            self.rows.push(row);
        }
    }

    /// Closes a table in progress (a paragraph outside the table, or the end).
    pub fn flush_table(&mut self) {
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

/// Escapes text for HTML content and attribute values (the SDK's one copy).
pub use distill_sdk::documents::html::esc;
