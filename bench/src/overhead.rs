//! Benchmark 2, `plugin_call_overhead`: the fixed cost of one plugin call as
//! the server makes it — new store, instantiate the pre-instantiated
//! component, call `render`, drop — measured on a trivial render (the
//! `misbehave` test plugin in mode `ok`) and on the markdown plugin with a
//! 20-byte HTML input.

use crate::plugins::{Plugins, page_with_cleaned};
use crate::procfs::self_cpu;
use crate::report::Table;
use crate::stats::{Summary, f, verdict};
use distill::plugins::LoadedPlugin;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The per-call overhead the issue aims for, in µs.
pub const TARGET_US: f64 = 100.0;

/// The 20-byte HTML input of the markdown case.
pub const TINY_HTML: &str = "<p>Hello, world!</p>";

pub struct Config {
    pub calls: usize,
    pub warmup: usize,
    /// No case runs longer than this.
    pub budget_per_case: Duration,
}

pub struct Case {
    pub name: String,
    pub calls: usize,
    pub errors: usize,
    /// Wall time per call, µs.
    pub wall: Summary,
    /// This process's CPU time over the timed loop, per call, µs.
    pub cpu_us: f64,
}

pub struct Results {
    pub cases: Vec<Case>,
    /// `html_to_markdown(TINY_HTML)` natively, mean µs.
    pub native_tiny_us: f64,
    /// Building the htmd converter natively, mean µs.
    pub native_builder_us: f64,
}

pub async fn run(plugins: &Plugins, cfg: &Config) -> anyhow::Result<Results> {
    let mut cases = Vec::new();
    if let Some(misbehave) = &plugins.misbehave {
        let page = page_with_cleaned("http://127.0.0.1/", "");
        cases.push(
            case(
                plugins,
                misbehave,
                "misbehave",
                &page,
                r#"{"mode":"ok"}"#,
                "`misbehave` mode `ok` (returns \"fine\")",
                cfg,
            )
            .await,
        );
    } else {
        eprintln!("  misbehave.wasm not built; skipping the trivial-render case");
    }
    let page = page_with_cleaned("http://127.0.0.1/", TINY_HTML);
    cases.push(
        case(
            plugins,
            &plugins.markdown,
            "markdown",
            &page,
            "{}",
            "`markdown` on 20-byte HTML",
            cfg,
        )
        .await,
    );

    let n = cfg.calls.max(1);
    let t = Instant::now();
    for _ in 0..n {
        black_box(distill_markdown::html_to_markdown(black_box(TINY_HTML)));
    }
    let native_tiny_us = t.elapsed().as_secs_f64() * 1e6 / n as f64;
    let t = Instant::now();
    for _ in 0..n {
        black_box(crate::stages::htmd_converter());
    }
    let native_builder_us = t.elapsed().as_secs_f64() * 1e6 / n as f64;
    Ok(Results {
        cases,
        native_tiny_us,
        native_builder_us,
    })
}

async fn case(
    plugins: &Plugins,
    plugin: &LoadedPlugin,
    format: &str,
    page: &distill::plugins::bindings::Page,
    options: &str,
    name: &str,
    cfg: &Config,
) -> Case {
    eprintln!("  {name}: {} warm-up + {} calls", cfg.warmup, cfg.calls);
    let end = Instant::now() + cfg.budget_per_case;
    let mut errors = 0;
    for _ in 0..cfg.warmup {
        if Instant::now() >= end {
            break;
        }
        errors += plugins.render(plugin, format, page, options).await.is_err() as usize;
    }
    let mut samples = Vec::with_capacity(cfg.calls);
    let cpu = self_cpu();
    for _ in 0..cfg.calls {
        if Instant::now() >= end {
            break;
        }
        let t = Instant::now();
        let out = plugins.render(plugin, format, page, options).await;
        samples.push(t.elapsed());
        errors += out.is_err() as usize;
    }
    let cpu = self_cpu().saturating_sub(cpu);
    Case {
        name: name.to_string(),
        calls: samples.len(),
        errors,
        wall: Summary::of_micros(&samples),
        cpu_us: cpu.as_secs_f64() * 1e6 / samples.len().max(1) as f64,
    }
}

/// The report section.
pub fn to_markdown(r: &Results) -> String {
    let mut out = String::from(
        "One `PluginRuntime::render` call as the server makes it: a new store, `instantiate_async` of \
         the pre-instantiated component (pooling allocator), the `render` call, and dropping the \
         instance. Sequential calls on one task after a warm-up; wall time per call, and this \
         process's CPU time over the loop divided by the calls.\n\n",
    );
    let mut t = Table::new(&[
        "case",
        "calls",
        "errors",
        "mean µs",
        "p50 µs",
        "p99 µs",
        "CPU µs/call",
        "target < 100 µs",
    ]);
    for c in &r.cases {
        t.row([
            c.name.clone(),
            c.calls.to_string(),
            c.errors.to_string(),
            f(c.wall.mean, 1),
            f(c.wall.p50, 1),
            f(c.wall.p99, 1),
            f(c.cpu_us, 1),
            verdict(c.wall.p50 < TARGET_US).to_string(),
        ]);
    }
    out.push_str(&t.to_markdown());
    out.push_str(&format!(
        "\nThe verdict uses the median: on this shared machine the mean and p99 include time the thread \
         spent preempted (compare the CPU time per call). The same 20-byte conversion natively takes {} µs, \
         of which {} µs is building the htmd converter (`HtmlToMarkdown::builder().build()`); the plugin \
         rebuilds it on every call because every call gets a fresh instance.\n",
        f(r.native_tiny_us, 2),
        f(r.native_builder_us, 2)
    ));
    out
}
