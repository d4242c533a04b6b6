//! Benchmark 3, `scrape_load`: the `distill` server binary scraping one
//! ~30 KB article from a static site on loopback, driven by keep-alive
//! clients at concurrency 1 and 16. Records requests/s, latency percentiles,
//! the server's CPU time per request (from `/proc`) and its peak RSS, for
//! `formats: ["markdown"]` and, to separate the plugin's share, `["html"]`.
//!
//! - [`site`]: the static page server (in this process).
//! - [`server`]: spawning the server binary.
//! - [`load`]: the load generator.

pub mod backends;
pub mod load;
pub mod server;
pub mod site;

use crate::corpus::Corpus;
use crate::plugins::Plugins;
use crate::procfs::{CpuSample, status_kib};
use crate::profile;
use crate::report::Table;
use crate::stages;
use crate::stats::{f, verdict};
use bytes::Bytes;
use load::LoadResult;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::Duration;

/// The CPU per fresh markdown scrape the issue aims for, in ms.
pub const TARGET_CPU_MS: f64 = 0.6;

pub struct Config {
    /// Corpus id of the page to serve.
    pub page_id: String,
    pub server_bin: PathBuf,
    pub plugins_dir: PathBuf,
    pub data_dir: PathBuf,
    /// Unrecorded requests before each phase.
    pub warmup: usize,
    pub phases: Vec<PhaseSpec>,
    /// No phase runs longer than this.
    pub phase_limit: Duration,
    pub stage_iterations: usize,
    /// Profile the server with `perf` during an extra markdown phase.
    pub profile: bool,
}

#[derive(Clone, Copy)]
pub struct PhaseSpec {
    pub format: &'static str,
    /// Default `maxAge`: after the warm-up stored the response, every timed
    /// request is a cache hit. Otherwise `maxAge: 0` (a fresh scrape).
    pub cached: bool,
    pub concurrency: usize,
    pub requests: usize,
}

pub struct Phase {
    pub spec: PhaseSpec,
    pub load: LoadResult,
}

pub struct Results {
    pub page_id: String,
    pub page_url: String,
    pub page_type: String,
    pub page_bytes: usize,
    pub cleaned_bytes: usize,
    pub markdown_bytes: usize,
    pub startup: Duration,
    pub warmup: usize,
    pub rss_start_kib: Option<u64>,
    pub idle_cpu_ms_per_s: f64,
    pub phases: Vec<Phase>,
    pub peak_rss_kib: Option<u64>,
    pub stages: stages::Results,
    /// The `perf` profile, or why there is none.
    pub profile: Result<profile::Profile, String>,
    /// Store bytes per 1,000 pages; Redis hits.
    pub backends: backends::Backends,
}

