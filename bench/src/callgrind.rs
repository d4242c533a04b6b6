//! Benchmark 10, `instructions_per_scrape`: callgrind's instruction count
//! (Ir) per scrape and per pipeline stage, from the `scrape-instructions`
//! harness (the in-process pipeline, the markdown plugin in wasm included) on
//! fixed pages. Instruction counts barely move between runs where wall time
//! does, so a regression shows in review as a changed number. Skipped with a
//! note when valgrind is missing or the harness fails under it.

use crate::report::Table;
use crate::stats::f;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The harness's stage functions, in pipeline order, with their labels.
const STAGES: [(&str, &str); 9] = [
    ("stage_script_check", "script-rendered check (browser fallback)"),
    ("stage_decode", "decode to UTF-8"),
    ("stage_parse", "parse (html5ever)"),
    ("stage_metadata", "metadata"),
    ("stage_clean", "clean, only main content"),
    ("stage_serialise", "serialise cleaned HTML"),
    ("stage_tokens", "cleaned page as tokens (ABI 0.4)"),
    ("stage_markdown_plugin", "markdown plugin (wasm, fresh instance)"),
    ("stage_response_json", "response JSON"),
];

pub struct Config {
    pub harness: PathBuf,
    pub markdown_wasm: PathBuf,
    pub corpus: PathBuf,
    pub work_dir: PathBuf,
    /// (corpus id, label)
    pub pages: Vec<(&'static str, &'static str)>,
    pub iterations: usize,
}

pub struct PageCount {
    /// Why the plugin stage is not in the count, if it is not.
    pub no_plugin: Option<String>,
    pub id: &'static str,
    pub label: &'static str,
    /// Instructions per scrape, per stage (same order as [`STAGES`]).
    pub stages: Vec<Option<f64>>,
    /// Instructions per scrape inside `scrape_once`.
    pub total: f64,
}

pub struct Results {
    pub iterations: usize,
    pub valgrind: String,
    pub pages: Vec<Result<PageCount, String>>,
}

fn url_of(corpus: &Path, id: &str) -> String {
    let manifest = std::fs::read_to_string(corpus.join("manifest.jsonl")).unwrap_or_default();
    manifest
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["id"] == id)
        .and_then(|v| v["url"].as_str().map(str::to_string))
        .filter(|u| url::Url::parse(u).is_ok())
        .unwrap_or_else(|| "https://example.com/page.html".into())
}

pub fn run(cfg: &Config) -> Result<Results, String> {
    let version = Command::new("valgrind")
        .arg("--version")
        .output()
        .map_err(|_| "valgrind is not installed".to_string())?;
    let valgrind = String::from_utf8_lossy(&version.stdout).trim().to_string();
    if !cfg.harness.is_file() {
        return Err(format!("the harness {} is not built", cfg.harness.display()));
    }
    std::fs::create_dir_all(&cfg.work_dir).map_err(|e| e.to_string())?;
    // One run outside valgrind fills the compiled-plugin cache the measured runs load from.
    let (first_id, _) = cfg.pages.first().ok_or("no pages")?;
    let status = Command::new(&cfg.harness)
        .args(harness_args(cfg, first_id, 1))
        .output()
        .map_err(|e| e.to_string())?;
    if !status.status.success() {
        return Err(format!(
            "the harness failed: {}",
            String::from_utf8_lossy(&status.stderr).trim()
        ));
    }
    let pages = cfg
        .pages
        .iter()
        .map(|&(id, label)| count(cfg, id, label))
        .collect();
    Ok(Results {
        iterations: cfg.iterations,
        valgrind,
        pages,
    })
}

fn harness_args(cfg: &Config, id: &str, iterations: usize) -> Vec<String> {
    vec![
        cfg.corpus
            .join("html")
            .join(format!("{id}.html.gz"))
            .to_string_lossy()
            .into_owned(),
        url_of(&cfg.corpus, id),
        cfg.markdown_wasm.to_string_lossy().into_owned(),
        cfg.work_dir.to_string_lossy().into_owned(),
        iterations.to_string(),
    ]
}

