//! The fixture for each extension of the spec and its key strings: text that a
//! good conversion must keep (headings, table cells, list items, notes, page
//! headers and footers), compared without markdown markup.

pub struct Fixture {
    pub extension: &'static str,
    pub file: &'static str,
    pub keys: &'static [&'static str],
}

const REPORT: &[&str] = &[
    "Quarterly Report",
    "third quarter",
    "the example site",
    "Revenue grew by twelve percent",
    "Sales by Region",
    "Apples",
    "Oranges",
    "Outlook",
    "Hire two engineers",
    "Appendix",
];
const WORD: &[&str] = &[
    "HEADER-MARKER running header",
    "Main Heading One",
    "bold text",
    "Rust website",
    "Bullet nested",
    "Number two",
    "Data Table",
    "Berlin & Co",
    "BODY-END",
    "FOOTER-MARKER running footer",
];
const WORKBOOK: &[&str] = &[
    "Sales",
    "Region",
    "North",
    "2024-01-15",
    "987.5",
    "People",
    "Alice",
    "Big",
    "1440000",
];
const DECK: &[&str] = &[
    "Welcome Slide",
    "Subtitle text here",
    "Speaker notes for slide one",
    "Agenda",
    "Nested point",
    "Numbers Table",
    "Revenue",
    "Notes on the table slide",
    "Slide without a title",
];

pub const EVERY_EXTENSION: &[Fixture] = &[
    Fixture {
        extension: "html",
        file: "report-source.html",
        keys: REPORT,
    },
    Fixture {
        extension: "htm",
        file: "report-source.html",
        keys: REPORT,
    },
    Fixture {
        extension: "xhtml",
        file: "report-source.html",
        keys: REPORT,
    },
    Fixture {
        extension: "pdf",
        file: "report.pdf",
        keys: REPORT,
    },
    Fixture {
        extension: "docx",
        file: "word-features.docx",
        keys: WORD,
    },
    Fixture {
        extension: "doc",
        file: "report.doc",
        keys: REPORT,
    },
    Fixture {
        extension: "docm",
        file: "macros.docm",
        keys: WORD,
    },
    Fixture {
        extension: "odt",
        file: "writer.odt",
        keys: &[
            "Confidential Header Text",
            "Quarterly Report",
            "bold words",
            "link to example",
            "Sub step A",
            "Nested bullet",
            "South",
            "first footnote",
            "an endnote",
            "Page Footer Text",
        ],
    },
    Fixture {
        extension: "ods",
        file: "workbook.ods",
        keys: WORKBOOK,
    },
    Fixture {
        extension: "odp",
        file: "deck.odp",
        keys: DECK,
    },
    Fixture {
        extension: "rtf",
        file: "sample.rtf",
        keys: REPORT,
    },
    Fixture {
        extension: "xlsx",
        file: "workbook.xlsx",
        keys: WORKBOOK,
    },
    Fixture {
        extension: "xls",
        file: "workbook.xls",
        keys: WORKBOOK,
    },
    Fixture {
        extension: "xlsm",
        file: "macros.xlsm",
        keys: WORKBOOK,
    },
    Fixture {
        extension: "xlsb",
        file: "workbook.xlsb",
        keys: &["Inventory", "Item", "Bolts", "120", "Washers", "Staff", "Alice"],
    },
    Fixture {
        extension: "pptx",
        file: "deck.pptx",
        keys: DECK,
    },
    Fixture {
        extension: "ppt",
        file: "deck.ppt",
        keys: &[
            "Product Launch Plan",
            "Spring campaign overview",
            "welcome everyone",
            "Key Goals",
            "Ship the mobile app",
            "Timeline and Budget",
            "40,000 EUR",
        ],
    },
    Fixture {
        extension: "pptm",
        file: "macros.pptm",
        keys: DECK,
    },
    Fixture {
        extension: "epub",
        file: "book.epub",
        keys: &[
            "Chapter Beta",
            "Beta comes first",
            "Chapter Alpha",
            "Alpha text",
            "an outside link",
        ],
    },
    Fixture {
        extension: "csv",
        file: "sample.csv",
        keys: &["Product", "Widget", "Gadget, deluxe", "Says", "Line one"],
    },
];

/// What one tool made of one fixture.
pub struct Outcome {
    pub ok: bool,
    /// The output is the input passed through (e.g. raw RTF), not a conversion.
    pub raw: bool,
    pub found: usize,
    /// The fixture's number of key strings.
    pub found_of: usize,
    pub error: Option<String>,
}

impl Outcome {
    pub fn handled(&self) -> bool {
        self.ok && !self.raw && self.found * 2 >= self.found_of
    }

    pub fn cell(&self, keys: usize) -> String {
        match (&self.error, self.ok) {
            (Some(e), _) => format!("fails: {}", short(e)),
            (None, false) => "empty output".into(),
            (None, true) if self.raw => format!("{}/{keys} (raw file passed through)", self.found),
            (None, true) => format!("{}/{keys}", self.found),
        }
    }
}

/// Scores a conversion (`Ok(markdown)` or `Err(message)`) against the fixture's keys.
pub fn score(fx: &Fixture, output: Result<&str, &str>) -> Outcome {
    match output {
        Err(e) => Outcome {
            ok: false,
            raw: false,
            found: 0,
            found_of: fx.keys.len(),
            error: Some(e.to_string()),
        },
        Ok(markdown) => {
            let text = normalize(markdown);
            let found = fx.keys.iter().filter(|k| text.contains(&normalize(k))).count();
            let head = markdown.trim_start();
            let raw =
                head.starts_with("{\\rtf") || head.starts_with("PK\u{3}\u{4}") || head.starts_with("%PDF");
            Outcome {
                ok: !markdown.trim().is_empty(),
                raw,
                found,
                found_of: fx.keys.len(),
                error: None,
            }
        }
    }
}

/// Whitespace runs become one space; markdown emphasis and escapes are dropped.
fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if matches!(c, '*' | '_' | '\\') {
            continue;
        }
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push(c);
    }
    out
}

fn short(e: &str) -> String {
    let first = e.lines().next().unwrap_or("").replace('|', "/");
    if first.chars().count() > 70 {
        format!("{}…", first.chars().take(70).collect::<String>())
    } else {
        first
    }
}
