//! A throwaway `redis-server` (Debian's; `make setup` installs it) on a free
//! 127.0.0.1 port with persistence off, killed when dropped: the Redis
//! backends of the cache (section 3) and of the crawl queue (section 9).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Redis {
    child: Child,
    pub port: u16,
}

impl Redis {
    /// Starts one and waits until it listens; why not, when it cannot.
    pub fn start() -> Result<Redis, String> {
        let bin = std::env::var_os("PATH")
            .map(|p| {
                std::env::split_paths(&p)
                    .map(|d| d.join("redis-server"))
                    .collect::<Vec<PathBuf>>()
            })
            .unwrap_or_default()
            .into_iter()
            .find(|p| p.is_file())
            .ok_or("redis-server is not installed (`make setup` installs it)")?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let child = Command::new(bin)
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        let redis = Redis { child, port };
        let until = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > until {
                return Err("redis-server did not start listening".into());
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        Ok(redis)
    }

    /// `redis://127.0.0.1:PORT/0`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
