//! Benchmark 4, `main_content_vs_trafilatura`: what it costs to turn a page into the
//! markdown of its main content, in pages per CPU-second, Distill against trafilatura on
//! the same pages in the same run (issue 3, item 4).
//!
//! Distill: parse → clean with `onlyMainContent` (whole-page fallback when empty, as the
//! server does) → serialize → markdown, timed in this thread's CPU time, markdown by the
//! plugin's code compiled natively; one more pass runs the markdown step in the wasm plugin
//! as the server does. Trafilatura: `trafilatura.extract` with its defaults (what
//! `make quality` scores), timed with `time.process_time()` around each call in one Python
//! process (`bench/trafilatura_cpu.py`, run with the venv `quality/quality.py` installs).
//! Both get the page as Distill decoded it; imports and file reading are outside the clock.

use crate::corpus::Corpus;
use crate::markdown::native_markdown;
use crate::plugins::{Plugins, page_with_cleaned};
use crate::procfs::thread_cpu;
use crate::report::Table;
use crate::stats::{f, mb, verdict};
use distill_html::{CleanOptions, ParsedPage};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The speed ratio over trafilatura the issue aims for.
pub const TARGET_RATIO: f64 = 5.0;

pub struct Config {
    /// Passes over the pages for Distill (trafilatura, ~100× slower, gets one).
    pub rounds: usize,
    pub budget: Duration,
    /// The venv with trafilatura (installed there when missing), and the repository root.
    pub venv: PathBuf,
    pub root: PathBuf,
    pub work_dir: PathBuf,
}

/// CPU per pass over the pages, split by step.
#[derive(Default, Clone, Copy)]
pub struct Steps {
    pub parse: Duration,
    pub clean: Duration,
    pub markdown: Duration,
}

impl Steps {
    pub fn total(&self) -> Duration {
        self.parse + self.clean + self.markdown
    }
}

pub struct Trafilatura {
    pub version: String,
    pub pages: usize,
    pub cpu: Duration,
    pub errors: usize,
}

pub struct Results {
    pub pages: usize,
    pub bytes: usize,
    pub rounds: usize,
    /// Mean CPU per pass over all pages.
    pub distill: Steps,
    /// The markdown step in the wasm plugin (one pass), instead of native.
    pub wasm_markdown: Option<Duration>,
    pub fallbacks: usize,
    /// `Err` says why trafilatura was not measured.
    pub trafilatura: Result<Trafilatura, String>,
}

impl Results {
    /// Pages per CPU-second of Distill (native markdown, or the wasm plugin's).
    pub fn distill_pps(&self, wasm: bool) -> f64 {
        let mut cpu = self.distill.total();
        if let (true, Some(w)) = (wasm, self.wasm_markdown) {
            cpu = cpu - self.distill.markdown + w;
        }
        self.pages as f64 / cpu.as_secs_f64().max(1e-12)
    }

    pub fn trafilatura_pps(&self) -> Option<f64> {
        let t = self.trafilatura.as_ref().ok()?;
        Some(t.pages as f64 / t.cpu.as_secs_f64().max(1e-12))
    }

    /// Distill's pages per CPU-second over trafilatura's (native markdown, or wasm).
    pub fn ratio(&self, wasm: bool) -> Option<f64> {
        Some(self.distill_pps(wasm) / self.trafilatura_pps()?)
    }
}

pub async fn run(plugins: &Plugins, corpus: &Corpus, cfg: &Config) -> anyhow::Result<Results> {
    let end = Instant::now() + cfg.budget;
    let pages = &corpus.pages;
    let opts = |main| CleanOptions {
        only_main_content: main,
        include_tags: &[],
        exclude_tags: &[],
    };
    let mut total = Steps::default();
    let mut rounds = 0;
    let mut fallbacks = 0;
    let mut cleaned_pages = Vec::with_capacity(pages.len());
    for round in 0..cfg.rounds.max(1) {
        if round > 0 && Instant::now() >= end {
            eprintln!("  time budget reached after {round} rounds");
            break;
        }
        for p in pages {
            let c0 = thread_cpu();
            let page = ParsedPage::parse(black_box(&p.raw), &p.url);
            let c1 = thread_cpu();
            let mut cleaned = page.clean(&opts(true)).ok();
            if cleaned.as_ref().is_some_and(|c| !c.has_content()) {
                cleaned = page.clean(&opts(false)).ok();
                fallbacks += usize::from(round == 0);
            }
            let html = cleaned.map(|c| c.html()).unwrap_or_default();
            let c2 = thread_cpu();
            black_box(native_markdown(&html));
            let c3 = thread_cpu();
            total.parse += c1 - c0;
            total.clean += c2 - c1;
            total.markdown += c3 - c2;
            if round == 0 {
                cleaned_pages.push(html);
            }
        }
        rounds += 1;
        eprintln!("  distill round {} done", round + 1);
    }
    let per_round = |d: Duration| d / rounds as u32;
    let distill = Steps {
        parse: per_round(total.parse),
        clean: per_round(total.clean),
        markdown: per_round(total.markdown),
    };

    // The markdown step as the server runs it: a fresh plugin instance per call.
    let mut wasm = Duration::ZERO;
    let mut wasm_ok = true;
    for (p, html) in pages.iter().zip(&cleaned_pages) {
        let page = page_with_cleaned(p.url.as_str(), html);
        let c = thread_cpu();
        let out = plugins.render(&plugins.markdown, "markdown", &page, "{}").await;
        wasm += thread_cpu().saturating_sub(c);
        wasm_ok &= out.is_ok();
    }
    eprintln!("  wasm markdown pass done");

    let trafilatura = trafilatura(corpus, cfg).map_err(|e| {
        eprintln!("  trafilatura not measured: {e}");
        e.to_string()
    });
    Ok(Results {
        pages: pages.len(),
        bytes: pages.iter().map(|p| p.raw.len()).sum(),
        rounds,
        distill,
        wasm_markdown: wasm_ok.then_some(wasm),
        fallbacks,
        trafilatura,
    })
}

