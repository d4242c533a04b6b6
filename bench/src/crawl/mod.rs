//! Crawl throughput: the server binary crawls a generated site of `pages`
//! pages ([`site`], served from this process) at `scrapeOptions.formats:
//! ["markdown"]`, first alone on its embedded queue, then two servers on
//! one `redis-server` (`DISTILL_QUEUE_URL`). Reported: pages/s, server CPU
//! per page, RSS over the crawl; the time `/v2/map` takes on the site's
//! sitemap; memory held per queued URL (a crawl whose sitemap queued every
//! page but whose `delay` keeps it from scraping more than one).

pub mod site;

use crate::procfs::{CpuSample, status_kib};
use crate::redis_server::Redis;
use crate::scrape::server::Server;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub struct Config {
    pub server_bin: PathBuf,
    pub plugins_dir: PathBuf,
    pub data_dir: PathBuf,
    pub pages: usize,
    /// Environment every server gets (the caps the crawl runs under).
    pub env: Vec<(&'static str, String)>,
}

/// One crawl.
pub struct CrawlRun {
    pub label: String,
    pub pages: u64,
    pub wall: Duration,
    pub cpu: Duration,
    pub peak_rss_mib: f64,
    /// RSS of the first server at 0/25/50/75/100 % of the pages: pages
    /// done, VmRSS MiB, RssAnon MiB (heap and pool slots, without mapped code).
    pub rss_track: Vec<(u64, f64, f64)>,
}

/// Memory a queue holds per queued URL.
pub struct QueueMemory {
    pub backend: &'static str,
    pub queued: u64,
    pub rss_bytes_per_url: f64,
    /// redb file growth (embedded) or Redis `used_memory` growth (redis).
    pub store_bytes_per_url: f64,
}

pub struct Results {
    pub pages: usize,
    pub env: Vec<(&'static str, String)>,
    pub crawls: Vec<CrawlRun>,
    pub map: Option<(Duration, usize)>,
    pub memory: Vec<QueueMemory>,
    pub notes: Vec<String>,
}

/// Redis's `used_memory` (bytes), from `redis-cli info memory`.
fn used_memory(redis: &Redis) -> Option<u64> {
    let out = Command::new("redis-cli")
        .args(["-p", &redis.port.to_string(), "info", "memory"])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("used_memory:")?.trim().parse().ok())
}

fn rss_mib(pid: u32) -> f64 {
    status_kib(pid, "VmRSS").unwrap_or(0) as f64 / 1024.0
}

fn anon_mib(pid: u32) -> f64 {
    status_kib(pid, "RssAnon").unwrap_or(0) as f64 / 1024.0
}

fn spawn(cfg: &Config, name: &str, extra: &[(&'static str, String)]) -> anyhow::Result<Server> {
    let dir = cfg.data_dir.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let mut env = cfg.env.clone();
    // Compiled plugins shared by every server of the run (the first compiles them).
    let wasm_cache = cfg.data_dir.join("wasm-cache").to_string_lossy().into_owned();
    env.push(("DISTILL_WASM_CACHE_DIR", wasm_cache));
    env.extend(extra.iter().cloned());
    Server::spawn_with_env(
        &cfg.server_bin,
        &cfg.plugins_dir,
        &dir,
        Duration::from_secs(300),
        &env,
    )
}

async fn post(client: &reqwest::Client, url: &str, body: Value) -> anyhow::Result<Value> {
    let r = client.post(url).json(&body).send().await?;
    let status = r.status();
    let json: Value = r.json().await?;
    anyhow::ensure!(status.is_success(), "{url}: {status} {json}");
    Ok(json)
}

async fn status(client: &reqwest::Client, base: &str, id: &str) -> anyhow::Result<Value> {
    Ok(client
        .get(format!("{base}/v2/crawl/{id}?limit=1"))
        .send()
        .await?
        .json()
        .await?)
}

/// Crawls the site from `servers[0]` and waits for the end.
async fn crawl(
    client: &reqwest::Client,
    label: &str,
    servers: &[Server],
    site: &site::CrawlSite,
    pages: usize,
) -> anyhow::Result<CrawlRun> {
    let before: Vec<CpuSample> = servers
        .iter()
        .map(|s| CpuSample::read(s.pid))
        .collect::<anyhow::Result<_>>()?;
    let started = Instant::now();
    let body = json!({
        "url": site.url("/"), "limit": pages + 10, "maxConcurrency": 64,
        "scrapeOptions": {"formats": ["markdown"], "maxAge": 0},
    });
    let created = post(client, &format!("{}/v2/crawl", servers[0].base_url), body).await?;
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let mut peak: f64 = 0.0;
    let mut track = vec![(0u64, rss_mib(servers[0].pid), anon_mib(servers[0].pid))];
    let deadline = started + Duration::from_secs(900);
    let done = loop {
        let s = status(client, &servers[0].base_url, &id).await?;
        for srv in servers {
            peak = peak.max(rss_mib(srv.pid));
        }
        let completed = s["completed"].as_u64().unwrap_or(0);
        let next_mark = pages as u64 * track.len() as u64 / 4;
        if track.len() < 4 && completed >= next_mark {
            track.push((completed, rss_mib(servers[0].pid), anon_mib(servers[0].pid)));
        }
        if s["status"] != json!("scraping") {
            break s;
        }
        anyhow::ensure!(Instant::now() < deadline, "crawl {label} did not end: {s}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let wall = started.elapsed();
    track.push((
        done["completed"].as_u64().unwrap_or(0),
        rss_mib(servers[0].pid),
        anon_mib(servers[0].pid),
    ));
    anyhow::ensure!(done["status"] == json!("completed"), "crawl {label}: {done}");
    let mut cpu = Duration::ZERO;
    for (srv, b) in servers.iter().zip(&before) {
        cpu += CpuSample::read(srv.pid)?.ticks_since(b);
    }
    Ok(CrawlRun {
        label: label.to_string(),
        pages: done["creditsUsed"].as_u64().unwrap_or(0),
        wall,
        cpu,
        peak_rss_mib: peak,
        rss_track: track,
    })
}

/// Starts a crawl that queues every sitemap URL but scrapes one page a
/// minute, and measures what the queue holds once they are queued.
async fn queue_memory(
    client: &reqwest::Client,
    server: &Server,
    site: &site::CrawlSite,
    pages: usize,
    store_bytes: impl Fn() -> u64,
    backend: &'static str,
) -> anyhow::Result<QueueMemory> {
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (rss0, store0) = (status_kib(server.pid, "VmRSS").unwrap_or(0), store_bytes());
    let body = json!({"url": site.url("/"), "limit": pages + 10, "delay": 60,
                      "scrapeOptions": {"formats": ["markdown"]}});
    let created = post(client, &format!("{}/v2/crawl", server.base_url), body).await?;
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let deadline = Instant::now() + Duration::from_secs(120);
    let queued = loop {
        let s = status(client, &server.base_url, &id).await?;
        let total = s["total"].as_u64().unwrap_or(0);
        if total >= pages as u64 {
            break total;
        }
        anyhow::ensure!(Instant::now() < deadline, "sitemap never queued: {s}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    tokio::time::sleep(Duration::from_millis(1500)).await; // the embedded queue's flush
    let rss1 = status_kib(server.pid, "VmRSS").unwrap_or(0);
    let store1 = store_bytes();
    let _ = client
        .delete(format!("{}/v2/crawl/{id}", server.base_url))
        .send()
        .await;
    Ok(QueueMemory {
        backend,
        queued,
        rss_bytes_per_url: (rss1 as f64 - rss0 as f64) * 1024.0 / queued as f64,
        store_bytes_per_url: (store1 as f64 - store0 as f64) / queued as f64,
    })
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

pub async fn run(cfg: &Config) -> anyhow::Result<Results> {
    let site = site::CrawlSite::start(cfg.pages).await?;
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()?;
    let mut results = Results {
        pages: cfg.pages,
        env: cfg.env.clone(),
        crawls: Vec::new(),
        map: None,
        memory: Vec::new(),
        notes: Vec::new(),
    };

    eprintln!("  one server, embedded queue");
    {
        let server = spawn(cfg, "one", &[])?;
        results.crawls.push(
            crawl(
                &client,
                "1 server, embedded queue",
                std::slice::from_ref(&server),
                &site,
                cfg.pages,
            )
            .await?,
        );
        eprintln!("  map of the {}-URL sitemap", cfg.pages);
        let started = Instant::now();
        let map = post(
            &client,
            &format!("{}/v2/map", server.base_url),
            json!({"url": site.url("/"), "limit": 100000, "sitemap": "only"}),
        )
        .await?;
        let links = map["links"].as_array().map(|l| l.len()).unwrap_or(0);
        results.map = Some((started.elapsed(), links));
        eprintln!("  queue memory, embedded");
        let redb = cfg.data_dir.join("one").join("jobs").join("jobs.redb");
        results.memory.push(
            queue_memory(
                &client,
                &server,
                &site,
                cfg.pages,
                || file_size(&redb),
                "embedded",
            )
            .await?,
        );
    }

    let redis = match Redis::start() {
        Ok(redis) => redis,
        Err(why) => {
            results
                .notes
                .push(format!("{why}: the shared-queue runs were skipped."));
            return Ok(results);
        }
    };
    eprintln!("  two servers on one redis-server");
    let shared = [("DISTILL_QUEUE_URL", redis.url())];
    let servers = [spawn(cfg, "redis-a", &shared)?, spawn(cfg, "redis-b", &shared)?];
    results
        .crawls
        .push(crawl(&client, "2 servers, one Redis queue", &servers, &site, cfg.pages).await?);
    drop(servers);
    eprintln!("  queue memory, redis");
    let server = spawn(cfg, "redis-mem", &shared)?;
    results.memory.push(
        queue_memory(
            &client,
            &server,
            &site,
            cfg.pages,
            || used_memory(&redis).unwrap_or(0),
            "redis",
        )
        .await?,
    );
    Ok(results)
}

pub fn to_markdown(r: &Results) -> String {
    use crate::stats::f;
    let env: Vec<String> = r.env.iter().map(|(k, v)| format!("`{k}={v}`")).collect();
    let mut out = format!(
        "A crawl from `/` of a generated site of {} pages (about 6 KB of HTML each, every page \
         in `/sitemap.xml` and linked from the one before; served by axum inside the bench \
         process on 127.0.0.1, so its CPU is not counted), `scrapeOptions.formats: [\"markdown\"]`, \
         `maxAge: 0`, `maxConcurrency: 64`; servers run with {}. CPU is the servers' \
         utime+stime over the crawl; RSS is sampled every 200 ms.\n\n\
         | run | documents | wall s | pages/s | CPU s | CPU ms/page | peak RSS MiB | RSS at 0/25/50/75/100 % (MiB) | of it anonymous (MiB) |\n\
         |---|---:|---:|---:|---:|---:|---:|---|---|\n",
        r.pages,
        if env.is_empty() {
            "the defaults".to_string()
        } else {
            env.join(", ")
        }
    );
    for c in &r.crawls {
        let secs = c.wall.as_secs_f64();
        let track: Vec<String> = c.rss_track.iter().map(|(_, m, _)| f(*m, 0)).collect();
        let anon: Vec<String> = c.rss_track.iter().map(|(_, _, a)| f(*a, 0)).collect();
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            c.label,
            c.pages,
            f(secs, 1),
            f(c.pages as f64 / secs, 0),
            f(c.cpu.as_secs_f64(), 1),
            f(c.cpu.as_secs_f64() * 1000.0 / c.pages.max(1) as f64, 2),
            f(c.peak_rss_mib, 0),
            track.join(" / "),
            anon.join(" / ")
        ));
    }
    if let Some((wall, links)) = r.map {
        out.push_str(&format!(
            "\n`/v2/map` with `sitemap: \"only\"` on the {}-URL sitemap: {} links in {} ms.\n",
            r.pages,
            links,
            f(wall.as_secs_f64() * 1000.0, 0)
        ));
    }
    if !r.memory.is_empty() {
        out.push_str(
            "\nMemory held per queued URL (a crawl whose sitemap queued every page, measured before it \
             scraped more than its first page): server RSS growth, and the store's growth (redb file \
             size for the embedded queue, Redis `used_memory` for the shared one).\n\n\
             | queue | URLs queued | server RSS bytes/URL | store bytes/URL |\n|---|---:|---:|---:|\n",
        );
        for m in &r.memory {
            out.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                m.backend,
                m.queued,
                f(m.rss_bytes_per_url, 0),
                f(m.store_bytes_per_url, 0)
            ));
        }
    }
    for n in &r.notes {
        out.push_str(&format!("\n{n}\n"));
    }
    out
}
