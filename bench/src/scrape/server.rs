//! Starting and stopping the `distill` server binary for the load benchmark:
//! port 0 on 127.0.0.1, private targets allowed (the page is on loopback),
//! the bench plugins directory and data directory, warn-level logs to a file.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const READY_PREFIX: &str = "distill listening on http://";

/// A running server process; killed when dropped.
pub struct Server {
    child: Child,
    pub pid: u32,
    /// `http://127.0.0.1:PORT`
    pub base_url: String,
    /// From spawn to the "listening" line.
    pub startup: Duration,
    pub log_path: PathBuf,
}

impl Server {
    /// Spawns `bin` and waits (at most `timeout`) for it to print its address.
    pub fn spawn(
        bin: &Path,
        plugins_dir: &Path,
        data_dir: &Path,
        timeout: Duration,
    ) -> anyhow::Result<Server> {
        Server::spawn_with_env(bin, plugins_dir, data_dir, timeout, &[])
    }

    /// [`Server::spawn`] with extra environment variables (e.g. the model's).
    pub fn spawn_with_env(
        bin: &Path,
        plugins_dir: &Path,
        data_dir: &Path,
        timeout: Duration,
        env: &[(&str, String)],
    ) -> anyhow::Result<Server> {
        anyhow::ensure!(
            bin.is_file(),
            "server binary {} not found (run `make build`)",
            bin.display()
        );
        std::fs::create_dir_all(data_dir)?;
        let log_path = data_dir.join("server.log");
        let log = std::fs::File::create(&log_path)?;
        let started = Instant::now();
        // A clean environment: nothing inherited (no DISTILL_* overrides, no proxies).
        let mut child = Command::new(bin)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("DISTILL_HOST", "127.0.0.1")
            .env("DISTILL_PORT", "0")
            .env("DISTILL_ALLOW_PRIVATE_TARGETS", "true")
            .env("DISTILL_PLUGINS_DIR", plugins_dir)
            .env("DISTILL_DATA_DIR", data_dir)
            .env("DISTILL_LOG", "warn")
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .envs(extra_env_from_bench())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log))
            .spawn()
            .map_err(|e| anyhow::anyhow!("starting {}: {e}", bin.display()))?;
        let pid = child.id();
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        // Reads stdout to the end so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    // Receiver gone: keep draining.
                }
            }
        });
        let deadline = started + timeout;
        let mut server = Server {
            child,
            pid,
            base_url: String::new(),
            startup: Duration::ZERO,
            log_path,
        };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                anyhow::bail!(
                    "server did not report its address within {timeout:?} (log: {})",
                    server.log_path.display()
                );
            }
            match rx.recv_timeout(left.min(Duration::from_millis(200))) {
                Ok(line) => {
                    if let Some(addr) = line.trim().strip_prefix(READY_PREFIX) {
                        server.base_url = format!("http://{addr}");
                        server.startup = started.elapsed();
                        return Ok(server);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Some(status) = server.child.try_wait()? {
                        anyhow::bail!("server exited with {status} (log: {})", server.log_path.display());
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    anyhow::bail!(
                        "server closed stdout before listening (log: {})",
                        server.log_path.display()
                    );
                }
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `DISTILL_BENCH_SERVER_ENV="NAME=VALUE NAME2=VALUE2"`: settings every server
/// the bench starts gets on top of the section's own (to compare a setting,
/// e.g. `DISTILL_CACHE_ZSTD_LEVEL=1`, across whole sections).
fn extra_env_from_bench() -> Vec<(String, String)> {
    std::env::var("DISTILL_BENCH_SERVER_ENV")
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}
