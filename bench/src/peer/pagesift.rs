//! Starting and stopping pagesift 0.81.5 (AGPL-3.0, run only as a black box:
//! installed by `make pagesift` into `target/tools/pagesift`) as a
//! Firecrawl-compatible server: `pagesift serve --host 127.0.0.1 --port P
//! --no-cache --allow-cidr 127.0.0.0/8` with a config file of its own
//! ([`POLICY`]: its per-host politeness off, as a server benchmark on one
//! loopback host needs — by default it paces one host to about one request a
//! second), logs at `warn`, its data directory under the bench's.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The version the issue compares against.
pub const VERSION: &str = "0.81.5";

/// pagesift's `[policy]` for the bench: no pause between requests to one host
/// and concurrency far above the bench's 16 (its defaults pace a host to ~1 req/s).
pub const POLICY: &str = "[policy]\ninterval_ms = 0\nper_host_concurrency = 256\nglobal_concurrency = 1024\n";

/// Where `make pagesift` installs the binary, relative to the workspace root.
pub fn default_bin(root: &Path) -> PathBuf {
    root.join("target/tools/pagesift/bin/pagesift")
}

/// A running pagesift server; killed when dropped.
pub struct Pagesift {
    child: Child,
    pub pid: u32,
    pub base_url: String,
}

impl Pagesift {
    /// Spawns `bin serve` on a free loopback port and waits (at most
    /// `timeout`) until it accepts connections.
    pub fn spawn(bin: &Path, data_dir: &Path, timeout: Duration) -> anyhow::Result<Pagesift> {
        std::fs::create_dir_all(data_dir)?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let log = std::fs::File::create(data_dir.join("pagesift.log"))?;
        let config = data_dir.join("pagesift.toml");
        std::fs::write(&config, POLICY)?;
        let child = Command::new(bin)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", data_dir)
            .env("PAGESIFT_CONFIG", &config)
            .env("PAGESIFT_LOG", "warn")
            .env("PAGESIFT_DATA_DIR", data_dir)
            .args(["serve", "--host", "127.0.0.1", "--port", &port.to_string()])
            .arg("--data-dir")
            .arg(data_dir)
            .args(["--no-cache", "--allow-cidr", "127.0.0.0/8"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(log))
            .spawn()
            .map_err(|e| anyhow::anyhow!("starting {}: {e}", bin.display()))?;
        let mut server = Pagesift {
            pid: child.id(),
            child,
            base_url: format!("http://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + timeout;
        loop {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Ok(server);
            }
            if let Some(status) = server.child.try_wait()? {
                anyhow::bail!(
                    "pagesift exited with {status} (log: {})",
                    data_dir.join("pagesift.log").display()
                );
            }
            anyhow::ensure!(
                Instant::now() < deadline,
                "pagesift did not listen within {timeout:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Pagesift {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
