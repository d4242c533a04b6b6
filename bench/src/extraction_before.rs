//! Benchmark 4b, `main_content_before_after`: what main content costs now against an
//! earlier build, in one run (issue 15, item 4: the precision work must not make main
//! content slower).
//!
//! Both sides are the `corpus` example of `distill-html` (`html/examples/corpus.rs`):
//! this tree's (`target/release/examples/corpus`) and one built from an earlier commit
//! (`make bench` builds it from `EXTRACTION_BEFORE` into `target/before-extraction`).
//! Each run parses every page of a corpus, cleans it with `onlyMainContent` and prints
//! its mean time per page for the parse and the main-content clean; the two builds run
//! the same gunzipped pages in interleaved rounds (which goes first alternates), and the
//! table gives the median of the rounds, plus the process's CPU time per page (every
//! step of the example, markdown and file writes included) from `getrusage`.

use crate::report::Table;
use crate::stats::{f, median};
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Config {
    /// The `corpus` example of the earlier build.
    pub before_bin: PathBuf,
    /// The commit it was built from, for the report.
    pub before_label: String,
    /// The `corpus` example of this tree.
    pub after_bin: PathBuf,
    /// Corpus directories (`html/<id>.html.gz`, `manifest.jsonl`).
    pub corpora: Vec<PathBuf>,
    pub work_dir: PathBuf,
    pub rounds: usize,
}

/// One run's figures, microseconds per page.
#[derive(Clone, Copy, Default)]
struct Run {
    parse: f64,
    main_content: f64,
    process_cpu: f64,
}

pub struct CorpusResult {
    pub name: String,
    pub pages: usize,
    before: Vec<Run>,
    after: Vec<Run>,
}

pub struct Results {
    pub before_label: String,
    pub rounds: usize,
    pub corpora: Vec<Result<CorpusResult, String>>,
}

pub fn run(cfg: &Config) -> Results {
    let corpora = cfg.corpora.iter().map(|dir| measure_corpus(cfg, dir)).collect();
    Results {
        before_label: cfg.before_label.clone(),
        rounds: cfg.rounds,
        corpora,
    }
}

fn measure_corpus(cfg: &Config, dir: &Path) -> Result<CorpusResult, String> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let pages_dir = cfg.work_dir.join("pages").join(&name);
    let pages = gunzip_pages(dir, &pages_dir)?;
    let manifest = absolute_manifest(dir, &cfg.work_dir.join("manifests").join(&name))?;
    let mut before = Vec::new();
    let mut after = Vec::new();
    for round in 0..cfg.rounds.max(1) {
        let order: [(&Path, bool); 2] = if round % 2 == 0 {
            [(&cfg.before_bin, true), (&cfg.after_bin, false)]
        } else {
            [(&cfg.after_bin, false), (&cfg.before_bin, true)]
        };
        for (bin, is_before) in order {
            let out = cfg
                .work_dir
                .join("out")
                .join(if is_before { "before" } else { "after" })
                .join(&name);
            let run = run_once(bin, &pages_dir, &manifest, &out, pages)?;
            if is_before { &mut before } else { &mut after }.push(run);
        }
    }
    Ok(CorpusResult {
        name,
        pages,
        before,
        after,
    })
}

/// Writes `<id>.html` for every `html/<id>.html.gz` of the corpus (once per work dir).
fn gunzip_pages(corpus: &Path, dest: &Path) -> Result<usize, String> {
    use std::io::Read;
    std::fs::create_dir_all(dest).map_err(|e| e.to_string())?;
    let entries = std::fs::read_dir(corpus.join("html")).map_err(|e| e.to_string())?;
    let mut n = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(file) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(id) = file.strip_suffix(".html.gz") else {
            continue;
        };
        n += 1;
        let target = dest.join(format!("{id}.html"));
        if target.is_file() {
            continue;
        }
        let gz = std::fs::read(&path).map_err(|e| e.to_string())?;
        let mut html = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut html)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        std::fs::write(&target, html).map_err(|e| e.to_string())?;
    }
    Ok(n)
}

