//! Where a scrape's CPU goes: the compute stages of the server's pipeline for
//! one page, timed one by one in this process with the same library calls the
//! server makes (decode, parse, metadata, clean, serialise, markdown plugin,
//! response JSON). What the server spends beyond their sum is HTTP (the
//! inbound request and the outbound fetch), the async runtime and syscalls.

use crate::plugins::Plugins;
use crate::procfs::thread_cpu;
use crate::report::Table;
use crate::stats::{f, median};
use distill_html::{CleanOptions, ParsedPage};
use serde_json::{Value, json};
use std::hint::black_box;
use std::time::{Duration, Instant};
use url::Url;

pub struct Stage {
    pub name: &'static str,
    /// Median over iterations, µs.
    pub median_us: f64,
    /// Whether the server does this on a `markdown` scrape.
    pub in_markdown_scrape: bool,
    /// Whether the server does this on an `html` scrape.
    pub in_html_scrape: bool,
}

pub struct Results {
    pub iterations: usize,
    pub stages: Vec<Stage>,
}

impl Results {
    /// The stage only a markdown scrape runs (the plugin call), µs.
    pub fn plugin_us(&self) -> f64 {
        self.stages
            .iter()
            .filter(|s| s.in_markdown_scrape && !s.in_html_scrape)
            .map(|s| s.median_us)
            .sum()
    }

    /// Sum of the stage medians a scrape of `format` runs, µs.
    pub fn total_us(&self, markdown: bool) -> f64 {
        self.stages
            .iter()
            .filter(|s| {
                if markdown {
                    s.in_markdown_scrape
                } else {
                    s.in_html_scrape
                }
            })
            .map(|s| s.median_us)
            .sum()
    }
}

const NAMES: [(&str, bool, bool); 11] = [
    ("decode body to UTF-8 (`decode_html`)", true, true),
    ("parse (`ParsedPage::parse`)", true, true),
    ("metadata", true, true),
    ("clean, only main content", true, true),
    ("serialise cleaned HTML", true, true),
    (
        "markdown plugin, wasm (fresh instance, page record as the server fills it)",
        true,
        false,
    ),
    ("response JSON (data + metadata)", true, true),
    ("(reference) markdown natively (`html_to_markdown`)", false, false),
    ("(reference) of which: build the htmd converter", false, false),
    (
        "(reference) of which: htmd's html5ever parse into an RcDom",
        false,
        false,
    ),
    ("(reference) of which: htmd's tree walk to markdown", false, false),
];

/// Times every stage `iterations` times (stops early past `budget`).
pub async fn run(plugins: &Plugins, body: &[u8], url: &Url, iterations: usize, budget: Duration) -> Results {
    let end = Instant::now() + budget;
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(iterations); NAMES.len()];
    let opts = CleanOptions {
        only_main_content: true,
        include_tags: &[],
        exclude_tags: &[],
    };
    let mut done = 0;
    for _ in 0..iterations {
        if Instant::now() >= end {
            break;
        }
        let mut lap = Lap::new();
        let raw = distill_html::decode_html(black_box(body), Some("text/html; charset=utf-8"));
        lap.mark(&mut samples[0]);
        let page = ParsedPage::parse(&raw, url);
        lap.mark(&mut samples[1]);
        let metadata = page.metadata();
        lap.mark(&mut samples[2]);
        let cleaned = page.clean(&opts).expect("no selectors");
        black_box(cleaned.has_content());
        lap.mark(&mut samples[3]);
        let cleaned_html = cleaned.html();
        lap.mark(&mut samples[4]);
        let record = crate::plugins::page(
            url.as_str(),
            &raw,
            &cleaned_html,
            &Value::Object(metadata.clone()).to_string(),
        );
        lap.restart();
        let out = plugins.render(&plugins.markdown, "markdown", &record, "{}").await;
        let markdown: Value = out.unwrap_or(Value::Null);
        lap.mark(&mut samples[5]);
        let response = serde_json::to_vec(&json!({
            "success": true,
            "data": { "markdown": markdown, "metadata": Value::Object(metadata) },
        }));
        black_box(response.map(|v| v.len()).unwrap_or(0));
        lap.mark(&mut samples[6]);
        black_box(crate::markdown::native_markdown(&cleaned_html));
        lap.mark(&mut samples[7]);
        let converter = htmd_converter();
        lap.mark(&mut samples[8]);
        let tree = converter.html_to_tree(&cleaned_html).ok();
        lap.mark(&mut samples[9]);
        black_box(tree.map(|t| converter.tree_to_markdown(&t)));
        lap.mark(&mut samples[10]);
        done += 1;
    }
    Results {
        iterations: done,
        stages: NAMES
            .iter()
            .zip(&samples)
            .map(|(&(name, md, html), s)| Stage {
                name,
                median_us: median(s),
                in_markdown_scrape: md,
                in_html_scrape: html,
            })
            .collect(),
    }
}

/// An htmd converter like the markdown plugin's (its skip list; heading and
/// list styles do not change the cost).
pub fn htmd_converter() -> htmd::HtmlToMarkdown {
    htmd::HtmlToMarkdown::builder()
        .skip_tags(vec![
            "script", "style", "noscript", "template", "textarea", "head",
        ])
        .build()
}

/// Successive intervals of this thread's CPU time (so time the thread
/// spends preempted by other processes is not counted).
struct Lap(Duration);

impl Lap {
    fn new() -> Lap {
        Lap(thread_cpu())
    }
    fn restart(&mut self) {
        self.0 = thread_cpu();
    }
    fn mark(&mut self, into: &mut Vec<f64>) {
        let now = thread_cpu();
        into.push(now.saturating_sub(self.0).as_secs_f64() * 1e6);
        self.0 = now;
    }
}

/// A table of the stages against the server's measured CPU per request.
pub fn to_markdown(
    r: &Results,
    server_cpu_ms_markdown: Option<f64>,
    server_cpu_ms_html: Option<f64>,
) -> String {
    let mut out = format!(
        "The pipeline's compute stages for the same page, timed in the bench process with the server's \
         own library calls (median of {} iterations of this thread's CPU time; the wasm call runs on the same thread):\n\n",
        r.iterations
    );
    let mut t = Table::new(&["stage", "µs", "in a markdown scrape", "in an html scrape"]);
    let yes = |b: bool| if b { "yes" } else { "–" };
    for s in &r.stages {
        t.row([
            s.name.to_string(),
            f(s.median_us, 1),
            yes(s.in_markdown_scrape).into(),
            yes(s.in_html_scrape).into(),
        ]);
    }
    for (label, markdown, server) in [
        ("markdown", true, server_cpu_ms_markdown),
        ("html", false, server_cpu_ms_html),
    ] {
        let sum = r.total_us(markdown);
        let rest = server.map(|ms| ms * 1e3 - sum);
        t.row([
            format!("**sum for a {label} scrape** (server CPU/request at concurrency 1, remainder)"),
            format!(
                "**{}** ({}, {})",
                f(sum, 1),
                server
                    .map(|ms| format!("{} µs", f(ms * 1e3, 0)))
                    .unwrap_or_else(|| "n/a".into()),
                rest.map(|us| format!("{} µs outside these stages", f(us, 0)))
                    .unwrap_or_else(|| "n/a".into()),
            ),
            String::new(),
            String::new(),
        ]);
    }
    out.push_str(&t.to_markdown());
    out
}
