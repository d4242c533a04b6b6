//! The page cache beyond the main phases: how many bytes the embedded store
//! takes per 1,000 cached pages (1,000 distinct URLs serving the benchmark
//! page, scraped with the default `maxAge` into a fresh data directory), and
//! cache hits served by the Redis backend (a `redis-server` on a free
//! loopback port, as the tests start it) beside the embedded store's.

use super::load::{self, LoadResult};
use super::server::Server;
use crate::redis_server::Redis;
use bytes::Bytes;
use serde_json::json;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

/// Pages stored for the size figure.
pub const PAGES: usize = 1000;

pub struct StoreBytes {
    pub pages: usize,
    pub errors: usize,
    /// Size of `cache.redb` after the writes.
    pub file_bytes: u64,
}

/// Hits from Redis at each concurrency.
pub struct RedisHits {
    pub version: String,
    pub phases: Vec<(usize, LoadResult)>,
}

pub struct Backends {
    pub store: Result<StoreBytes, String>,
    pub redis: Result<RedisHits, String>,
}

pub struct Setup<'a> {
    pub bin: &'a Path,
    pub plugins_dir: &'a Path,
    pub data_dir: &'a Path,
    pub page_url: String,
    pub warmup: usize,
    pub requests: &'a [(usize, usize)],
    pub phase_limit: Duration,
}

pub async fn run(s: &Setup<'_>, client: &reqwest::Client) -> Backends {
    Backends {
        store: store_bytes(s, client).await.map_err(|e| format!("{e:#}")),
        redis: redis_hits(s, client).await,
    }
}

/// The compiled-plugin cache of the main server, shared so start-up is quick.
fn shared_env(s: &Setup<'_>) -> Vec<(&'static str, String)> {
    vec![(
        "DISTILL_WASM_CACHE_DIR",
        s.data_dir.join("wasm-cache").to_string_lossy().into_owned(),
    )]
}

async fn store_bytes(s: &Setup<'_>, client: &reqwest::Client) -> anyhow::Result<StoreBytes> {
    let dir = s.data_dir.join("store-bytes");
    let _ = std::fs::remove_dir_all(&dir);
    let server = Server::spawn_with_env(
        s.bin,
        s.plugins_dir,
        &dir,
        Duration::from_secs(120),
        &shared_env(s),
    )?;
    let url = format!("{}/v2/scrape", server.base_url);
    let errors = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..16 {
        let (client, url, page) = (client.clone(), url.clone(), s.page_url.clone());
        let (errors, next) = (errors.clone(), next.clone());
        workers.push(tokio::spawn(async move {
            loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= PAGES {
                    break;
                }
                let body = json!({ "url": format!("{page}?page={i}"), "formats": ["markdown"] });
                let ok = client
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(body.to_string())
                    .send()
                    .await
                    .is_ok_and(|r| r.status().is_success());
                if !ok {
                    errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            }
        }));
    }
    for w in workers {
        w.await?;
    }
    // The writer thread commits within moments; the flusher makes it durable within a second.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let file_bytes = std::fs::metadata(dir.join("cache").join("cache.redb"))?.len();
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(StoreBytes {
        pages: PAGES,
        errors: errors.load(std::sync::atomic::Ordering::Relaxed),
        file_bytes,
    })
}

async fn redis_hits(s: &Setup<'_>, client: &reqwest::Client) -> Result<RedisHits, String> {
    let redis = Redis::start()?;
    let version = Command::new("redis-server")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|v| {
            v.split_whitespace()
                .find_map(|w| w.strip_prefix("v=").map(str::to_string))
        })
        .unwrap_or_else(|| "?".into());
    let dir = s.data_dir.join("redis-backend");
    let _ = std::fs::remove_dir_all(&dir);
    let mut env = shared_env(s);
    env.push(("DISTILL_CACHE_URL", redis.url()));
    let server = Server::spawn_with_env(s.bin, s.plugins_dir, &dir, Duration::from_secs(120), &env)
        .map_err(|e| format!("{e:#}"))?;
    let url = format!("{}/v2/scrape", server.base_url);
    let body = Bytes::from(json!({ "url": s.page_url, "formats": ["markdown"] }).to_string());
    let mut phases = Vec::new();
    for &(concurrency, requests) in s.requests {
        load::run(
            client,
            &url,
            &body,
            concurrency,
            s.warmup,
            s.phase_limit,
            server.pid,
        )
        .await
        .map_err(|e| e.to_string())?;
        let result = load::run(
            client,
            &url,
            &body,
            concurrency,
            requests,
            s.phase_limit,
            server.pid,
        )
        .await
        .map_err(|e| e.to_string())?;
        eprintln!(
            "    redis hits c={concurrency}: {:.0} req/s, server CPU {:.3} ms/req",
            result.requests_per_sec(),
            result.server_cpu_ms_per_request()
        );
        phases.push((concurrency, result));
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(RedisHits { version, phases })
}