/// The corpus's manifest with an absolute URL on every line (a local one where
/// the page has none or an unparsable one): earlier builds of the example
/// require one.
fn absolute_manifest(corpus: &Path, dest: &Path) -> Result<PathBuf, String> {
    let text = std::fs::read_to_string(corpus.join("manifest.jsonl")).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let id = v["id"].as_str().unwrap_or_default().to_string();
        let usable = v["url"].as_str().is_some_and(|u| url::Url::parse(u).is_ok());
        if !usable {
            v["url"] = format!("http://127.0.0.1/{id}.html").into();
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    std::fs::create_dir_all(dest).map_err(|e| e.to_string())?;
    let path = dest.join("manifest.jsonl");
    std::fs::write(&path, out).map_err(|e| e.to_string())?;
    Ok(path)
}

fn children_cpu_secs() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

fn run_once(bin: &Path, pages: &Path, manifest: &Path, out: &Path, n_pages: usize) -> Result<Run, String> {
    let cpu_before = children_cpu_secs();
    let output = Command::new(bin)
        .arg(pages)
        .arg(manifest)
        .arg(out)
        .output()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    let cpu = children_cpu_secs() - cpu_before;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("{} failed: {}", bin.display(), stderr.trim()));
    }
    let figure = |label: &str| -> Result<f64, String> {
        let after = stderr
            .split(label)
            .nth(1)
            .ok_or_else(|| format!("no '{label}' in {}'s output", bin.display()))?;
        after
            .split_whitespace()
            .next()
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("unreadable '{label}' in {}'s output", bin.display()))
    };
    Ok(Run {
        parse: figure("parse ")?,
        main_content: figure("clean (main content) ")?,
        process_cpu: cpu * 1e6 / n_pages.max(1) as f64,
    })
}

fn medians(runs: &[Run]) -> Run {
    let of = |pick: fn(&Run) -> f64| median(&runs.iter().map(pick).collect::<Vec<_>>());
    Run {
        parse: of(|r| r.parse),
        main_content: of(|r| r.main_content),
        process_cpu: of(|r| r.process_cpu),
    }
}

pub fn to_markdown(r: &Results) -> String {
    let mut out = format!(
        "The `corpus` example of `distill-html` built from {} (before) and from this tree \
         (after), on the same gunzipped pages, {} interleaved round{} each (which build goes \
         first alternates); medians of the rounds. Parse and main content are the example's own \
         mean times per page (wall clock around each step, one thread); process CPU is the whole \
         run's `getrusage` CPU per page (markdown and file writes included).\n\n",
        r.before_label,
        r.rounds,
        if r.rounds == 1 { "" } else { "s" }
    );
    let mut t = Table::new(&[
        "corpus",
        "build",
        "parse µs/page",
        "main content µs/page",
        "process CPU µs/page",
    ]);
    let mut notes = Vec::new();
    for c in &r.corpora {
        match c {
            Ok(c) => {
                let (b, a) = (medians(&c.before), medians(&c.after));
                let label = format!("{} ({} pages)", c.name, c.pages);
                for (build, m) in [(r.before_label.as_str(), b), ("this tree", a)] {
                    t.row([
                        label.clone(),
                        build.to_string(),
                        f(m.parse, 0),
                        f(m.main_content, 0),
                        f(m.process_cpu, 0),
                    ]);
                }
                notes.push(format!(
                    "- {}: main content after/before {}×, parse {}×, process CPU {}×.",
                    c.name,
                    f(a.main_content / b.main_content.max(1e-9), 2),
                    f(a.parse / b.parse.max(1e-9), 2),
                    f(a.process_cpu / b.process_cpu.max(1e-9), 2)
                ));
            }
            Err(why) => notes.push(format!("- not measured: {why}")),
        }
    }
    out.push_str(&t.to_markdown());
    out.push('\n');
    out.push_str(&notes.join("\n"));
    out.push('\n');
    out
}
