//! Benchmark 1, `markdown_wasm_vs_native`: HTML→markdown throughput of the
//! markdown plugin run as the server runs it (fresh wasm instance per call via
//! `PluginRuntime::render`) against the same crate compiled natively
//! (`distill_markdown::html_to_markdown`), on the same inputs, in one process.
//!
//! Both paths alternate page by page (which one goes first flips every page
//! and every round), so machine noise hits both alike.

use crate::corpus::Corpus;
use crate::plugins::{Plugins, page_with_cleaned, page_with_tokens};
use crate::procfs::thread_cpu;
use crate::report::Table;
use crate::stats::{Summary, f, mb, verdict};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The wasm/native time ratio the issue aims for.
pub const TARGET_RATIO: f64 = 1.5;

/// How many passes over the corpus, and a time budget after which no new
/// round starts.
pub struct Config {
    pub rounds_cleaned: usize,
    pub rounds_raw: usize,
    pub budget: Duration,
}

/// The result for one kind of input.
pub struct Variant {
    pub name: &'static str,
    pub pages: usize,
    pub bytes_per_pass: usize,
    pub rounds: usize,
    pub native: Duration,
    pub wasm: Duration,
    /// The same, in this thread's CPU time (immune to preemption by other processes).
    pub native_cpu: Duration,
    pub wasm_cpu: Duration,
    /// Per page: median wasm time / median native time.
    pub page_ratio: Summary,
    pub buckets: Vec<Bucket>,
    pub errors: usize,
    pub first_error: Option<String>,
    /// Pages where the native converter panicked.
    pub native_panics: usize,
    /// Corpus ids of the pages left out (failed in wasm or natively).
    pub failed_ids: Vec<String>,
    /// Pages where the plugin's output differs from the native output.
    pub mismatches: usize,
}

/// Totals for pages whose input size falls in `[lo, hi)` bytes.
pub struct Bucket {
    pub label: &'static str,
    pub pages: usize,
    pub bytes: usize,
    pub native: Duration,
    pub wasm: Duration,
}

pub struct Results {
    pub cleaned: Variant,
    /// The cleaned page as a token stream (ABI 0.4), wasm and native alike.
    pub tokens: Option<Variant>,
    pub raw: Option<Variant>,
    pub corpus_pages: usize,
    pub corpus_raw_bytes: usize,
    pub clean_time: Duration,
}

pub async fn run(plugins: &Plugins, corpus: &Corpus, cfg: &Config) -> anyhow::Result<Results> {
    let end = Instant::now() + cfg.budget;
    let cleaned = inputs_of(corpus);
    eprintln!("  cleaned HTML, {} rounds", cfg.rounds_cleaned);
    let token_streams: Vec<&(Vec<u8>, String)> = corpus.pages.iter().map(|p| &p.tokens).collect();
    let cleaned = variant(
        plugins,
        "cleaned HTML (as ABI ≤ 0.3 fed the plugin)",
        &cleaned,
        None,
        cfg.rounds_cleaned,
        end,
    )
    .await;
    eprintln!("  cleaned tokens, {} rounds", cfg.rounds_cleaned);
    let tokens = Some(
        variant(
            plugins,
            "cleaned tokens (ABI 0.4, as the server feeds the plugin)",
            &inputs_of(corpus),
            Some(&token_streams),
            cfg.rounds_cleaned,
            end,
        )
        .await,
    );
    let raw = if cfg.rounds_raw > 0 && Instant::now() < end {
        eprintln!("  raw HTML, {} rounds", cfg.rounds_raw);
        let raw: Vec<Input> = corpus
            .pages
            .iter()
            .map(|p| (p.id.as_str(), p.url.as_str(), p.raw.as_str()))
            .collect();
        Some(variant(plugins, "raw HTML (whole page)", &raw, None, cfg.rounds_raw, end).await)
    } else {
        None
    };
    Ok(Results {
        cleaned,
        tokens,
        raw,
        corpus_pages: corpus.pages.len(),
        corpus_raw_bytes: corpus.raw_bytes(),
        clean_time: corpus.clean_time,
    })
}

/// (corpus id, URL, HTML)
type Input<'a> = (&'a str, &'a str, &'a str);

fn inputs_of(corpus: &Corpus) -> Vec<Input<'_>> {
    corpus
        .pages
        .iter()
        .map(|p| (p.id.as_str(), p.url.as_str(), p.cleaned.as_str()))
        .collect()
}

