//! Benchmark 9: the browser engine. The server binary with Chromium scrapes a
//! static local page (no scripts) through the browser (`waitFor: 1` selects
//! it): time from spawn to the first browser page, latency p50/p95 and
//! pages/s at concurrency 1 and 4, and the memory (PSS, from
//! /proc/PID/smaps_rollup) of the server plus its Chromium tree at rest with
//! the browser warm and at its peak under load, with the process count.

use crate::report::Table;
use crate::scrape::server::Server;
use crate::scrape::site::Site;
use crate::stats::{f, percentile_sorted};
use bytes::Bytes;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub struct Config {
    pub server_bin: PathBuf,
    pub plugins_dir: PathBuf,
    pub data_dir: PathBuf,
    pub requests_c1: usize,
    pub requests_c4: usize,
}

/// One load phase.
pub struct Phase {
    pub concurrency: usize,
    pub requests: usize,
    pub failed: usize,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub pages_per_sec: f64,
}

pub struct Results {
    /// Spawn to "listening" (plugins loaded).
    pub startup_ms: f64,
    /// Spawn to the first browser page's answer.
    pub first_page_ms: f64,
    pub phases: Vec<Phase>,
    pub rest_mib: f64,
    pub rest_procs: usize,
    pub rest_chromium_mib: f64,
    pub peak_mib: f64,
    pub after_mib: f64,
}

/// A small static article, no scripts.
fn page() -> Bytes {
    let mut html = String::from(
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>Static page</title></head><body><main><h1>Static page</h1>",
    );
    for i in 0..40 {
        html.push_str(&format!(
            "<p>Paragraph {i}: plain text with a <a href=\"/p{i}\">link</a> and <b>some</b> markup.</p>"
        ));
    }
    html.push_str("</main></body></html>");
    Bytes::from(html)
}

/// Processes of `root`'s tree, with their PSS in KiB.
fn tree_pss(root: u32) -> Vec<(u32, u64)> {
    let mut children: std::collections::HashMap<u32, Vec<u32>> = Default::default();
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for entry in dir.flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
            if let Some(ppid) = ppid {
                children.entry(ppid).or_default().push(pid);
            }
        }
    }
    let mut out = Vec::new();
    let mut todo = vec![root];
    while let Some(pid) = todo.pop() {
        let pss = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("Pss:"))
                    .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            })
            .unwrap_or(0);
        out.push((pid, pss));
        todo.extend(children.get(&pid).cloned().unwrap_or_default());
    }
    out
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

async fn scrape(client: &reqwest::Client, server: &str, body: &str) -> Result<Duration, String> {
    let started = Instant::now();
    let resp = client
        .post(format!("{server}/v2/scrape"))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = resp.status();
    let text = resp.text().await.map_err(|e| e.to_string())?;
    if !status.is_success() || !text.contains("Static page") {
        return Err(format!("{status}: {}", &text[..text.len().min(300)]));
    }
    Ok(started.elapsed())
}

async fn phase(
    client: &reqwest::Client,
    server: &str,
    body: &str,
    concurrency: usize,
    requests: usize,
) -> Phase {
    let next = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..concurrency {
        let (client, server, body, next) =
            (client.clone(), server.to_string(), body.to_string(), next.clone());
        workers.push(tokio::spawn(async move {
            let mut times = Vec::new();
            let mut failed = 0;
            while (next.fetch_add(1, Ordering::Relaxed) as usize) < requests {
                match scrape(&client, &server, &body).await {
                    Ok(t) => times.push(t.as_secs_f64() * 1000.0),
                    Err(e) => {
                        failed += 1;
                        eprintln!("  browser scrape failed: {e}");
                    }
                }
            }
            (times, failed)
        }));
    }
    let mut times = Vec::new();
    let mut failed = 0;
    for w in workers {
        let (t, f) = w.await.unwrap_or_default();
        times.extend(t);
        failed += f;
    }
    let elapsed = started.elapsed().as_secs_f64();
    times.sort_by(|a, b| a.total_cmp(b));
    Phase {
        concurrency,
        requests,
        failed,
        p50_ms: percentile_sorted(&times, 50.0),
        p95_ms: percentile_sorted(&times, 95.0),
        pages_per_sec: times.len() as f64 / elapsed,
    }
}

