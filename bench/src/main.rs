//! `distill-bench`: the benchmarks behind `make bench`, written to
//! `BENCHMARKS.md`.
//!
//! 1. [`markdown`]: the markdown plugin in wasm against the same code native.
//! 2. [`overhead`]: the fixed cost of one plugin call.
//! 3. [`scrape`]: the server binary under load on a local page.
//! 4. [`extraction`]: main content + markdown in pages per CPU-second, beside
//!    trafilatura on the same pages; [`extraction_before`]: main content's time
//!    per page against an earlier build's, in one run.
//! 5. [`documents`]: document conversion (PDF against pdftotext, office
//!    documents per second, markitdown comparison) on the committed fixtures.
//! 6. [`llm_formats`]: the model formats on the local model (tokens, latency).
//! 8. [`media`]: the `audio` / `video` formats' ffmpeg step: seconds per
//!    minute of media and the ffmpeg child's peak memory.
//! 9. [`crawl`]: crawl pages/s and CPU per page on a generated 10,000-page
//!    site, one server and two on one Redis; map time; memory per queued URL.
//! 10. [`browser`]: browser scrapes of a static local page (latency, pages/s at
//!     c=1 and c=4, first page after start, memory of server + Chromium).
//! 11. [`peer`]: Distill beside pagesift (a Firecrawl-compatible peer) on the
//!     same pages, interleaved rounds.
//! 12. [`callgrind`]: instructions per scrape and per stage (callgrind on the
//!     `scrape-instructions` harness), stable enough to review.
//!
//! Supporting modules: [`corpus`] (pages), [`plugins`] (the runtime as the
//! server builds it), [`stages`] (per-stage timings of a scrape), [`profile`]
//! (`perf` profile of the server), [`procfs`] (CPU and memory of a process), [`redis_server`] (a throwaway redis-server), [`machine`], [`report`], [`summary`],
//! [`stats`]. All traffic stays on 127.0.0.1; every loop is bounded in count
//! and in time.
//!
//! Also [`soak`]: `distill-bench soak [--minutes N]` (`make soak`), a bounded
//!    load for N minutes reporting RSS, open descriptors, errors by code and p99
//!    per minute; not part of the default run.
//!
//! Usage: `distill-bench [--out FILE] [--quick] [--only markdown,overhead,scrape,extraction,extraction-before,documents,llm,redact,media,crawl,browser,peer,instructions,keyed]
//! [--corpus DIR] [--page ID] [--server-bin FILE] [--pagesift-bin FILE] [--before-bin FILE] [--before-corpus-bin FILE] [--no-perf] [--markdown-rounds N] [--markdown-wasm FILE]`. Sections that need the
//! corpus (all but `overhead` and `documents`) are skipped, with a note in the report, when it is absent.

mod browser;
mod callgrind;
mod corpus;
mod crawl;
mod documents;
mod extraction;
mod extraction_before;
mod keyed;
mod llm_formats;
mod machine;
mod markdown;
mod media;
mod overhead;
mod peer;
mod plugins;
mod procfs;
mod profile;
mod redact;
mod redis_server;
mod report;
mod scrape;
mod soak;
mod stages;
mod stats;
mod summary;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where `make bench` builds the `corpus` example of an earlier commit
/// (`EXTRACTION_BEFORE` in the Makefile; the commit's id is in `COMMIT` there).
const BEFORE_EXTRACTION_DIR: &str = "target/before-extraction";

/// The default scrape page: a 32.6 KB blog article from the corpus.
const DEFAULT_PAGE: &str = "4036";

struct Args {
    out: PathBuf,
    quick: bool,
    only: Vec<String>,
    corpus: PathBuf,
    page: String,
    server_bin: PathBuf,
    pagesift_bin: PathBuf,
    before_bin: Option<PathBuf>,
    /// An earlier build's `corpus` example (section 4b); `make bench` builds one.
    before_corpus_bin: PathBuf,
    no_perf: bool,
    /// Overrides the markdown section's rounds over the cleaned pages.
    markdown_rounds: Option<usize>,
    /// The markdown component the plugin sections load (default: the shipped one).
    markdown_wasm: PathBuf,
    raw: Vec<String>,
}