pub async fn run(cfg: &Config, corpus: &Corpus, plugins: &Plugins) -> anyhow::Result<Results> {
    let page = corpus
        .pages
        .iter()
        .find(|p| p.id == cfg.page_id)
        .ok_or_else(|| anyhow::anyhow!("page {} is not in the corpus", cfg.page_id))?;
    let body = Bytes::from(page.raw.clone());

    eprintln!("  stage timings ({} iterations)", cfg.stage_iterations);
    let stages = stages::run(
        plugins,
        &body,
        &page.url,
        cfg.stage_iterations,
        Duration::from_secs(30),
    )
    .await;

    let site = site::Site::start(body.clone()).await?;
    let server = server::Server::spawn(
        &cfg.server_bin,
        &cfg.plugins_dir,
        &cfg.data_dir,
        Duration::from_secs(60),
    )?;
    eprintln!(
        "  server pid {} at {} (started in {:?})",
        server.pid, server.base_url, server.startup
    );
    let rss_start_kib = status_kib(server.pid, "VmRSS");
    let client = reqwest::Client::builder()
        .no_proxy()
        .tcp_nodelay(true)
        .pool_max_idle_per_host(64)
        .timeout(Duration::from_secs(30))
        .build()?;
    let scrape_url = format!("{}/v2/scrape", server.base_url);
    // Fresh scrapes skip the page cache (`maxAge: 0`); cached phases use the default maxAge.
    let request_with = |format: &str, cached: bool| {
        let mut body = json!({"url": site.page_url(), "formats": [format]});
        if !cached {
            body["maxAge"] = json!(0);
        }
        Bytes::from(body.to_string())
    };
    let request = |format: &str| request_with(format, false);

    // One checked request per format before anything is timed.
    let probe_md = probe(&client, &scrape_url, request("markdown")).await?;
    let markdown_bytes = probe_md["data"]["markdown"].as_str().map(str::len).unwrap_or(0);
    anyhow::ensure!(
        markdown_bytes > 0,
        "the markdown scrape returned no markdown: {probe_md}"
    );
    let probe_html = probe(&client, &scrape_url, request("html")).await?;
    let cleaned_bytes = probe_html["data"]["html"].as_str().map(str::len).unwrap_or(0);

    let mut phases = Vec::new();
    for spec in &cfg.phases {
        let body = request_with(spec.format, spec.cached);
        eprintln!(
            "  {}{} c={}: {} warm-up + {} requests",
            spec.format,
            if spec.cached { " (cached)" } else { "" },
            spec.concurrency,
            cfg.warmup,
            spec.requests
        );
        load::run(
            &client,
            &scrape_url,
            &body,
            spec.concurrency,
            cfg.warmup,
            cfg.phase_limit,
            server.pid,
        )
        .await?;
        let load = load::run(
            &client,
            &scrape_url,
            &body,
            spec.concurrency,
            spec.requests,
            cfg.phase_limit,
            server.pid,
        )
        .await?;
        eprintln!(
            "    {:.0} req/s, p50 {:.2} ms, p99 {:.2} ms, server CPU {:.3} ms/req, {} errors",
            load.requests_per_sec(),
            load.latency_ms.p50,
            load.latency_ms.p99,
            load.server_cpu_ms_per_request(),
            load.errors
        );
        phases.push(Phase { spec: *spec, load });
    }
    let peak_rss_kib = status_kib(server.pid, "VmHWM");
    // Idle cost, after the load (so start-up work such as writing the code cache is over).
    let idle_before = CpuSample::read(server.pid)?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle_after = CpuSample::read(server.pid)?;
    let idle_cpu = idle_after
        .sched_since(&idle_before)
        .unwrap_or_else(|| idle_after.ticks_since(&idle_before));
    let idle_cpu_ms_per_s = idle_cpu.as_secs_f64() * 1e3;

    let startup = server.startup;
    let profile = if cfg.profile {
        eprintln!("  perf profile of markdown scrapes");
        profile_phase(&client, &scrape_url, &request("markdown"), &server, &cfg.data_dir).await
    } else {
        Err("profiling not requested".into())
    };
    drop(server);
    eprintln!(
        "  cache backends: store bytes per {} pages, Redis hits",
        backends::PAGES
    );
    let cached_phases: Vec<(usize, usize)> = cfg
        .phases
        .iter()
        .filter(|p| p.cached && p.format == "markdown")
        .map(|p| (p.concurrency, p.requests))
        .collect();
    let backends = backends::run(
        &backends::Setup {
            bin: &cfg.server_bin,
            plugins_dir: &cfg.plugins_dir,
            data_dir: &cfg.data_dir,
            page_url: site.page_url(),
            warmup: cfg.warmup,
            requests: &cached_phases,
            phase_limit: cfg.phase_limit,
        },
        &client,
    )
    .await;
    drop(site);
    Ok(Results {
        page_id: page.id.clone(),
        page_url: page.url.to_string(),
        page_type: page.page_type.clone(),
        page_bytes: page.raw.len(),
        cleaned_bytes,
        markdown_bytes,
        startup,
        warmup: cfg.warmup,
        rss_start_kib,
        idle_cpu_ms_per_s,
        phases,
        peak_rss_kib,
        stages,
        profile,
        backends,
    })
}

/// An extra markdown phase at concurrency 1 under `perf record`.
async fn profile_phase(
    client: &reqwest::Client,
    url: &str,
    body: &Bytes,
    server: &server::Server,
    data_dir: &std::path::Path,
) -> Result<profile::Profile, String> {
    const SECONDS: u32 = 3;
    let recording = profile::start(server.pid, &data_dir.join("perf.data"), SECONDS)
        .ok_or_else(|| "`perf` is not installed".to_string())?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let limit = Duration::from_secs(SECONDS as u64);
    let _ = load::run(client, url, body, 1, 100_000, limit, server.pid).await;
    tokio::task::spawn_blocking(move || recording.finish(Duration::from_secs(20)))
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| format!("{e:#}"))
}

