//! A throwaway `redis-server` on a free loopback port for the cache tests
//! (`make setup` installs Debian's redis-server; the installed service is
//! not used). Nothing is persisted; the process is killed on drop.

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running redis-server.
pub struct RedisServer {
    child: Child,
    port: u16,
}

impl RedisServer {
    /// Starts one; panics if `redis-server` is missing or does not listen
    /// within 10 s.
    pub fn start() -> RedisServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        RedisServer::start_on(port)
    }

    fn start_on(port: u16) -> RedisServer {
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server (run `make setup`, which installs it)");
        let server = RedisServer { child, port };
        let until = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < until, "redis-server did not listen on {port}");
            std::thread::sleep(Duration::from_millis(25));
        }
        server
    }

    /// Kills the process (SIGKILL) and waits until nothing listens on its port.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Starts a fresh (empty) redis-server on the same port, after [`Self::kill`].
    pub fn restart(&mut self) {
        let fresh = RedisServer::start_on(self.port);
        let old = std::mem::replace(self, fresh);
        drop(old);
    }

    /// `redis://127.0.0.1:<port>/0`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
