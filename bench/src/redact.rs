//! The cost of `redactPII` per page: on each corpus page, the detectors run
//! (in this process, with the calls the server makes) over the markdown
//! (`distill_redact::redact`), the cleaned HTML and the raw HTML
//! (`redact_html`, markup kept); medians and p90 per page, and throughput.

use crate::corpus::Corpus;
use crate::report::Table;
use crate::stats::{f, median, percentile_sorted};
use distill_redact::{RedactOptions, redact, redact_html};
use std::hint::black_box;
use std::time::{Duration, Instant};

pub struct Config {
    pub rounds: usize,
    pub budget: Duration,
}

/// Per-output timings (µs per page) and bytes.
pub struct Output {
    pub name: &'static str,
    pub micros: Vec<f64>,
    pub bytes: usize,
}

pub struct Results {
    pub pages: usize,
    pub outputs: Vec<Output>,
    /// Pages on which something was redacted (markdown).
    pub pages_with_finds: usize,
}

fn time(rounds: usize, work: impl Fn()) -> f64 {
    let started = Instant::now();
    for _ in 0..rounds {
        work();
    }
    started.elapsed().as_secs_f64() * 1e6 / rounds as f64
}

pub fn run(corpus: &Corpus, cfg: &Config) -> Results {
    let opts = RedactOptions::default();
    let started = Instant::now();
    let mut outputs = vec![
        Output {
            name: "markdown (`redact`)",
            micros: vec![],
            bytes: 0,
        },
        Output {
            name: "html, cleaned (`redact_html`)",
            micros: vec![],
            bytes: 0,
        },
        Output {
            name: "rawHtml (`redact_html`)",
            micros: vec![],
            bytes: 0,
        },
    ];
    let mut pages = 0;
    let mut pages_with_finds = 0;
    for page in &corpus.pages {
        if started.elapsed() > cfg.budget {
            break;
        }
        let markdown = std::panic::catch_unwind(|| distill_markdown::html_to_markdown(&page.cleaned))
            .unwrap_or_default();
        if redact(&markdown, &opts) != markdown {
            pages_with_finds += 1;
        }
        let texts: [(&str, bool); 3] = [(&markdown, false), (&page.cleaned, true), (&page.raw, true)];
        for (out, (text, html)) in outputs.iter_mut().zip(texts) {
            let us = if html {
                time(cfg.rounds, || {
                    black_box(redact_html(black_box(text), &opts));
                })
            } else {
                time(cfg.rounds, || {
                    black_box(redact(black_box(text), &opts));
                })
            };
            out.micros.push(us);
            out.bytes += text.len();
        }
        pages += 1;
    }
    Results {
        pages,
        outputs,
        pages_with_finds,
    }
}

pub fn to_markdown(r: &Results) -> String {
    let mut table = Table::new(&["output", "median µs/page", "p90 µs/page", "MB/s"]);
    for o in &r.outputs {
        let mut sorted = o.micros.clone();
        sorted.sort_by(f64::total_cmp);
        let total_s: f64 = o.micros.iter().sum::<f64>() / 1e6;
        let mbps = if total_s > 0.0 {
            o.bytes as f64 / 1e6 / total_s
        } else {
            0.0
        };
        table.row([
            o.name.to_string(),
            f(median(&o.micros), 0),
            f(percentile_sorted(&sorted, 90.0), 0),
            f(mbps, 1),
        ]);
    }
    format!(
        "All five detectors (`redactPII: true`) on {} corpus pages, one thread; \
         {} of them had something redacted in their markdown. A request pays the \
         markdown row for `markdown` (and every plugin format's strings, which are \
         far shorter), and the html/rawHtml rows only when those formats are asked \
         for (bench/src/redact.rs).\n\n{}",
        r.pages,
        r.pages_with_finds,
        table.to_markdown()
    )
}
