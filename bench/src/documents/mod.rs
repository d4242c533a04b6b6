//! Benchmark 4: document conversion through the running server (`POST
//! /v2/parse`, the WASM converters) on the committed fixtures in
//! `tests/fixtures/documents/`:
//!
//! - PDF pages per second against poppler's `pdftotext` on the same files, in
//!   the same run (wall time at concurrency 1, and CPU time of the server
//!   process against that of the `pdftotext` children);
//! - documents per second for docx, xlsx and pptx;
//! - a comparison with markitdown (PyPI, run by `bench/documents_markitdown.py`
//!   in `target/tools/markitdown`): for every extension of the spec, whether it
//!   converts and how many of the fixture's key strings come out ([`fixtures`]).

mod fixtures;
mod markitdown;
mod timing;

use crate::report::Table;
use crate::scrape::server::Server;
use crate::stats::f;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub struct Config {
    pub server_bin: PathBuf,
    pub plugins_dir: PathBuf,
    pub data_dir: PathBuf,
    pub fixtures_dir: PathBuf,
    /// The markitdown venv's python, when installed.
    pub markitdown_python: Option<PathBuf>,
    /// Conversions per file (each timing loop also stops at `budget`).
    pub rounds: usize,
    pub budget: Duration,
}

/// PDF pages per second: Distill and pdftotext on one file.
pub struct PdfRow {
    pub file: String,
    pub pages: u64,
    pub distill: timing::Rate,
    pub pdftotext: Option<timing::Rate>,
}

/// Documents per second for one office file.
pub struct DocRow {
    pub file: String,
    pub distill: timing::Rate,
    pub markitdown_seconds: Option<f64>,
}

/// One extension of the spec: what each tool made of its fixture.
pub struct CompareRow {
    pub extension: &'static str,
    pub file: &'static str,
    pub keys: usize,
    pub distill: fixtures::Outcome,
    pub markitdown: Option<fixtures::Outcome>,
}

pub struct Results {
    pub pdf: Vec<PdfRow>,
    pub docs: Vec<DocRow>,
    pub compare: Vec<CompareRow>,
    pub markitdown_note: String,
}

pub async fn run(cfg: &Config) -> anyhow::Result<Results> {
    let server = Server::spawn(
        &cfg.server_bin,
        &cfg.plugins_dir,
        &cfg.data_dir,
        Duration::from_secs(300),
    )?;
    let client = reqwest::Client::new();
    let fixture = |name: &str| -> anyhow::Result<Vec<u8>> {
        std::fs::read(cfg.fixtures_dir.join(name)).map_err(|e| anyhow::anyhow!("fixture {name}: {e}"))
    };

    let markitdown = match &cfg.markitdown_python {
        Some(python) => markitdown::run(python, &cfg.fixtures_dir, fixtures::EVERY_EXTENSION)?,
        None => markitdown::Outputs::missing(
            "markitdown is not installed (make bench installs it into target/tools/markitdown)",
        ),
    };

    let mut pdf = Vec::new();
    for file in ["report.pdf", "long-16p.pdf"] {
        let bytes = fixture(file)?;
        let first = timing::parse(&client, &server.base_url, file, &bytes).await?;
        let pages = first["metadata"]["numPages"].as_u64().unwrap_or(0);
        eprintln!("  {file}: {pages} pages");
        let distill = timing::server_rate(&client, &server, file, &bytes, cfg.rounds, cfg.budget).await?;
        let pdftotext = timing::pdftotext_rate(&cfg.fixtures_dir.join(file), cfg.rounds, cfg.budget);
        pdf.push(PdfRow {
            file: file.into(),
            pages,
            distill,
            pdftotext,
        });
    }

    let mut docs = Vec::new();
    for file in ["word-features.docx", "docx-lo.docx", "workbook.xlsx", "deck.pptx"] {
        let bytes = fixture(file)?;
        timing::parse(&client, &server.base_url, file, &bytes).await?;
        let distill = timing::server_rate(&client, &server, file, &bytes, cfg.rounds, cfg.budget).await?;
        docs.push(DocRow {
            file: file.into(),
            distill,
            markitdown_seconds: markitdown.seconds(file),
        });
    }

    let mut compare = Vec::new();
    for fx in fixtures::EVERY_EXTENSION {
        let bytes = fixture(fx.file)?;
        let name = format!("upload.{}", fx.extension);
        let distill = match timing::parse(&client, &server.base_url, &name, &bytes).await {
            Ok(data) => fixtures::score(fx, Ok(data["markdown"].as_str().unwrap_or(""))),
            Err(e) => fixtures::score(fx, Err(&e.to_string())),
        };
        compare.push(CompareRow {
            extension: fx.extension,
            file: fx.file,
            keys: fx.keys.len(),
            distill,
            markitdown: markitdown.outcome(fx),
        });
    }
    Ok(Results {
        pdf,
        docs,
        compare,
        markitdown_note: markitdown.note,
    })
}

