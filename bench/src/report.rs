//! The markdown report written to `BENCHMARKS.md`: a title, a preamble
//! (machine, date, command) and one section per benchmark. Benchmarks added
//! by later issues call [`Report::section`] with their own markdown.

use std::path::Path;

/// A report under construction.
pub struct Report {
    title: String,
    preamble: String,
    sections: Vec<(String, String)>,
}

impl Report {
    pub fn new(title: &str) -> Report {
        Report {
            title: title.to_string(),
            preamble: String::new(),
            sections: Vec::new(),
        }
    }

    /// Text between the title and the first section.
    pub fn preamble(&mut self, markdown: &str) {
        self.preamble.push_str(markdown);
        if !self.preamble.ends_with('\n') {
            self.preamble.push('\n');
        }
    }

    /// Appends a `##` section.
    pub fn section(&mut self, title: &str, markdown: &str) {
        self.sections.push((title.to_string(), markdown.to_string()));
    }

    /// The whole document.
    pub fn render(&self) -> String {
        let mut out = format!("# {}\n\n", self.title);
        if !self.preamble.is_empty() {
            out.push_str(&self.preamble);
            out.push('\n');
        }
        for (title, body) in &self.sections {
            out.push_str(&format!("## {title}\n\n"));
            out.push_str(body.trim_end());
            out.push_str("\n\n");
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
        out
    }

    /// Writes the document atomically (temp file, then rename).
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let tmp = path.with_extension("md.tmp");
        std::fs::write(&tmp, self.render())?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    }
}

/// A markdown table built row by row.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(header: &[&str]) -> Table {
        Table {
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    pub fn to_markdown(&self) -> String {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        let mut out = line(&self.header);
        out.push_str(&format!("|{}\n", "---|".repeat(self.header.len())));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }
}
