//! Timing loops: conversions through the server over HTTP, and `pdftotext`
//! as a child process, each bounded by a count and a time budget.

use crate::procfs::CpuSample;
use crate::scrape::server::Server;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `count` conversions in `wall` time, using `cpu` of CPU time (when known).
pub struct Rate {
    pub count: usize,
    pub wall: Duration,
    pub cpu: Option<Duration>,
}

/// One upload to `/v2/parse`; the response's `data`, or an error with its message.
pub async fn parse(client: &reqwest::Client, base: &str, name: &str, bytes: &[u8]) -> anyhow::Result<Value> {
    let part = reqwest::multipart::Part::bytes(bytes.to_vec()).file_name(name.to_string());
    let form = reqwest::multipart::Form::new().part("file", part);
    let resp = client
        .post(format!("{base}/v2/parse"))
        .multipart(form)
        .send()
        .await?;
    let status = resp.status();
    let body: Value = resp.json().await?;
    if !status.is_success() {
        anyhow::bail!("HTTP {status}: {}", body["error"].as_str().unwrap_or("?"));
    }
    Ok(body["data"].clone())
}

/// Converts `name` up to `rounds` times (within `budget`), one request at a time.
pub async fn server_rate(
    client: &reqwest::Client,
    server: &Server,
    name: &str,
    bytes: &[u8],
    rounds: usize,
    budget: Duration,
) -> anyhow::Result<Rate> {
    let cpu_before = CpuSample::read(server.pid)?;
    let started = Instant::now();
    let mut count = 0;
    while count < rounds && started.elapsed() < budget {
        parse(client, &server.base_url, name, bytes).await?;
        count += 1;
    }
    let wall = started.elapsed();
    let cpu = CpuSample::read(server.pid)
        .ok()
        .map(|after| after.ticks_since(&cpu_before));
    Ok(Rate { count, wall, cpu })
}

/// CPU time (user + system) of this process's waited-for children so far.
fn children_cpu() -> Duration {
    // SAFETY: getrusage writes into the struct we pass and nothing else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, (t.tv_usec as u32) * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// `pdftotext -layout FILE -` up to `rounds` times; `None` when it is not installed.
pub fn pdftotext_rate(file: &Path, rounds: usize, budget: Duration) -> Option<Rate> {
    let cpu_before = children_cpu();
    let started = Instant::now();
    let mut count = 0;
    while count < rounds && started.elapsed() < budget {
        let status = Command::new("pdftotext")
            .args(["-layout"])
            .arg(file)
            .arg("-")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .ok()?;
        if !status.success() {
            return None;
        }
        count += 1;
    }
    Some(Rate {
        count,
        wall: started.elapsed(),
        cpu: Some(children_cpu() - cpu_before),
    })
}
