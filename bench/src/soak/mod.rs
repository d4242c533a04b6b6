//! `distill-bench soak`: a bounded loopback load on the server binary for N
//! minutes (issue 17, point 3). 32 workers send the [`load::Mix`]: corpus
//! pages to scrape (served gzip by [`site`]), the committed document fixtures
//! to parse, and hostile inputs; every minute the markdown plugin is hot
//! swapped (shipped markdown ⇄ the markdown-v2 test plugin, atomically).
//! Per minute it reports the server's RSS and open file descriptors, outcomes
//! by status and code, and p50/p99 latency; it writes a CSV and a markdown
//! table under `target/soak/` and fails when RSS (the median of the readings
//! every 5 s of a minute) grows more than 10 % after the baseline minute (the 5th; the 1st on runs shorter than 7 minutes), a
//! request gets a 5xx whose code is not documented, a request fails at the
//! transport level, or the server dies.

mod load;
mod site;

use crate::procfs;
use crate::scrape::server::Server;
use crate::stats::percentile_sorted;
use bytes::Bytes;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// 5xx codes docs/API.md documents; any other 5xx fails the soak.
const DOCUMENTED_5XX: &[&str] = &[
    "SCRAPE_SITE_ERROR",
    "SCRAPE_SSL_ERROR",
    "SCRAPE_ACTION_ERROR",
    "SCRAPE_DOCUMENT_ERROR",
    "PARSE_DOCUMENT_ERROR",
    "PLUGIN_ERROR",
    "LIMITS_UNAVAILABLE",
    "LLM_NOT_CONFIGURED",
];

/// How often RSS is read within a minute (for [`Sample::rss_median_kib`]).
const RSS_EVERY: Duration = Duration::from_secs(5);

/// Allowed RSS growth after the baseline minute.
const RSS_GROWTH_LIMIT: f64 = 0.10;

pub struct Args {
    pub minutes: u64,
    pub concurrency: usize,
    pub corpus_root: PathBuf,
    pub server_bin: PathBuf,
    /// Extra server environment (`--env NAME=VALUE`, repeatable), e.g. to
    /// compare memory settings.
    pub env: Vec<(String, String)>,
    /// Where the data directory and the report go (`--out DIR`, default
    /// `target/soak`): two soaks with their own directories can run side by
    /// side to compare settings under the same machine load.
    pub out: PathBuf,
}

impl Args {
    pub fn parse(root: &Path, raw: &[String]) -> anyhow::Result<Args> {
        let mut args = Args {
            minutes: 10,
            concurrency: 32,
            corpus_root: root.join("../shared/corpus"),
            server_bin: root.join("target/release/distill"),
            env: Vec::new(),
            out: root.join("target/soak"),
        };
        let mut it = raw.iter();
        while let Some(flag) = it.next() {
            let mut value = || it.next().ok_or_else(|| anyhow::anyhow!("{flag} needs a value"));
            match flag.as_str() {
                "--minutes" => args.minutes = value()?.parse()?,
                "--concurrency" => args.concurrency = value()?.parse()?,
                "--corpus-root" => args.corpus_root = value()?.into(),
                "--server-bin" => args.server_bin = value()?.into(),
                "--out" => args.out = value()?.into(),
                "--env" => {
                    let pair = value()?;
                    let (k, v) = pair
                        .split_once('=')
                        .ok_or_else(|| anyhow::anyhow!("--env wants NAME=VALUE, got {pair:?}"))?;
                    args.env.push((k.to_string(), v.to_string()));
                }
                other => anyhow::bail!(
                    "unknown soak argument {other:?} (soak [--minutes N] [--concurrency C] [--corpus-root DIR] [--server-bin FILE] [--env NAME=VALUE]... [--out DIR])"
                ),
            }
        }
        anyhow::ensure!(args.minutes >= 1, "--minutes must be at least 1");
        Ok(args)
    }
}

/// What was sampled at the end of one minute.
struct Sample {
    rss_kib: u64,
    /// Median of the RSS read every [`RSS_EVERY`] during the minute: at c=32
    /// the memory of the requests in flight swings the instant reading by
    /// tens of MiB, so the growth criterion compares medians.
    rss_median_kib: u64,
    /// Anonymous (heap, pool slots) and file-backed (mapped code, binary)
    /// resident memory: `RssAnon` and `RssFile` of `/proc/PID/status`.
    anon_kib: u64,
    file_kib: u64,
    fds: usize,
}