impl Args {
    fn parse(root: &Path) -> anyhow::Result<Args> {
        let raw: Vec<String> = std::env::args().skip(1).collect();
        let mut args = Args {
            out: PathBuf::from("BENCHMARKS.md"),
            quick: false,
            only: vec![
                "markdown".into(),
                "overhead".into(),
                "scrape".into(),
                "extraction".into(),
                "extraction-before".into(),
                "documents".into(),
                "llm".into(),
                "redact".into(),
                "media".into(),
                "crawl".into(),
                "browser".into(),
                "peer".into(),
                "instructions".into(),
                "keyed".into(),
            ],
            corpus: root.join("../shared/corpus/wcxb-dev"),
            page: DEFAULT_PAGE.into(),
            server_bin: root.join("target/release/distill"),
            pagesift_bin: peer::pagesift::default_bin(root),
            before_bin: None,
            before_corpus_bin: root
                .join(BEFORE_EXTRACTION_DIR)
                .join("target/release/examples/corpus"),
            no_perf: false,
            markdown_rounds: None,
            markdown_wasm: root.join("target/release/plugins/markdown.wasm"),
            raw: raw.clone(),
        };
        let mut it = raw.into_iter();
        while let Some(flag) = it.next() {
            let mut value = || it.next().ok_or_else(|| anyhow::anyhow!("{flag} needs a value"));
            match flag.as_str() {
                "--out" => args.out = value()?.into(),
                "--quick" => args.quick = true,
                "--no-perf" => args.no_perf = true,
                "--only" => args.only = value()?.split(',').map(|s| s.trim().to_string()).collect(),
                "--corpus" => args.corpus = value()?.into(),
                "--page" => args.page = value()?,
                "--markdown-rounds" => args.markdown_rounds = Some(value()?.parse()?),
                "--markdown-wasm" => args.markdown_wasm = value()?.into(),
                "--server-bin" => args.server_bin = value()?.into(),
                "--pagesift-bin" => args.pagesift_bin = value()?.into(),
                "--before-bin" => args.before_bin = Some(value()?.into()),
                "--before-corpus-bin" => args.before_corpus_bin = value()?.into(),
                "-h" | "--help" => {
                    println!(
                        "usage: distill-bench [--out FILE] [--quick] [--only markdown,overhead,scrape,extraction,extraction-before,documents,llm,redact,media,crawl,browser,peer,instructions,keyed] [--corpus DIR] [--page ID] [--server-bin FILE] [--pagesift-bin FILE] [--before-bin FILE] [--before-corpus-bin FILE] [--no-perf] [--markdown-rounds N] [--markdown-wasm FILE]"
                    );
                    std::process::exit(0);
                }
                other => anyhow::bail!("unknown argument {other:?} (try --help)"),
            }
        }
        Ok(args)
    }

    fn wants(&self, name: &str) -> bool {
        self.only.iter().any(|o| o == name)
    }
}

fn main() -> anyhow::Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = root.canonicalize().unwrap_or(root);
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().is_some_and(|a| a == "soak") {
        let args = soak::Args::parse(&root, &raw[1..])?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        return runtime.block_on(soak::run(&root, &args));
    }
    let args = Args::parse(&root)?;
    // One line per panic, no backtrace: the native converter is run under
    // `catch_unwind`, and its panics are counted, not fatal.
    std::panic::set_hook(Box::new(|info| eprintln!("  panic: {info}")));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(run(&root, &args))
}