pub async fn run(cfg: &Config) -> anyhow::Result<Results> {
    anyhow::ensure!(
        std::path::Path::new("/usr/bin/chromium").is_file() || std::env::var_os("DISTILL_CHROMIUM").is_some(),
        "no Chromium (make setup installs Debian's chromium)"
    );
    let site = Site::start(page()).await?;
    let body =
        serde_json::json!({"url": site.page_url(), "formats": ["markdown"], "waitFor": 1, "maxAge": 0})
            .to_string();
    let client = reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(60))
        .build()?;
    let spawned = Instant::now();
    let mut env = Vec::new();
    if let Some(chromium) = std::env::var_os("DISTILL_CHROMIUM") {
        env.push(("DISTILL_CHROMIUM", chromium.to_string_lossy().into_owned()));
    }
    let server = Server::spawn_with_env(
        &cfg.server_bin,
        &cfg.plugins_dir,
        &cfg.data_dir.join("browser"),
        Duration::from_secs(60),
        &env,
    )?;
    scrape(&client, &server.base_url, &body)
        .await
        .map_err(|e| anyhow::anyhow!("first browser scrape: {e}"))?;
    let first_page_ms = spawned.elapsed().as_secs_f64() * 1000.0;
    let startup = server.startup;
    // Warm, then at rest.
    for _ in 0..5 {
        let _ = scrape(&client, &server.base_url, &body).await;
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let rest = tree_pss(server.pid);
    let server_kib = rest.first().map(|(_, k)| *k).unwrap_or(0);
    let rest_kib: u64 = rest.iter().map(|(_, k)| k).sum();

    let peak = Arc::new(AtomicU64::new(0));
    let sampling = Arc::new(AtomicBool::new(true));
    let sampler = {
        let (peak, sampling, pid) = (peak.clone(), sampling.clone(), server.pid);
        std::thread::spawn(move || {
            while sampling.load(Ordering::Relaxed) {
                let total: u64 = tree_pss(pid).iter().map(|(_, k)| k).sum();
                peak.fetch_max(total, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(250));
            }
        })
    };
    let mut phases = Vec::new();
    for (c, n) in [(1, cfg.requests_c1), (4, cfg.requests_c4)] {
        phases.push(phase(&client, &server.base_url, &body, c, n).await);
    }
    sampling.store(false, Ordering::Relaxed);
    let _ = sampler.join();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after_kib: u64 = tree_pss(server.pid).iter().map(|(_, k)| k).sum();
    drop(server);
    drop(site);
    Ok(Results {
        startup_ms: startup.as_secs_f64() * 1000.0,
        first_page_ms,
        phases,
        rest_mib: mib(rest_kib),
        rest_procs: rest.len(),
        rest_chromium_mib: mib(rest_kib - server_kib),
        peak_mib: mib(peak.load(Ordering::Relaxed)),
        after_mib: mib(after_kib),
    })
}

pub fn to_markdown(r: &Results) -> String {
    let mut out = String::from(
        "The server scrapes a static local page (2.9 KB, no scripts) through Chromium \
         (`waitFor: 1` selects the browser engine; `maxAge: 0`). Memory is PSS of the server \
         and its Chromium tree.\n\n",
    );
    let mut t = Table::new(&["concurrency", "requests", "failed", "p50 ms", "p95 ms", "pages/s"]);
    for p in &r.phases {
        t.row([
            p.concurrency.to_string(),
            p.requests.to_string(),
            p.failed.to_string(),
            f(p.p50_ms, 1),
            f(p.p95_ms, 1),
            f(p.pages_per_sec, 1),
        ]);
    }
    out.push_str(&t.to_markdown());
    let c1 = r.phases.first().map(|p| p.p50_ms).unwrap_or(0.0);
    out.push_str(&format!(
        "\n- Spawn to the first browser page: {} ms, of which {} ms to \"listening\" (plugins loaded) \
         and {} ms the first browser scrape (Chromium launched on first need)\n\
         - Aim p50 ≤ 150 ms at c=1: {} ms — {}\n\
         - At rest with the browser warm: {} MiB in {} processes (server {} MiB, Chromium {} MiB) — aim ≤ 300 MiB: {}\n\
         - Peak under load: {} MiB; 3 s after the load: {} MiB\n",
        f(r.first_page_ms, 0),
        f(r.startup_ms, 0),
        f(r.first_page_ms - r.startup_ms, 0),
        f(c1, 1),
        if c1 <= 150.0 { "met" } else { "missed" },
        f(r.rest_mib, 0),
        r.rest_procs,
        f(r.rest_mib - r.rest_chromium_mib, 0),
        f(r.rest_chromium_mib, 0),
        if r.rest_mib <= 300.0 { "met" } else { "missed" },
        f(r.peak_mib, 0),
        f(r.after_mib, 0),
    ));
    out
}
