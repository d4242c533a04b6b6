//! The load generator: `concurrency` tasks sharing one keep-alive reqwest
//! client post the same scrape request until `total` requests have been sent
//! or `time_limit` has passed; records per-request latency and the server's
//! CPU time over the run.

use crate::procfs::{CpuSample, self_cpu};
use crate::stats::Summary;
use bytes::Bytes;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One measured phase.
pub struct LoadResult {
    /// Requests that completed (successfully or not).
    pub requests: usize,
    pub errors: usize,
    pub first_error: Option<String>,
    pub elapsed: Duration,
    /// Latency of successful requests, in ms.
    pub latency_ms: Summary,
    /// Server CPU (utime+stime) over the phase.
    pub server_cpu: Duration,
    /// Server CPU from per-thread schedstat (ns resolution), if readable.
    pub server_cpu_sched: Option<Duration>,
    /// This process's CPU (load generator + static site) over the phase.
    pub bench_cpu: Duration,
    /// Whether the time limit cut the phase short.
    pub hit_time_limit: bool,
}

impl LoadResult {
    pub fn requests_per_sec(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
    pub fn server_cpu_ms_per_request(&self) -> f64 {
        self.server_cpu.as_secs_f64() * 1e3 / self.requests.max(1) as f64
    }
    pub fn server_sched_ms_per_request(&self) -> Option<f64> {
        Some(self.server_cpu_sched?.as_secs_f64() * 1e3 / self.requests.max(1) as f64)
    }
    pub fn bench_cpu_ms_per_request(&self) -> f64 {
        self.bench_cpu.as_secs_f64() * 1e3 / self.requests.max(1) as f64
    }
}

/// Sends `total` POSTs of `body` to `url` from `concurrency` tasks.
pub async fn run(
    client: &reqwest::Client,
    url: &str,
    body: &Bytes,
    concurrency: usize,
    total: usize,
    time_limit: Duration,
    server_pid: u32,
) -> anyhow::Result<LoadResult> {
    let next = Arc::new(AtomicUsize::new(0));
    let url: Arc<str> = Arc::from(url);
    let before = CpuSample::read(server_pid)?;
    let bench_before = self_cpu();
    let started = Instant::now();
    let end = started + time_limit;
    let mut workers = Vec::with_capacity(concurrency);
    for _ in 0..concurrency.max(1) {
        let (client, url, body, next) = (client.clone(), url.clone(), body.clone(), next.clone());
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let (mut errors, mut first_error) = (0usize, None::<String>);
            while next.fetch_add(1, Ordering::Relaxed) < total && Instant::now() < end {
                let t = Instant::now();
                match send(&client, &url, body.clone()).await {
                    Ok(()) => latencies.push(t.elapsed()),
                    Err(e) => {
                        errors += 1;
                        first_error.get_or_insert(e);
                    }
                }
            }
            (latencies, errors, first_error)
        }));
    }
    let mut latencies = Vec::with_capacity(total);
    let (mut errors, mut first_error) = (0, None);
    for w in workers {
        let (l, e, fe) = w.await?;
        latencies.extend(l);
        errors += e;
        if first_error.is_none() {
            first_error = fe;
        }
    }
    let elapsed = started.elapsed();
    let bench_cpu = self_cpu().saturating_sub(bench_before);
    let after = CpuSample::read(server_pid)?;
    let requests = latencies.len() + errors;
    Ok(LoadResult {
        requests,
        errors,
        first_error,
        elapsed,
        latency_ms: {
            let mut ms: Vec<f64> = latencies.iter().map(|d| d.as_secs_f64() * 1e3).collect();
            Summary::of(&mut ms)
        },
        server_cpu: after.ticks_since(&before),
        server_cpu_sched: after.sched_since(&before),
        bench_cpu,
        hit_time_limit: requests < total,
    })
}

/// One scrape; any non-200 answer is an error.
pub async fn send(client: &reqwest::Client, url: &str, body: Bytes) -> Result<(), String> {
    let resp = client
        .post(url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .map_err(|e| format!("{e}"))?;
    let status = resp.status();
    let bytes = resp.bytes().await.map_err(|e| format!("{e}"))?;
    if status != reqwest::StatusCode::OK {
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(300)]).into_owned();
        return Err(format!("HTTP {status}: {text}"));
    }
    Ok(())
}
