//! Test support: a throwaway `redis-server` (Debian's; `make setup` installs
//! it) on a free 127.0.0.1 port with persistence off, ready once it answers
//! PING, killed when dropped. Shared by the cache's and the job queue's Redis
//! tests; `None` (saying so) only when the binary is absent.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A redis-server child, killed on drop.
pub struct RedisServer {
    pub child: Child,
    /// `redis://127.0.0.1:PORT/`.
    pub url: String,
}

impl RedisServer {
    /// Starts one, or `None` (with a message) when redis-server is not installed.
    pub async fn start() -> Option<RedisServer> {
        let bin = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .map(str::to_string)
            .or_else(|| {
                Command::new("redis-server")
                    .arg("--version")
                    .output()
                    .ok()
                    .map(|_| "redis-server".into())
            });
        let Some(bin) = bin else {
            eprintln!("SKIPPED: redis-server is not installed (run `make setup`)");
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(bin)
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start redis-server");
        let server = RedisServer {
            child,
            url: format!("redis://127.0.0.1:{port}/"),
        };
        let started = Instant::now();
        loop {
            if let Ok(client) = redis::Client::open(server.url.as_str())
                && let Ok(mut c) = client.get_multiplexed_async_connection().await
                && redis::cmd("PING").query_async::<String>(&mut c).await.is_ok()
            {
                return Some(server);
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "redis-server did not start"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