/// Sends one scrape and returns the parsed body; fails unless it succeeded.
async fn probe(client: &reqwest::Client, url: &str, body: Bytes) -> anyhow::Result<Value> {
    let resp = client
        .post(url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await?;
    let status = resp.status();
    let value: Value = resp.json().await?;
    anyhow::ensure!(
        status.is_success() && value["success"] == true,
        "probe scrape failed: HTTP {status}: {value}"
    );
    Ok(value)
}

/// The server's CPU per request in the first phase matching `format` at concurrency 1.
pub fn cpu_ms_at_c1(r: &Results, format: &str) -> Option<f64> {
    r.phases
        .iter()
        .find(|p| p.spec.format == format && p.spec.concurrency == 1 && !p.spec.cached)
        .map(|p| p.load.server_cpu_ms_per_request())
}

/// The report section.
pub fn to_markdown(r: &Results) -> String {
    let mib = |kib: Option<u64>| {
        kib.map(|k| f(k as f64 / 1024.0, 1))
            .unwrap_or_else(|| "n/a".into())
    };
    let mut out = format!(
        "`target/release/distill` (default configuration, logs at `warn`) scraping corpus page **{}** \
         ({}, {}; {} bytes of HTML, {} bytes of cleaned HTML, {} bytes of markdown), served by a static \
         axum server on 127.0.0.1 inside the bench process. Requests are `POST /v2/scrape` with \
         `{{\"url\": …, \"formats\": [F], \"maxAge\": 0}}` over keep-alive connections (reqwest): \
         `maxAge: 0` makes every scrape fresh (no page-cache lookup). Rows marked *cache hit* send \
         the default `maxAge` instead, so after the warm-up stored the response every timed request \
         is answered from the page cache (embedded store in the data directory). Each phase follows {} unrecorded warm-up requests at \
         the same concurrency. Server CPU is utime+stime of the server process from `/proc/PID/stat` \
         over the phase divided by the requests (the per-thread `schedstat` sum, ns resolution, in \
         brackets); the load generator and the static site run in the bench process, whose own CPU \
         is listed separately. The machine has 2 cores shared by the server, the bench process and \
         anything else running.\n\n",
        r.page_id, r.page_type, r.page_url, r.page_bytes, r.cleaned_bytes, r.markdown_bytes, r.warmup,
    );
    let mut t = Table::new(&[
        "formats",
        "concurrency",
        "requests",
        "errors",
        "req/s",
        "p50 ms",
        "p99 ms",
        "server CPU ms/req",
        "bench-process CPU ms/req",
        "target < 0.6 ms CPU",
    ]);
    for p in &r.phases {
        let l = &p.load;
        let cpu = l.server_cpu_ms_per_request();
        t.row([
            format!(
                "`[\"{}\"]`{}",
                p.spec.format,
                if p.spec.cached { " *cache hit*" } else { "" }
            ),
            p.spec.concurrency.to_string(),
            format!(
                "{}{}",
                l.requests,
                if l.hit_time_limit { " (time limit)" } else { "" }
            ),
            l.errors.to_string(),
            f(l.requests_per_sec(), 0),
            f(l.latency_ms.p50, 2),
            f(l.latency_ms.p99, 2),
            format!(
                "{} ({})",
                f(cpu, 3),
                l.server_sched_ms_per_request()
                    .map(|v| f(v, 3))
                    .unwrap_or_else(|| "n/a".into())
            ),
            f(l.bench_cpu_ms_per_request(), 3),
            if p.spec.format == "markdown" && !p.spec.cached {
                verdict(cpu < TARGET_CPU_MS).to_string()
            } else {
                "–".into()
            },
        ]);
    }
    out.push_str(&t.to_markdown());
    for p in r.phases.iter().filter(|p| p.load.first_error.is_some()) {
        out.push_str(&format!(
            "\nFirst error at `{}` c={}: `{}`\n",
            p.spec.format,
            p.spec.concurrency,
            p.load.first_error.as_deref().unwrap_or_default()
        ));
    }
    out.push_str(&format!(
        "\nServer memory: {} MiB resident after start-up, **peak RSS (VmHWM) {} MiB** over the whole \
         run. Start-up to listening: {} ms (this includes compiling the plugin when wasmtime's code cache is cold, as after a rebuild). Idle CPU after the load (epoch ticker etc.): {} ms per second.\n\n",
        mib(r.rss_start_kib),
        mib(r.peak_rss_kib),
        r.startup.as_millis(),
        f(r.idle_cpu_ms_per_s, 2)
    ));
    out.push_str(&backends_markdown(r));
    out.push_str("### Where the time goes\n\n");
    out.push_str(&stages::to_markdown(
        &r.stages,
        cpu_ms_at_c1(r, "markdown"),
        cpu_ms_at_c1(r, "html"),
    ));
    out.push('\n');
    match &r.profile {
        Ok(p) => out.push_str(&profile::to_markdown(p)),
        Err(why) => out.push_str(&format!("No `perf` profile: {why}.\n")),
    }
    out
}

/// The cache backends subsection: Redis hits beside the embedded store's,
/// store bytes per 1,000 pages.
fn backends_markdown(r: &Results) -> String {
    let mut out = String::from("### Page cache: backends and size\n\n");
    let fresh = |c: usize| {
        r.phases
            .iter()
            .find(|p| p.spec.format == "markdown" && !p.spec.cached && p.spec.concurrency == c)
    };
    let embedded = |c: usize| {
        r.phases
            .iter()
            .find(|p| p.spec.format == "markdown" && p.spec.cached && p.spec.concurrency == c)
    };
    let mut t = Table::new(&[
        "markdown scrape",
        "concurrency",
        "req/s",
        "p50 ms",
        "server CPU ms/req",
        "req/s vs fresh",
    ]);
    let mut row = |name: String, c: usize, l: &LoadResult| {
        let ratio = fresh(c)
            .map(|fr| {
                format!(
                    "{}×",
                    f(l.requests_per_sec() / fr.load.requests_per_sec().max(1e-9), 1)
                )
            })
            .unwrap_or_else(|| "–".into());
        t.row([
            name,
            c.to_string(),
            f(l.requests_per_sec(), 0),
            f(l.latency_ms.p50, 2),
            f(l.server_cpu_ms_per_request(), 3),
            ratio,
        ]);
    };
    for c in [1, 16] {
        if let Some(p) = fresh(c) {
            row("fresh (`maxAge: 0`)".into(), c, &p.load);
        }
        if let Some(p) = embedded(c) {
            row("hit, embedded store".into(), c, &p.load);
        }
        if let Ok(redis) = &r.backends.redis
            && let Some((_, l)) = redis.phases.iter().find(|(pc, _)| *pc == c)
        {
            row(format!("hit, Redis {}", redis.version), c, l);
        }
    }
    out.push_str(&t.to_markdown());
    if let Err(why) = &r.backends.redis {
        out.push_str(&format!("\nNo Redis figures: {why}.\n"));
    } else {
        out.push_str(
            "\nRedis: a `redis-server --save \"\" --appendonly no` on a free loopback port, the server \
             started with `DISTILL_CACHE_URL`; hits after the same warm-up as the embedded phases.\n",
        );
    }
    match &r.backends.store {
        Ok(s) => out.push_str(&format!(
            "\nEmbedded store size: {} scrapes of distinct URLs serving this page (default `maxAge`, \
             so each stores a page entry and a result entry) into a fresh data directory left \
             `cache.redb` at **{} MiB, {} KiB per cached page** ({} errors).\n\n",
            s.pages,
            f(
                s.file_bytes as f64 / (1 << 20) as f64 * 1000.0 / s.pages.max(1) as f64,
                1
            ),
            f(s.file_bytes as f64 / 1024.0 / s.pages.max(1) as f64, 1),
            s.errors
        )),
        Err(why) => out.push_str(&format!("\nNo store-size figure: {why}.\n\n")),
    }
    out
}