/// One variant: the plugin and the native converter on `inputs`' HTML, or
/// with `tokens` on each page's token stream instead (sizes stay the HTML's).
async fn variant(
    plugins: &Plugins,
    name: &'static str,
    inputs: &[Input<'_>],
    tokens: Option<&[&(Vec<u8>, String)]>,
    rounds: usize,
    end: Instant,
) -> Variant {
    let n = inputs.len();
    let pages: Vec<_> = inputs
        .iter()
        .enumerate()
        .map(|(i, (_, url, html))| match tokens {
            Some(t) => page_with_tokens(url, t[i]),
            None => page_with_cleaned(url, html),
        })
        .collect();
    let time_native = |i: usize, into: &mut Vec<Duration>, cpu: &mut Duration| match tokens {
        Some(t) => time_native_tokens(t[i], into, cpu),
        None => time_native(inputs[i].2, into, cpu),
    };
    let mut native = vec![Vec::with_capacity(rounds); n];
    let mut wasm = vec![Vec::with_capacity(rounds); n];
    let mut native_cpu = vec![Duration::ZERO; n];
    let mut wasm_cpu = vec![Duration::ZERO; n];
    let mut failed = vec![false; n];
    let mut native_failed = vec![false; n];
    let mut native_panics = 0;
    let (mut errors, mut mismatches, mut first_error) = (0, 0, None);
    let mut done = 0;
    for round in 0..rounds {
        if round > 0 && Instant::now() >= end {
            eprintln!("  time budget reached after {round} rounds");
            break;
        }
        for i in 0..n {
            let id = inputs[i].0;
            let native_first = (round + i) % 2 == 0;
            let mut native_out = None;
            if native_first {
                native_out = time_native(i, &mut native[i], &mut native_cpu[i]);
            }
            let (t, c) = (Instant::now(), thread_cpu());
            let out = plugins
                .render(&plugins.markdown, "markdown", &pages[i], "{}")
                .await;
            wasm[i].push(t.elapsed());
            wasm_cpu[i] += thread_cpu().saturating_sub(c);
            if !native_first {
                native_out = time_native(i, &mut native[i], &mut native_cpu[i]);
            }
            if native_out.is_none() && !native_failed[i] {
                native_failed[i] = true;
                native_panics += 1;
            }
            match out {
                Err(e) => {
                    if !failed[i] {
                        errors += 1;
                        failed[i] = true;
                        first_error.get_or_insert_with(|| format!("page {id}: {e}"));
                    }
                }
                Ok(value) if round == 0 => {
                    if value.as_str() != native_out.as_deref() {
                        mismatches += 1;
                    }
                    dump_output(name, id, &value.to_string());
                }
                Ok(_) => {}
            }
        }
        done += 1;
        eprintln!("  round {} done", round + 1);
    }
    let excluded: Vec<bool> = failed.iter().zip(&native_failed).map(|(a, b)| *a || *b).collect();
    let mut v = summarise(
        name,
        inputs,
        &native,
        &wasm,
        &excluded,
        done,
        errors,
        first_error,
        mismatches,
    );
    v.native_panics = native_panics;
    v.failed_ids = (0..n)
        .filter(|&i| excluded[i])
        .map(|i| inputs[i].0.to_string())
        .collect();
    v.native_cpu = (0..n).filter(|&i| !excluded[i]).map(|i| native_cpu[i]).sum();
    v.wasm_cpu = (0..n).filter(|&i| !excluded[i]).map(|i| wasm_cpu[i]).sum();
    v
}

/// With `DISTILL_BENCH_DUMP_MARKDOWN=DIR`, the plugin's output for each page
/// (its value as JSON text) goes to `DIR/<input kind>/<id>.json`, so two
/// builds of the plugin can be compared byte for byte (`diff -r`).
fn dump_output(variant: &str, id: &str, json: &str) {
    let Some(dir) = std::env::var_os("DISTILL_BENCH_DUMP_MARKDOWN") else {
        return;
    };
    let kind = if variant.starts_with("raw") {
        "raw"
    } else if variant.contains("tokens") {
        "tokens"
    } else {
        "cleaned"
    };
    let dir = std::path::Path::new(&dir).join(kind);
    let written =
        std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(dir.join(format!("{id}.json")), json));
    if let Err(e) = written {
        eprintln!("  cannot dump page {id}'s markdown: {e}");
    }
}