async fn run(root: &Path, args: &Args) -> anyhow::Result<()> {
    let started = Instant::now();
    let machine = machine::Machine::probe();
    let work_dir = root.join("target/bench-data");
    let shipped_plugins = root.join("target/release/plugins");

    eprintln!("loading plugins");
    let plugins = plugins::Plugins::load(
        &args.markdown_wasm,
        &root.join("target/test-plugins/misbehave.wasm"),
        &work_dir,
    )
    .await?;

    let corpus_present = args.corpus.join("manifest.jsonl").is_file() && args.corpus.join("html").is_dir();
    let corpus = if corpus_present {
        eprintln!("loading and cleaning the corpus at {}", args.corpus.display());
        let max_pages = if args.quick { 40 } else { usize::MAX };
        let mut corpus = corpus::load(&args.corpus, max_pages, Duration::from_secs(120))?;
        if args.quick && !corpus.pages.iter().any(|p| p.id == args.page) {
            // Make sure the scrape page is there even in a reduced corpus.
            let full = corpus::load(&args.corpus, usize::MAX, Duration::from_secs(120))?;
            corpus
                .pages
                .extend(full.pages.into_iter().filter(|p| p.id == args.page));
        }
        eprintln!(
            "  {} pages, {:.1} MB raw, {:.1} MB cleaned ({:.1} s)",
            corpus.pages.len(),
            stats::mb(corpus.raw_bytes()),
            stats::mb(corpus.cleaned_bytes()),
            started.elapsed().as_secs_f64()
        );
        Some(corpus)
    } else {
        eprintln!(
            "corpus not found at {} (manifest.jsonl and html/): skipping the sections that need it \
             (markdown, scrape, extraction)",
            args.corpus.display()
        );
        None
    };
    let skipped = |name: &str| {
        format!(
            "Skipped: the corpus was not found at `{}` (`--corpus DIR`; section {name} measures its pages).\n",
            args.corpus.display()
        )
    };

    let md = if let (true, Some(corpus)) = (args.wants("markdown"), &corpus) {
        eprintln!("benchmark 1: markdown wasm vs native");
        let cfg = markdown::Config {
            rounds_cleaned: args.markdown_rounds.unwrap_or(if args.quick { 1 } else { 5 }),
            rounds_raw: if args.quick { 1 } else { 2 },
            budget: Duration::from_secs(if args.quick { 30 } else { 150 }),
        };
        Some(markdown::run(&plugins, corpus, &cfg).await?)
    } else {
        None
    };

    let oh = if args.wants("overhead") {
        eprintln!("benchmark 2: plugin call overhead");
        let cfg = overhead::Config {
            calls: if args.quick { 300 } else { 2000 },
            warmup: if args.quick { 50 } else { 200 },
            budget_per_case: Duration::from_secs(30),
        };
        Some(overhead::run(&plugins, &cfg).await?)
    } else {
        None
    };

    let sc = if let (true, Some(corpus)) = (args.wants("scrape"), &corpus) {
        eprintln!("benchmark 3: scrape load");
        let (n1, n16) = if args.quick { (100, 400) } else { (500, 3000) };
        let mut phases = Vec::new();
        for (format, cached) in [("markdown", false), ("html", false), ("markdown", true)] {
            phases.push(scrape::PhaseSpec {
                format,
                cached,
                concurrency: 1,
                requests: n1,
            });
            phases.push(scrape::PhaseSpec {
                format,
                cached,
                concurrency: 16,
                requests: n16,
            });
        }
        let cfg = scrape::Config {
            page_id: args.page.clone(),
            server_bin: args.server_bin.clone(),
            plugins_dir: shipped_plugins.clone(),
            data_dir: work_dir.clone(),
            warmup: if args.quick { 20 } else { 100 },
            phases,
            phase_limit: Duration::from_secs(60),
            stage_iterations: if args.quick { 50 } else { 300 },
            profile: !args.no_perf,
        };
        Some(scrape::run(&cfg, corpus, &plugins).await?)
    } else {
        None
    };

    let ex = if let (true, Some(corpus)) = (args.wants("extraction"), &corpus) {
        eprintln!("benchmark 4: main content + markdown vs trafilatura");
        let cfg = extraction::Config {
            rounds: if args.quick { 1 } else { 3 },
            budget: Duration::from_secs(if args.quick { 30 } else { 120 }),
            venv: root.join("target/tools/quality"),
            root: root.to_path_buf(),
            work_dir: work_dir.clone(),
        };
        Some(extraction::run(&plugins, corpus, &cfg).await?)
    } else {
        None
    };
    let ex_before = if args.wants("extraction-before") && corpus_present {
        extraction_before_config(args, root, &work_dir).map(|cfg| {
            eprintln!("benchmark 4b: main content against {}", cfg.before_label);
            extraction_before::run(&cfg)
        })
    } else {
        Err("not asked for, or the corpus is absent".into())
    };

    let fixtures_dir = root.join("tests/fixtures/documents");
    let docs = if args.wants("documents") {
        eprintln!("benchmark 5: documents");
        let python = root.join("target/tools/markitdown/bin/python");
        let cfg = documents::Config {
            server_bin: args.server_bin.clone(),
            plugins_dir: shipped_plugins.clone(),
            data_dir: work_dir.join("documents"),
            fixtures_dir: fixtures_dir.clone(),
            markitdown_python: python.is_file().then_some(python),
            rounds: if args.quick { 10 } else { 100 },
            budget: Duration::from_secs(if args.quick { 5 } else { 30 }),
        };
        Some(documents::run(&cfg).await?)
    } else {
        None
    };

    let llm = if args.wants("llm") {
        eprintln!("benchmark 6: model formats on the local model");
        let cfg = llm_formats::Config {
            server_bin: args.server_bin.clone(),
            plugins_dir: shipped_plugins.clone(),
            data_dir: work_dir.join("llm"),
            llm_dir: std::env::var_os("DISTILL_LOCAL_LLM_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| root.join("target/tools/llm")),
            script: root.join("scripts/local-llm.py"),
            page: root.join("tests/fixtures/site/article.html"),
            rounds: if args.quick { 2 } else { 5 },
        };
        Some(llm_formats::run(&cfg).await?)
    } else {
        None
    };
    let pii = if let (true, Some(corpus)) = (args.wants("redact"), &corpus) {
        eprintln!("benchmark 7: redactPII");
        let cfg = redact::Config {
            rounds: if args.quick { 3 } else { 20 },
            budget: Duration::from_secs(if args.quick { 20 } else { 120 }),
        };
        Some(redact::run(corpus, &cfg))
    } else {
        None
    };
    let media = if args.wants("media") {
        eprintln!("benchmark 8: media extraction (ffmpeg)");
        let cfg = media::Config {
            lengths: if args.quick { vec![60] } else { vec![60, 300] },
            rounds: if args.quick { 2 } else { 5 },
            work_dir: work_dir.join("media"),
        };
        match media::run(&cfg).await {
            Ok(r) => Some(r),
            Err(e) => {
                eprintln!("  media benchmark skipped: {e}");
                None
            }
        }
    } else {
        None
    };

    let crawl = if args.wants("crawl") {
        eprintln!("benchmark 9: crawl");
        let cfg = crawl::Config {
            server_bin: args.server_bin.clone(),
            plugins_dir: shipped_plugins.clone(),
            data_dir: work_dir.join("crawl"),
            pages: if args.quick { 2000 } else { 10_000 },
            env: vec![
                ("DISTILL_CRAWL_PER_HOST", "32".into()),
                ("DISTILL_CRAWL_MAX_INFLIGHT", "32".into()),
            ],
        };
        match crawl::run(&cfg).await {
            Ok(r) => Some(r),
            Err(e) => {
                eprintln!("  crawl benchmark failed: {e}");
                None
            }
        }
    } else {
        None
    };

    let keyed = if args.wants("keyed") {
        eprintln!("benchmark 13: keyed scrapes");
        let cfg = keyed::Config {
            server_bin: args.server_bin.clone(),
            before_bin: args.before_bin.clone(),
            plugins_dir: shipped_plugins.clone(),
            data_dir: work_dir.join("keyed"),
            rounds: if args.quick { 100 } else { 300 },
        };
        Some(keyed::run(&cfg).await.map_err(|e| e.to_string()))
    } else {
        None
    };

    let peer = if args.wants("peer") && corpus_present {
        eprintln!("benchmark 11: Distill beside pagesift");
        let cfg = peer::Config {
            corpus: args.corpus.clone(),
            server_bin: args.server_bin.clone(),
            plugins_dir: shipped_plugins.clone(),
            pagesift_bin: args.pagesift_bin.clone(),
            before_bin: args.before_bin.clone(),
            data_dir: work_dir.join("peer"),
            rounds: if args.quick { 1 } else { 3 },
            phase: Duration::from_secs_f64(if args.quick { 1.5 } else { 4.0 }),
            warmup: if args.quick { 10 } else { 30 },
        };
        Some(peer::run(&cfg).await?)
    } else {
        None
    };

    let instructions = if args.wants("instructions") && corpus_present {
        eprintln!("benchmark 12: instructions per scrape (callgrind)");
        let cfg = callgrind::Config {
            harness: root.join("target/release/scrape-instructions"),
            markdown_wasm: args.markdown_wasm.clone(),
            corpus: args.corpus.clone(),
            work_dir: work_dir.join("callgrind"),
            pages: peer::PAGES.to_vec(),
            iterations: if args.quick { 2 } else { 5 },
        };
        Some(tokio::task::spawn_blocking(move || callgrind::run(&cfg)).await?)
    } else {
        None
    };

    let mut report = report::Report::new("Benchmarks");
    report.preamble(&format!(
        "Written by `make bench`, which builds everything and then runs\n\n\
         ```\ncargo run --release -p distill-bench --{}\n```\n\n\
         (the code is in `bench/`). The run took {:.0} s{}.\n\n{}\
         - Load average at the end: {}\n",
        args.raw.iter().map(|a| format!(" {a}")).collect::<String>(),
        started.elapsed().as_secs_f64(),
        if args.quick {
            ", in `--quick` mode (reduced counts; figures are indicative only)"
        } else {
            ""
        },
        machine.to_markdown(),
        machine::load_avg(),
    ));
    report.section(
        "Summary",
        &format!(
            "{}{}",
            summary::to_markdown(md.as_ref(), oh.as_ref(), sc.as_ref(), ex.as_ref(), docs.as_ref()),
            peer.as_ref().map(peer::summary_line).unwrap_or_default()
        ),
    );
    if let Some(md) = &md {
        report.section("1. markdown_wasm_vs_native", &markdown::to_markdown(md));
    } else if args.wants("markdown") {
        report.section("1. markdown_wasm_vs_native", &skipped("1"));
    }
    if let Some(oh) = &oh {
        report.section("2. plugin_call_overhead", &overhead::to_markdown(oh));
    }
    if let Some(sc) = &sc {
        report.section("3. scrape_load", &scrape::to_markdown(sc));
    } else if args.wants("scrape") {
        report.section("3. scrape_load", &skipped("3"));
    }
    if let Some(ex) = &ex {
        report.section("4. main_content_vs_trafilatura", &extraction::to_markdown(ex));
    } else if args.wants("extraction") {
        report.section("4. main_content_vs_trafilatura", &skipped("4"));
    }
    if args.wants("extraction-before") {
        let body = match &ex_before {
            Ok(r) => extraction_before::to_markdown(r),
            Err(why) => format!("Not measured: {why}.\n"),
        };
        report.section("4b. main_content_before_after", &body);
    }
    if let Some(docs) = &docs {
        report.section(
            "5. documents",
            &documents::to_markdown(docs, Path::new("tests/fixtures/documents")),
        );
    }
    if let Some(llm) = &llm {
        report.section(
            "6. model_formats_local_llm",
            &llm_formats::to_markdown(llm, Path::new("tests/fixtures/site/article.html")),
        );
    }
    if let Some(pii) = &pii {
        report.section("7. redactPII", &redact::to_markdown(pii));
    } else if args.wants("redact") {
        report.section("7. redactPII", &skipped("7"));
    }
    if let Some(media) = &media {
        report.section("8. media_extraction", &media::to_markdown(media));
    }
    if let Some(crawl) = &crawl {
        report.section("9. crawl", &crawl::to_markdown(crawl));
    }
    if args.wants("browser") {
        eprintln!("benchmark 10: browser engine");
        let cfg = browser::Config {
            server_bin: args.server_bin.clone(),
            plugins_dir: shipped_plugins.clone(),
            data_dir: work_dir.clone(),
            requests_c1: if args.quick { 30 } else { 100 },
            requests_c4: if args.quick { 60 } else { 200 },
        };
        match browser::run(&cfg).await {
            Ok(r) => report.section("10. browser_engine", &browser::to_markdown(&r)),
            Err(e) => report.section("10. browser_engine", &format!("Skipped: {e}.\n")),
        }
    }
    if let Some(peer) = &peer {
        report.section("11. peer_pagesift", &peer::to_markdown(peer));
    } else if args.wants("peer") {
        report.section("11. peer_pagesift", &skipped("11"));
    }
    match &instructions {
        Some(Ok(r)) => report.section("12. instructions_per_scrape", &callgrind::to_markdown(r)),
        Some(Err(why)) => report.section("12. instructions_per_scrape", &format!("Skipped: {why}.\n")),
        None if args.wants("instructions") => report.section("12. instructions_per_scrape", &skipped("12")),
        None => {}
    }
    match &keyed {
        Some(Ok(rows)) => report.section("13. keyed_scrapes", &keyed::to_markdown(rows)),
        Some(Err(why)) => report.section("13. keyed_scrapes", &format!("Skipped: {why}.\n")),
        None => {}
    }
    report.write(&args.out)?;
    eprintln!(
        "wrote {} in {:.0} s",
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Section 4b's set-up: the earlier build's `corpus` example and this tree's, on
/// every corpus beside the default one (`../shared/corpus/*`).
fn extraction_before_config(
    args: &Args,
    root: &Path,
    work_dir: &Path,
) -> Result<extraction_before::Config, String> {
    let after_bin = root.join("target/release/examples/corpus");
    for (bin, what) in [
        (&args.before_corpus_bin, "the earlier build's corpus example"),
        (&after_bin, "this tree's corpus example"),
    ] {
        if !bin.is_file() {
            return Err(format!(
                "{what} ({}) is not built; `make bench` builds it",
                bin.display()
            ));
        }
    }
    let before_label = std::fs::read_to_string(root.join(BEFORE_EXTRACTION_DIR).join("COMMIT"))
        .map(|c| format!("commit {}", c.trim()))
        .unwrap_or_else(|_| args.before_corpus_bin.display().to_string());
    let corpora_root = args.corpus.parent().unwrap_or(root);
    let mut corpora: Vec<PathBuf> = std::fs::read_dir(corpora_root)
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("manifest.jsonl").is_file() && p.join("html").is_dir())
        .collect();
    corpora.sort();
    Ok(extraction_before::Config {
        before_bin: args.before_corpus_bin.clone(),
        before_label,
        after_bin,
        corpora,
        work_dir: work_dir.join("extraction-before"),
        rounds: if args.quick { 1 } else { 3 },
    })
}