/// Writes the pages as Distill decoded them and runs `bench/trafilatura_cpu.py` on them.
fn trafilatura(corpus: &Corpus, cfg: &Config) -> anyhow::Result<Trafilatura> {
    let python = ensure_trafilatura(&cfg.root, &cfg.venv)?;
    let dir = cfg.work_dir.join("extraction-pages");
    std::fs::create_dir_all(&dir)?;
    let mut list = String::new();
    for p in &corpus.pages {
        let path = dir.join(format!("{}.html", p.id));
        std::fs::write(&path, &p.raw)?;
        list.push_str(&format!("{}\t{}\n", path.display(), p.url));
    }
    let list_path = dir.join("pages.tsv");
    std::fs::write(&list_path, list)?;
    eprintln!("  trafilatura on {} pages", corpus.pages.len());
    let out = std::process::Command::new(&python)
        .arg(cfg.root.join("bench/trafilatura_cpu.py"))
        .arg(&list_path)
        .arg("1")
        .output()?;
    anyhow::ensure!(
        out.status.success(),
        "trafilatura_cpu.py failed: {}",
        String::from_utf8_lossy(&out.stderr).trim()
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    Ok(Trafilatura {
        version: v["version"].as_str().unwrap_or("?").to_string(),
        pages: v["pages"].as_u64().unwrap_or(0) as usize,
        cpu: Duration::from_secs_f64(v["cpu_s"].as_f64().unwrap_or(0.0)),
        errors: v["errors"].as_u64().unwrap_or(0) as usize,
    })
}

/// The venv's Python, after installing trafilatura there the way `make quality` does
/// (`quality/quality.py`'s `ensure_trafilatura`) when it is missing.
fn ensure_trafilatura(root: &Path, venv: &Path) -> anyhow::Result<PathBuf> {
    let python = venv.join("bin/python");
    let ok = |p: &Path| {
        std::process::Command::new(p)
            .args(["-c", "import trafilatura"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if python.exists() && ok(&python) {
        return Ok(python);
    }
    eprintln!("  installing trafilatura into {}", venv.display());
    let status = std::process::Command::new("python3")
        .current_dir(root.join("quality"))
        .args([
            "-c",
            "import sys, quality; quality.ensure_trafilatura(sys.argv[1])",
        ])
        .arg(venv)
        .status()?;
    anyhow::ensure!(
        status.success() && ok(&python),
        "could not install trafilatura into {} (run `make quality` once)",
        venv.display()
    );
    Ok(python)
}

pub fn to_markdown(r: &Results) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1e3 / r.pages.max(1) as f64;
    let mut out = format!(
        "Main-content extraction plus markdown on {} corpus pages ({:.1} MB of HTML, as decoded), \
         in pages per CPU-second of one thread. Distill: parse → clean with `onlyMainContent` \
         (whole-page fallback when empty; {} fallbacks) → serialize → markdown, mean of {} pass{}; \
         trafilatura: `extract()` with its defaults, one pass, same pages, same run.\n\n",
        r.pages,
        mb(r.bytes),
        r.fallbacks,
        r.rounds,
        if r.rounds == 1 { "" } else { "es" }
    );
    let mut t = Table::new(&[
        "extractor",
        "CPU ms per page",
        "pages per CPU-second",
        "vs trafilatura",
    ]);
    let vs = |pps: f64| {
        r.trafilatura_pps()
            .map(|tp| format!("{}×", f(pps / tp, 1)))
            .unwrap_or_else(|| "–".into())
    };
    let native = r.distill_pps(false);
    t.row([
        "Distill, markdown native (the plugin's code)".to_string(),
        format!(
            "{} (parse {}, clean {}, markdown {})",
            f(ms(r.distill.total()), 2),
            f(ms(r.distill.parse), 2),
            f(ms(r.distill.clean), 2),
            f(ms(r.distill.markdown), 2)
        ),
        f(native, 0),
        vs(native),
    ]);
    if let Some(w) = r.wasm_markdown {
        let pps = r.distill_pps(true);
        t.row([
            "Distill, markdown in the wasm plugin (as the server runs it)".to_string(),
            format!(
                "{} (markdown {})",
                f(ms(r.distill.total() - r.distill.markdown + w), 2),
                f(ms(w), 2)
            ),
            f(pps, 0),
            vs(pps),
        ]);
    }
    match &r.trafilatura {
        Ok(tr) => {
            t.row([
                format!("trafilatura {}", tr.version),
                f(tr.cpu.as_secs_f64() * 1e3 / tr.pages.max(1) as f64, 2),
                f(r.trafilatura_pps().unwrap_or(0.0), 1),
                "1×".to_string(),
            ]);
            out.push_str(&t.to_markdown());
            if tr.errors > 0 {
                out.push_str(&format!("\ntrafilatura raised on {} pages.\n", tr.errors));
            }
            if let Some(ratio) = r.ratio(true) {
                out.push_str(&format!(
                    "\nTarget (issue 3): at least {}× trafilatura's pages per CPU-second — {} ({}× \
                     with the wasm markdown plugin, {}× with the same code native).\n",
                    f(TARGET_RATIO, 0),
                    verdict(ratio >= TARGET_RATIO),
                    f(ratio, 1),
                    f(r.ratio(false).unwrap_or(0.0), 1)
                ));
            }
        }
        Err(why) => {
            out.push_str(&t.to_markdown());
            out.push_str(&format!("\ntrafilatura was not measured: {why}\n"));
        }
    }
    out
}