pub async fn run(root: &Path, args: &Args) -> anyhow::Result<()> {
    let work = args.out.clone();
    let _ = std::fs::remove_dir_all(work.join("data"));
    let plugins_dir = work.join("data/plugins");
    std::fs::create_dir_all(&plugins_dir)?;
    let shipped = root.join("target/release/plugins");
    for entry in std::fs::read_dir(&shipped)?.flatten() {
        if entry.path().extension().is_some_and(|e| e == "wasm") {
            std::fs::copy(entry.path(), plugins_dir.join(entry.file_name()))?;
        }
    }
    let swap_files = [
        root.join("target/test-plugins/markdown-v2.wasm"),
        shipped.join("markdown.wasm"),
    ];
    for f in &swap_files {
        anyhow::ensure!(f.is_file(), "{} missing (run `make plugins`)", f.display());
    }

    let pages = site::load_pages(&args.corpus_root, 150)?;
    let site = site::Site::start(pages).await?;
    let documents = documents(&root.join("tests/fixtures/documents"))?;
    eprintln!(
        "soak: {} pages, {} documents, c={}, {} minutes",
        site.pages,
        documents.len(),
        args.concurrency,
        args.minutes
    );
    let mut env = vec![(
        "DISTILL_WASM_CACHE_DIR",
        root.join("target/test-wasm-cache").display().to_string(),
    )];
    env.extend(args.env.iter().map(|(k, v)| (k.as_str(), v.clone())));
    let server = Server::spawn_with_env(
        &args.server_bin,
        &plugins_dir,
        &work.join("data/server"),
        Duration::from_secs(300),
        &env,
    )?;
    let client = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(args.concurrency)
        .build()?;

    let started = Instant::now();
    let until = started + Duration::from_secs(args.minutes * 60);
    let record: load::Record = Arc::new(Mutex::new(Vec::new()));
    let mix = Arc::new(load::Mix::new(&site, documents));
    let load = tokio::spawn(load::run(
        client,
        server.base_url.clone(),
        mix,
        args.concurrency,
        started,
        until,
        record.clone(),
    ));

    let mut samples = Vec::new();
    let mut swaps_failed = 0;
    for minute in 0..args.minutes {
        let minute_end = started + Duration::from_secs((minute + 1) * 60);
        let mut readings = Vec::new();
        while Instant::now() + RSS_EVERY < minute_end {
            tokio::time::sleep(RSS_EVERY).await;
            readings.extend(procfs::status_kib(server.pid, "VmRSS"));
        }
        tokio::time::sleep_until(minute_end.into()).await;
        let Some(rss_kib) = procfs::status_kib(server.pid, "VmRSS") else {
            anyhow::bail!(
                "the server died during minute {} (log: {})",
                minute + 1,
                server.log_path.display()
            );
        };
        let fds = std::fs::read_dir(format!("/proc/{}/fd", server.pid))?.count();
        let anon_kib = procfs::status_kib(server.pid, "RssAnon").unwrap_or(0);
        let file_kib = procfs::status_kib(server.pid, "RssFile").unwrap_or(0);
        readings.push(rss_kib);
        readings.sort_unstable();
        samples.push(Sample {
            rss_kib,
            rss_median_kib: readings[readings.len() / 2],
            anon_kib,
            file_kib,
            fds,
        });
        eprintln!(
            "soak: minute {} RSS {} MiB (median {}; anon {}, file {}), {fds} fds",
            minute + 1,
            rss_kib / 1024,
            readings[readings.len() / 2] / 1024,
            anon_kib / 1024,
            file_kib / 1024
        );
        if minute + 1 < args.minutes
            && install(
                &swap_files[minute as usize % 2],
                &plugins_dir.join("markdown.wasm"),
            )
            .is_err()
        {
            swaps_failed += 1;
        }
    }
    let _ = load.await;
    let record = std::mem::take(&mut *record.lock().unwrap());
    let report = report(&samples, &record, swaps_failed);
    std::fs::write(work.join("soak.csv"), csv(&samples, &record))?;
    std::fs::write(work.join("soak.md"), &report.table)?;
    println!("{}", report.table);
    if report.failures.is_empty() {
        println!("soak: PASS");
        Ok(())
    } else {
        anyhow::bail!("soak failed:\n- {}", report.failures.join("\n- "))
    }
}

/// The committed document fixtures, except scanned PDFs (OCR would take the
/// shared cores for minutes at c=32) and the generator script.
fn documents(dir: &Path) -> anyhow::Result<Vec<(String, Bytes)>> {
    let mut docs = Vec::new();
    for entry in std::fs::read_dir(dir)?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.path().is_file() || name.ends_with(".py") || name.contains("scanned") {
            continue;
        }
        docs.push((name, Bytes::from(std::fs::read(entry.path())?)));
    }
    docs.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(docs)
}