impl Results {
    /// Rows for the report's summary table: PDF speed against pdftotext and
    /// formats handled against markitdown (no targets set by an issue).
    pub fn summary_rows(&self) -> Vec<[String; 3]> {
        let mut rows = Vec::new();
        let (mut d_pages, mut d_wall, mut p_pages, mut p_wall) = (0.0, 0.0, 0.0, 0.0);
        for row in &self.pdf {
            if let Some(p) = &row.pdftotext {
                d_pages += (row.pages * row.distill.count as u64) as f64;
                d_wall += row.distill.wall.as_secs_f64();
                p_pages += (row.pages * p.count as u64) as f64;
                p_wall += p.wall.as_secs_f64();
            }
        }
        if d_wall > 0.0 && p_wall > 0.0 {
            let (d, p) = (d_pages / d_wall, p_pages / p_wall);
            rows.push([
                "PDF pages per second beside pdftotext (no target)".to_string(),
                format!(
                    "{} vs {} pages/s: {}× (Distill adds headings, tables, OCR routing)",
                    f(d, 0),
                    f(p, 0),
                    f(d / p, 2)
                ),
                "–".to_string(),
            ]);
        }
        let handled = |m: &dyn Fn(&CompareRow) -> bool| self.compare.iter().filter(|c| m(c)).count();
        let d = handled(&|c| c.distill.handled());
        let m = handled(&|c| c.markitdown.as_ref().is_some_and(|o| o.handled()));
        let ran = self.compare.iter().any(|c| c.markitdown.is_some());
        rows.push([
            format!(
                "document formats of the spec handled ({} extensions; markitdown beside)",
                self.compare.len()
            ),
            if ran {
                format!("Distill {d}, markitdown {m}")
            } else {
                format!("Distill {d}; markitdown not run")
            },
            "–".to_string(),
        ]);
        rows
    }
}

fn rate_cells(r: &timing::Rate, per: f64) -> (String, String) {
    (
        f(per / r.wall.as_secs_f64(), 1),
        r.cpu
            .map(|c| f(per / c.as_secs_f64(), 1))
            .unwrap_or_else(|| "–".into()),
    )
}

pub fn to_markdown(r: &Results, fixtures_dir: &Path) -> String {
    let mut out = format!(
        "Fixtures: `{}`. Distill is measured over HTTP (`POST /v2/parse`, multipart, one request at a time, \
         the converters in WASM); CPU = CPU time of the server process. pdftotext (poppler) runs as a \
         process per file, as a user would call it; its CPU is that of the child processes.\n\n",
        fixtures_dir.display()
    );
    out.push_str("### PDF pages per second\n\n");
    let mut t = Table::new(&[
        "file",
        "pages",
        "Distill pages/s (wall)",
        "pdftotext pages/s (wall)",
        "ratio (wall)",
        "Distill pages/CPU-s",
        "pdftotext pages/CPU-s",
        "ratio (CPU)",
    ]);
    for row in &r.pdf {
        let total = (row.pages * row.distill.count as u64) as f64;
        let (dw, dc) = rate_cells(&row.distill, total);
        let (pw, pc, ratio_w, ratio_c) = match &row.pdftotext {
            Some(p) => {
                let ptotal = (row.pages * p.count as u64) as f64;
                let (pw, pc) = rate_cells(p, ptotal);
                let rw = (total / row.distill.wall.as_secs_f64()) / (ptotal / p.wall.as_secs_f64());
                let rc = match (row.distill.cpu, p.cpu) {
                    (Some(dc), Some(pcpu)) => {
                        f((total / dc.as_secs_f64()) / (ptotal / pcpu.as_secs_f64()), 2) + "x"
                    }
                    _ => "–".into(),
                };
                (pw, pc, f(rw, 2) + "x", rc)
            }
            None => ("not installed".into(), "–".into(), "–".into(), "–".into()),
        };
        t.row([
            row.file.clone(),
            row.pages.to_string(),
            dw,
            pw,
            ratio_w,
            dc,
            pc,
            ratio_c,
        ]);
    }
    out.push_str(&t.to_markdown());
    out.push_str("\n### Documents per second\n\n");
    let mut t = Table::new(&[
        "file",
        "Distill docs/s (wall)",
        "Distill docs/CPU-s",
        "markitdown docs/s (in-process, warm)",
    ]);
    for row in &r.docs {
        let (w, c) = rate_cells(&row.distill, row.distill.count as f64);
        let m = row
            .markitdown_seconds
            .map(|s| f(1.0 / s.max(1e-9), 1))
            .unwrap_or_else(|| "–".into());
        t.row([row.file.clone(), w, c, m]);
    }
    out.push_str(&t.to_markdown());
    out.push_str(&format!(
        "\n### Against markitdown: formats handled, key strings found\n\n{}\n\n\
         A format counts as handled when the conversion succeeds, is not the raw file passed through, and \
         at least half of the fixture's key strings (text that must survive: headings, cells, notes, \
         footers) appear in the output (whitespace and `*`/`_`/`\\` ignored).\n\n",
        r.markitdown_note
    ));
    let mut t = Table::new(&[
        "extension",
        "fixture",
        "Distill keys found",
        "markitdown keys found",
    ]);
    let (mut dh, mut mh) = (0, 0);
    for row in &r.compare {
        dh += row.distill.handled() as usize;
        mh += row.markitdown.as_ref().is_some_and(|m| m.handled()) as usize;
        t.row([
            format!(".{}", row.extension),
            format!("`{}`", row.file),
            row.distill.cell(row.keys),
            row.markitdown
                .as_ref()
                .map(|m| m.cell(row.keys))
                .unwrap_or_else(|| "–".into()),
        ]);
    }
    let total_keys: usize = r.compare.iter().map(|c| c.keys).sum();
    let dk: usize = r.compare.iter().map(|c| c.distill.found).sum();
    let mk: usize = r
        .compare
        .iter()
        .filter_map(|c| c.markitdown.as_ref())
        .map(|m| m.found)
        .sum();
    t.row([
        "**all**".to_string(),
        format!("{} formats", r.compare.len()),
        format!("**{dh} handled**, {dk}/{total_keys} keys"),
        format!("**{mh} handled**, {mk}/{total_keys} keys"),
    ]);
    out.push_str(&t.to_markdown());
    out
}