fn time_native_tokens(
    (ops, text): &(Vec<u8>, String),
    into: &mut Vec<Duration>,
    cpu: &mut Duration,
) -> Option<String> {
    let (t, c) = (Instant::now(), thread_cpu());
    let md =
        std::panic::catch_unwind(|| distill_markdown::tokens_to_markdown(black_box(ops), black_box(text)))
            .ok()
            .flatten();
    into.push(t.elapsed());
    *cpu += thread_cpu().saturating_sub(c);
    black_box(md)
}

fn time_native(html: &str, into: &mut Vec<Duration>, cpu: &mut Duration) -> Option<String> {
    let (t, c) = (Instant::now(), thread_cpu());
    let md = native_markdown(black_box(html));
    into.push(t.elapsed());
    *cpu += thread_cpu().saturating_sub(c);
    black_box(md)
}

/// `html_to_markdown`, with a panic turned into `None` (the converter has
/// panicked on some inputs; in wasm the same panic is a trap).
pub fn native_markdown(html: &str) -> Option<String> {
    std::panic::catch_unwind(|| distill_markdown::html_to_markdown(html)).ok()
}

#[allow(clippy::too_many_arguments)]
fn summarise(
    name: &'static str,
    inputs: &[Input<'_>],
    native: &[Vec<Duration>],
    wasm: &[Vec<Duration>],
    failed: &[bool],
    rounds: usize,
    errors: usize,
    first_error: Option<String>,
    mismatches: usize,
) -> Variant {
    let ok: Vec<usize> = (0..inputs.len()).filter(|&i| !failed[i]).collect();
    let sum = |v: &[Duration]| v.iter().sum::<Duration>();
    let med = |v: &[Duration]| crate::stats::median(&v.iter().map(|d| d.as_secs_f64()).collect::<Vec<_>>());
    let mut ratios: Vec<f64> = ok
        .iter()
        .filter(|&&i| med(&native[i]) > 0.0)
        .map(|&i| med(&wasm[i]) / med(&native[i]))
        .collect();
    let specs: [(&'static str, usize, usize); 4] = [
        ("< 1 KB", 0, 1_000),
        ("1–10 KB", 1_000, 10_000),
        ("10–100 KB", 10_000, 100_000),
        ("≥ 100 KB", 100_000, usize::MAX),
    ];
    let buckets = specs
        .iter()
        .map(|&(label, lo, hi)| {
            let idx: Vec<usize> = ok
                .iter()
                .copied()
                .filter(|&i| (lo..hi).contains(&inputs[i].2.len()))
                .collect();
            Bucket {
                label,
                pages: idx.len(),
                bytes: idx.iter().map(|&i| inputs[i].2.len()).sum(),
                native: idx.iter().map(|&i| sum(&native[i])).sum(),
                wasm: idx.iter().map(|&i| sum(&wasm[i])).sum(),
            }
        })
        .collect();
    Variant {
        name,
        pages: ok.len(),
        bytes_per_pass: ok.iter().map(|&i| inputs[i].2.len()).sum(),
        rounds,
        native: ok.iter().map(|&i| sum(&native[i])).sum(),
        wasm: ok.iter().map(|&i| sum(&wasm[i])).sum(),
        page_ratio: Summary::of(&mut ratios),
        buckets,
        errors,
        first_error,
        native_panics: 0,
        failed_ids: Vec::new(),
        native_cpu: Duration::ZERO,
        wasm_cpu: Duration::ZERO,
        mismatches,
    }
}

fn mbps(bytes: usize, rounds: usize, t: Duration) -> f64 {
    if t.is_zero() {
        0.0
    } else {
        mb(bytes * rounds) / t.as_secs_f64()
    }
}

fn ratio(wasm: Duration, native: Duration) -> f64 {
    if native.is_zero() {
        f64::NAN
    } else {
        wasm.as_secs_f64() / native.as_secs_f64()
    }
}

/// The report section.
pub fn to_markdown(r: &Results) -> String {
    let mut out = format!(
        "HTML→markdown on the {} pages of `wcxb-dev` ({:.1} MB of raw HTML). **Native**: \
         `distill_markdown::html_to_markdown` compiled into this benchmark (release). **Wasm**: \
         `target/release/plugins/markdown.wasm` called through `PluginRuntime::render` — a fresh \
         instance per call, default limits, exactly as a scrape calls it (the time includes \
         instantiation, copying the page record in, and the result out, taken as the server \
         takes it: JSON text parsed, a string value (ABI 0.5) as it is). Both get the same \
         input string; the order of the two calls flips every page and every round. Throughput is \
         input MB (10^6 bytes) over the summed wall time of all rounds; the CPU-time ratio uses this \
         thread's CPU clock around the same calls (it does not count time lost to other processes); \
         the per-page ratio is median wasm time / median native time of each page. The verdict uses \
         the wall-time ratio.\n\n",
        r.corpus_pages,
        mb(r.corpus_raw_bytes)
    );
    let mut t = Table::new(&[
        "input",
        "pages",
        "MB per pass",
        "rounds",
        "native MB/s",
        "wasm MB/s",
        "wasm/native time",
        "wasm/native CPU time",
        "per-page ratio p50 (p10–p90)",
        "target ≤ 1.5×",
    ]);
    for v in std::iter::once(&r.cleaned)
        .chain(r.tokens.as_ref())
        .chain(r.raw.as_ref())
    {
        let total = ratio(v.wasm, v.native);
        t.row([
            v.name.to_string(),
            v.pages.to_string(),
            f(mb(v.bytes_per_pass), 1),
            v.rounds.to_string(),
            f(mbps(v.bytes_per_pass, v.rounds, v.native), 1),
            f(mbps(v.bytes_per_pass, v.rounds, v.wasm), 1),
            format!("{}×", f(total, 2)),
            format!("{}×", f(ratio(v.wasm_cpu, v.native_cpu), 2)),
            format!(
                "{}× ({}–{})",
                f(v.page_ratio.p50, 2),
                f(v.page_ratio.p10, 2),
                f(v.page_ratio.p90, 2)
            ),
            verdict(total <= TARGET_RATIO).to_string(),
        ]);
    }
    out.push_str(&t.to_markdown());
    if let Some(tk) = &r.tokens {
        let c = &r.cleaned;
        out.push_str(&format!(
            "\nCPU-time ratios of the same run: **wasm(tokens) / native(HTML) {}×** — what a scrape \
             pays for markdown (ABI 0.4: the plugin gets the tokens) against a native converter \
             given the HTML; wasm(tokens) / native(tokens) {}× — like for like, the sandbox's own \
             cost; wasm(HTML) / native(HTML) {}× — the ratio before ABI 0.4. (Wall time: {}×, \
             {}×, {}×.)\n",
            f(ratio(tk.wasm_cpu, c.native_cpu), 2),
            f(ratio(tk.wasm_cpu, tk.native_cpu), 2),
            f(ratio(c.wasm_cpu, c.native_cpu), 2),
            f(ratio(tk.wasm, c.native), 2),
            f(ratio(tk.wasm, tk.native), 2),
            f(ratio(c.wasm, c.native), 2),
        ));
    }
    out.push_str("\nBy input size (cleaned HTML):\n\n");
    let mut b = Table::new(&[
        "input size",
        "pages",
        "MB per pass",
        "native MB/s",
        "wasm MB/s",
        "wasm/native time",
    ]);
    for k in r.cleaned.buckets.iter().filter(|k| k.pages > 0) {
        b.row([
            k.label.to_string(),
            k.pages.to_string(),
            f(mb(k.bytes), 2),
            f(mbps(k.bytes, r.cleaned.rounds, k.native), 1),
            f(mbps(k.bytes, r.cleaned.rounds, k.wasm), 1),
            format!("{}×", f(ratio(k.wasm, k.native), 2)),
        ]);
    }
    out.push_str(&b.to_markdown());
    for v in std::iter::once(&r.cleaned)
        .chain(r.tokens.as_ref())
        .chain(r.raw.as_ref())
    {
        out.push_str(&format!(
            "\n{}: {} page(s) failed in wasm{}; {} page(s) panicked natively; left out of every figure: \
             {}. {} page(s) where the plugin's markdown differs from the native markdown. CPU time per \
             pass: native {:.3} s, wasm {:.3} s.\n",
            v.name,
            v.errors,
            v.first_error
                .as_ref()
                .map(|e| format!(" (first: `{e}`)"))
                .unwrap_or_default(),
            v.native_panics,
            if v.failed_ids.is_empty() {
                "none".to_string()
            } else {
                v.failed_ids.join(", ")
            },
            v.mismatches,
            v.native_cpu.as_secs_f64() / v.rounds.max(1) as f64,
            v.wasm_cpu.as_secs_f64() / v.rounds.max(1) as f64,
        ));
    }
    out.push_str(&format!(
        "\nFor scale: the host's own cleaning (parse + main content + serialise, native) took {:.2} s for \
         the {:.1} MB of raw HTML, {:.1} MB/s.\n",
        r.clean_time.as_secs_f64(),
        mb(r.corpus_raw_bytes),
        mbps(r.corpus_raw_bytes, 1, r.clean_time)
    ));
    out
}