/// Copies `src` over `dest` atomically (a temporary file, then a rename).
fn install(src: &Path, dest: &Path) -> std::io::Result<()> {
    let tmp = dest.with_extension("wasm.partial");
    std::fs::copy(src, &tmp)?;
    std::fs::rename(&tmp, dest)
}

struct Report {
    table: String,
    failures: Vec<String>,
}

fn report(samples: &[Sample], record: &[load::Minute], swaps_failed: usize) -> Report {
    let mut failures = Vec::new();
    let mut table = String::from(
        "| minute | requests | RSS MiB | RSS median MiB | anon MiB | file MiB | open fds | p50 ms | p99 ms | outcomes (status code: count) |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut totals: BTreeMap<String, u64> = BTreeMap::new();
    for (i, sample) in samples.iter().enumerate() {
        let empty = load::Minute::default();
        let minute = record.get(i).unwrap_or(&empty);
        let mut lat = minute.latencies_ms.clone();
        lat.sort_by(f64::total_cmp);
        let (p50, p99) = if lat.is_empty() {
            (0.0, 0.0)
        } else {
            (percentile_sorted(&lat, 50.0), percentile_sorted(&lat, 99.0))
        };
        let outcomes: Vec<String> = minute.outcomes.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        for (k, v) in &minute.outcomes {
            *totals.entry(k.clone()).or_default() += v;
        }
        let _ = writeln!(
            table,
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {:.0} | {:.0} | {} |",
            i + 1,
            lat.len(),
            sample.rss_kib as f64 / 1024.0,
            sample.rss_median_kib as f64 / 1024.0,
            sample.anon_kib as f64 / 1024.0,
            sample.file_kib as f64 / 1024.0,
            sample.fds,
            p50,
            p99,
            outcomes.join(", ")
        );
    }
    for (outcome, count) in &totals {
        let bad = outcome == "transport"
            || (outcome.starts_with('5') && !DOCUMENTED_5XX.iter().any(|c| outcome.ends_with(c)));
        if bad {
            failures.push(format!("{count} request(s) answered {outcome}"));
        }
    }
    let baseline_minute = if samples.len() >= 7 { 5 } else { 1 };
    if let Some(base) = samples.get(baseline_minute - 1) {
        let peak = samples[baseline_minute - 1..]
            .iter()
            .map(|s| s.rss_median_kib)
            .max()
            .unwrap_or(0);
        let growth = peak as f64 / base.rss_median_kib as f64 - 1.0;
        let instant_peak = samples[baseline_minute - 1..]
            .iter()
            .map(|s| s.rss_kib)
            .max()
            .unwrap_or(0);
        let _ = writeln!(
            table,
            "\nEnd-of-minute RSS: {:.1} MiB after minute {baseline_minute}, highest after it {:.1} MiB ({:+.1} %).",
            base.rss_kib as f64 / 1024.0,
            instant_peak as f64 / 1024.0,
            (instant_peak as f64 / base.rss_kib as f64 - 1.0) * 100.0
        );
        let _ = writeln!(
            table,
            "Median RSS of minute {baseline_minute}: {:.1} MiB, highest minute median after it {:.1} MiB ({:+.1} %, limit +{:.0} %).",
            base.rss_median_kib as f64 / 1024.0,
            peak as f64 / 1024.0,
            growth * 100.0,
            RSS_GROWTH_LIMIT * 100.0
        );
        if growth > RSS_GROWTH_LIMIT {
            failures.push(format!(
                "median RSS grew {:.1} % after minute {baseline_minute}",
                growth * 100.0
            ));
        }
    }
    if swaps_failed > 0 {
        failures.push(format!("{swaps_failed} plugin swap(s) could not be installed"));
    }
    let _ = writeln!(table, "Totals: {totals:?}");
    Report { table, failures }
}

fn csv(samples: &[Sample], record: &[load::Minute]) -> String {
    let mut out =
        String::from("minute,requests,rss_kib,rss_median_kib,anon_kib,file_kib,fds,p50_ms,p99_ms\n");
    for (i, s) in samples.iter().enumerate() {
        let mut lat = record.get(i).map(|m| m.latencies_ms.clone()).unwrap_or_default();
        lat.sort_by(f64::total_cmp);
        let (p50, p99) = if lat.is_empty() {
            (0.0, 0.0)
        } else {
            (percentile_sorted(&lat, 50.0), percentile_sorted(&lat, 99.0))
        };
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{p50:.1},{p99:.1}",
            i + 1,
            lat.len(),
            s.rss_kib,
            s.rss_median_kib,
            s.anon_kib,
            s.file_kib,
            s.fds
        );
    }
    out
}