fn count(cfg: &Config, id: &'static str, label: &'static str) -> Result<PageCount, String> {
    let out_file = cfg.work_dir.join(format!("callgrind.{id}.out"));
    let run = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .args(["--collect-atstart=no", "--toggle-collect=*scrape_once*"])
        .arg(&cfg.harness)
        .args(harness_args(cfg, id, cfg.iterations))
        .output()
        .map_err(|e| e.to_string())?;
    if !run.status.success() {
        let err = String::from_utf8_lossy(&run.stderr);
        let tail: Vec<&str> = err.lines().rev().take(4).collect();
        return Err(format!(
            "callgrind run failed: {}",
            tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
        ));
    }
    let no_plugin = String::from_utf8_lossy(&run.stderr).lines().find_map(|l| {
        l.strip_prefix("no plugin runtime, host stages only: ")
            .map(str::to_string)
    });
    let annotate = Command::new("callgrind_annotate")
        .args(["--inclusive=yes", "--threshold=100"])
        .arg(&out_file)
        .output()
        .map_err(|e| format!("callgrind_annotate: {e}"))?;
    let text = String::from_utf8_lossy(&annotate.stdout);
    let n = cfg.iterations.max(1) as f64;
    let per_scrape = |name: &str| inclusive(&text, name).map(|ir| ir / n);
    let total = per_scrape("scrape_once").ok_or("no scrape_once in callgrind's output")?;
    Ok(PageCount {
        no_plugin,
        id,
        label,
        stages: STAGES.iter().map(|(name, _)| per_scrape(name)).collect(),
        total,
    })
}

/// The inclusive Ir of the function whose name ends in `::name` (largest if several).
fn inclusive(annotated: &str, name: &str) -> Option<f64> {
    let suffix = format!("::{name}");
    annotated
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let (count, rest) = line.split_once(' ')?;
            let ir: f64 = count.replace(',', "").parse().ok()?;
            let function = rest.split_once(':').map(|(_, f)| f).unwrap_or(rest);
            let function = function.split(" [").next()?.trim();
            let bare = function
                .rsplit_once("::h")
                .filter(|(_, h)| h.len() == 16)
                .map_or(function, |(f, _)| f);
            bare.ends_with(&suffix).then_some(ir)
        })
        .reduce(f64::max)
}

fn mega(ir: f64) -> String {
    f(ir / 1e6, 2)
}

pub fn to_markdown(r: &Results) -> String {
    let mut out = format!(
        "Instructions (callgrind's Ir, {}) per scrape, per stage, from `target/release/scrape-instructions` \
         (`bench/src/bin/`): the server's pipeline calls in one process on a fixed corpus page, the markdown \
         plugin in wasm with a fresh instance per call, {} measured scrapes after one unmeasured (callgrind collects only \
         inside `scrape_once`; stages are its never-inlined `stage_*` functions). HTTP, the fetch and the async \
         runtime are not in it; the server cannot run under valgrind (its pooling allocator reserves more address \
         space than valgrind manages). Millions of instructions per scrape:\n\n",
        r.valgrind, r.iterations
    );
    let mut header = vec!["stage".to_string()];
    for p in r.pages.iter().flatten() {
        header.push(format!("{} (`{}`)", p.label, p.id));
    }
    let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut t = Table::new(&header_refs);
    for (i, (_, label)) in STAGES.iter().enumerate() {
        let mut row = vec![label.to_string()];
        for p in r.pages.iter().flatten() {
            row.push(p.stages[i].map(mega).unwrap_or_else(|| "n/a".into()));
        }
        t.row(row);
    }
    let mut row = vec!["**total per scrape**".to_string()];
    for p in r.pages.iter().flatten() {
        row.push(format!("**{}**", mega(p.total)));
    }
    t.row(row);
    out.push_str(&t.to_markdown());
    if let Some(why) = r.pages.iter().flatten().find_map(|p| p.no_plugin.as_deref()) {
        out.push_str(&format!(
            "\n**The markdown plugin stage is not counted**: its runtime could not be created under valgrind (`{why}`); \
             the totals are the host stages only.\n"
        ));
    }
    for e in r.pages.iter().filter_map(|p| p.as_ref().err()) {
        out.push_str(&format!("\nA page was not measured: {e}\n"));
    }
    out
}
