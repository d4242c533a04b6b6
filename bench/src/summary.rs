//! The report's opening summary: each target of the issue next to what was
//! measured, and notes derived from the figures (nothing here is typed in by
//! hand, so the notes cannot drift from the numbers).

use crate::report::Table;
use crate::stats::{f, verdict};
use crate::{documents, extraction, markdown, overhead, scrape};

fn pages(n: usize) -> String {
    format!("{n} page{}", if n == 1 { "" } else { "s" })
}

/// The summary table and notes for whichever benchmarks ran.
pub fn to_markdown(
    md: Option<&markdown::Results>,
    oh: Option<&overhead::Results>,
    sc: Option<&scrape::Results>,
    ex: Option<&extraction::Results>,
    docs: Option<&documents::Results>,
) -> String {
    let mut t = Table::new(&["target (issue)", "measured", "verdict"]);
    let mut notes = Vec::new();
    if let Some(md) = md {
        let v = &md.cleaned;
        let r = v.wasm.as_secs_f64() / v.native.as_secs_f64().max(1e-12);
        t.row([
            "markdown plugin in wasm within 1.5× of native".to_string(),
            format!(
                "{}× total time on cleaned HTML (per-page median {}×)",
                f(r, 2),
                f(v.page_ratio.p50, 2)
            ),
            verdict(r <= markdown::TARGET_RATIO).to_string(),
        ]);
        let filled: Vec<_> = v.buckets.iter().filter(|b| b.pages > 0).collect();
        if let (Some(small), Some(big)) = (filled.first().copied(), filled.last().copied()) {
            let ratio = |b: &markdown::Bucket| b.wasm.as_secs_f64() / b.native.as_secs_f64().max(1e-12);
            let (rs, rb) = (ratio(small), ratio(big));
            notes.push(format!(
                "The wasm/native ratio is {}× for inputs {} ({}) and {}× for {} ({}){}.",
                f(rs, 2),
                small.label,
                pages(small.pages),
                f(rb, 2),
                big.label,
                pages(big.pages),
                if rs > rb * 1.1 {
                    ": on small inputs the fixed cost of a call (fresh instance) weighs more"
                } else {
                    ""
                }
            ));
        }
        let failed = v.errors.max(v.native_panics);
        if failed > 0 {
            notes.push(format!(
                "{} of the corpus make the markdown converter fail ({} in wasm, {} panicking natively); \
                 a scrape of such a page would fail with a plugin error. See section 1.",
                pages(failed),
                v.errors,
                v.native_panics
            ));
        }
    }
    if let Some(oh) = oh {
        for c in &oh.cases {
            t.row([
                format!("per-call plugin overhead under 100 µs: {}", c.name),
                format!(
                    "p50 {} µs (mean {} µs, p99 {} µs)",
                    f(c.wall.p50, 1),
                    f(c.wall.mean, 1),
                    f(c.wall.p99, 1)
                ),
                verdict(c.wall.p50 < overhead::TARGET_US).to_string(),
            ]);
        }
    }
    if let Some(sc) = sc {
        if let Some(cpu) = scrape::cpu_ms_at_c1(sc, "markdown") {
            t.row([
                format!(
                    "under 0.6 ms CPU per fresh markdown scrape of a ~30 KB page ({} bytes)",
                    sc.page_bytes
                ),
                format!("{} ms at concurrency 1", f(cpu, 3)),
                verdict(cpu < scrape::TARGET_CPU_MS).to_string(),
            ]);
            if let Some(html) = scrape::cpu_ms_at_c1(sc, "html") {
                notes.push(format!(
                    "An `html`-only scrape of the same page costs {} ms of server CPU, so the markdown \
                     plugin adds {} ms per scrape; the in-process stage timings below put the wasm \
                     markdown call at {} µs.",
                    f(html, 3),
                    f(cpu - html, 3),
                    f(sc.stages.plugin_us(), 0)
                ));
            }
            let largest_host_stage = sc
                .stages
                .stages
                .iter()
                .filter(|s| s.in_html_scrape)
                .max_by(|a, b| a.median_us.total_cmp(&b.median_us));
            if let Some(html) = scrape::cpu_ms_at_c1(sc, "html")
                && let Some(top) = largest_host_stage
            {
                notes.push(format!(
                    "Without the plugin the scrape still costs {} ms of server CPU ({} the 0.6 ms \
                     target); its largest stage is {} at {} µs.",
                    f(html, 3),
                    if html < scrape::TARGET_CPU_MS {
                        "within"
                    } else {
                        "above"
                    },
                    top.name,
                    f(top.median_us, 0)
                ));
            }
            let stages_ms = sc.stages.total_us(true) / 1e3;
            notes.push(format!(
                "The pipeline's compute stages sum to {} ms for this page; the other {} ms of server CPU \
                 per markdown scrape are outside them (axum/hyper for the inbound request, reqwest for \
                 the outbound fetch, tokio scheduling, syscalls).",
                f(stages_ms, 3),
                f((cpu - stages_ms).max(0.0), 3)
            ));
        }
        if let Some(kib) = sc.peak_rss_kib {
            t.row([
                "server peak RSS (no target)".to_string(),
                format!("{} MiB", f(kib as f64 / 1024.0, 1)),
                "–".to_string(),
            ]);
        }
    }
    if let Some(ex) = ex {
        match ex.ratio(true) {
            Some(r) => t.row([
                "main content + markdown at least 5× trafilatura, in pages per CPU-second".to_string(),
                format!(
                    "{}× ({} vs {} pages per CPU-second; {}× with markdown native)",
                    f(r, 1),
                    f(ex.distill_pps(true), 0),
                    f(ex.trafilatura_pps().unwrap_or(0.0), 1),
                    f(ex.ratio(false).unwrap_or(0.0), 1)
                ),
                verdict(r >= extraction::TARGET_RATIO).to_string(),
            ]),
            None => t.row([
                "main content + markdown at least 5× trafilatura, in pages per CPU-second".to_string(),
                format!(
                    "{} pages per CPU-second; trafilatura not measured (section 4)",
                    f(ex.distill_pps(true), 0)
                ),
                "–".to_string(),
            ]),
        }
    }
    if let Some(d) = docs {
        for row in d.summary_rows() {
            t.row(row);
        }
    }
    let mut out = t.to_markdown();
    if !notes.is_empty() {
        out.push('\n');
        for n in notes {
            out.push_str(&format!("- {n}\n"));
        }
    }
    out
}
