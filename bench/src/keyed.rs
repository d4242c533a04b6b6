//! What an API key costs a scrape (issue 14): the same small loopback page
//! ([`crate::crawl::site`], served from this process, `maxAge: 0`) scraped
//! without keys and with a key that has a credit limit (a rate window and a
//! durable credit change per scrape, in the default counters file), one at
//! a time (c=1: mean latency) and sixteen at a time (c=16: requests per
//! second). With `--before-bin` the same is measured for that binary too
//! (e.g. one without the counters' group commit).

use crate::crawl::site::CrawlSite;
use crate::scrape::server::Server;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

pub struct Config {
    pub server_bin: PathBuf,
    pub before_bin: Option<PathBuf>,
    pub plugins_dir: PathBuf,
    pub data_dir: PathBuf,
    /// Scrapes per measurement at c=1; c=16 makes four times as many.
    pub rounds: usize,
}

/// One binary, keyed or not.
pub struct Row {
    pub binary: String,
    pub keyed: bool,
    pub c1_mean_ms: f64,
    pub c16_rps: f64,
    pub c16_mean_ms: f64,
}

/// Creates a key with a credit limit; the key.
fn create_key(bin: &Path, keys_file: &Path) -> anyhow::Result<String> {
    let out = Command::new(bin)
        .env_clear()
        .env("DISTILL_KEYS_FILE", keys_file)
        .args(["keys", "create", "--name", "bench", "--credits", "100000000"])
        .output()?;
    anyhow::ensure!(
        out.status.success(),
        "keys create: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// `n` scrapes of `url`, `concurrency` at a time: (mean latency, wall).
async fn load(
    base: &str,
    key: Option<&str>,
    url: &str,
    concurrency: usize,
    n: usize,
) -> anyhow::Result<(f64, Duration)> {
    let client = reqwest::Client::new();
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let workers: Vec<_> = (0..concurrency)
        .map(|_| {
            let (client, next) = (client.clone(), next.clone());
            let (endpoint, key) = (format!("{base}/v2/scrape"), key.map(str::to_string));
            let body = json!({"url": url, "formats": ["markdown"], "maxAge": 0});
            tokio::spawn(async move {
                let mut total = Duration::ZERO;
                while next.fetch_add(1, Ordering::Relaxed) < n {
                    let mut request = client.post(&endpoint).json(&body);
                    if let Some(key) = &key {
                        request = request.bearer_auth(key);
                    }
                    let t = Instant::now();
                    let r = request.send().await?;
                    let status = r.status();
                    r.bytes().await?;
                    anyhow::ensure!(status.is_success(), "scrape answered {status}");
                    total += t.elapsed();
                }
                Ok::<_, anyhow::Error>(total)
            })
        })
        .collect();
    let mut total = Duration::ZERO;
    for w in workers {
        total += w.await??;
    }
    Ok((total.as_secs_f64() * 1000.0 / n as f64, started.elapsed()))
}

async fn measure(cfg: &Config, bin: &Path, keyed: bool, url: &str) -> anyhow::Result<Row> {
    let name = format!(
        "{}-{}",
        if Some(bin) == cfg.before_bin.as_deref() {
            "before"
        } else {
            "after"
        },
        if keyed { "keyed" } else { "anonymous" }
    );
    let dir = cfg.data_dir.join(&name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let keys_file = dir.join("keys.json");
    let mut env = vec![];
    let key = if keyed {
        env.push(("DISTILL_KEYS_FILE", keys_file.to_string_lossy().into_owned()));
        Some(create_key(bin, &keys_file)?)
    } else {
        None
    };
    let server = Server::spawn_with_env(bin, &cfg.plugins_dir, &dir, Duration::from_secs(120), &env)?;
    let base = server.base_url.clone();
    // Warm-up: plugin instances, connections, the counters file.
    load(&base, key.as_deref(), url, 4, 40).await?;
    let (c1_mean_ms, _) = load(&base, key.as_deref(), url, 1, cfg.rounds).await?;
    let n16 = cfg.rounds * 4;
    let (c16_mean_ms, wall) = load(&base, key.as_deref(), url, 16, n16).await?;
    Ok(Row {
        binary: name.split('-').next().unwrap_or_default().to_string(),
        keyed,
        c1_mean_ms,
        c16_rps: n16 as f64 / wall.as_secs_f64(),
        c16_mean_ms,
    })
}

pub async fn run(cfg: &Config) -> anyhow::Result<Vec<Row>> {
    let site = CrawlSite::start(8).await?;
    let url = site.url("/p/1");
    let mut bins = vec![cfg.server_bin.clone()];
    bins.extend(cfg.before_bin.clone());
    let mut rows = Vec::new();
    for bin in &bins {
        for keyed in [false, true] {
            rows.push(measure(cfg, bin, keyed, &url).await?);
        }
    }
    Ok(rows)
}

pub fn to_markdown(rows: &[Row]) -> String {
    let mut out = String::from(
        "A ~6 KB loopback page, `formats: [\"markdown\"]`, `maxAge: 0`; keyed: a key with a credit \
         limit (counters in the default file). c=1: mean latency; c=16: requests per second and \
         mean latency.\n\n| binary | key | c=1 mean ms | c=16 req/s | c=16 mean ms |\n|---|---|---|---|---|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {:.2} | {:.0} | {:.2} |\n",
            r.binary,
            if r.keyed { "yes" } else { "no" },
            r.c1_mean_ms,
            r.c16_rps,
            r.c16_mean_ms
        ));
    }
    out
}
