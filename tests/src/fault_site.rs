//! Misbehaving targets for the fault-injection tests (`tests/faults.rs`),
//! written on raw TCP so each answer can break HTTP exactly as intended.
//! [`FaultSite`] listens on three loopback addresses (127.0.0.1, .2 and .3,
//! each on its own ephemeral port) with the same routes:
//!
//! | path | what |
//! |---|---|
//! | `/close-mid-body` | declares `Content-Length: 100000`, sends 2,000 bytes, closes |
//! | `/endless` | a chunked HTML body that never ends (until the reader goes away) |
//! | `/gzip-bomb` | `Content-Encoding: gzip`; zeros compressed on the fly, up to 4 GiB expanded |
//! | `/slowloris` | declares 1,000 bytes, then sends one byte a second |
//! | `/hop/{n}` | 302 to `/hop/{n+1}` on the next of the three addresses, forever |
//! | `/carriage-returns` | a 16 MiB page: one paragraph of nothing but lone CRs (line ends) |
//! | `/reopened` | a 56 KB page whose 400 formatting elements, left open, are made again in each of 5,000 paragraphs (2 million elements) |
//! | anything else | a small HTML page |
//!
//! [`FaultSite::sent`] tells how many body bytes a route wrote (for gzip,
//! how many bytes were compressed), so a test can check the server stopped
//! reading. [`HangingEndpoint`] accepts connections, reads the request and
//! never answers.

use crate::background::spawn_on_own_runtime;
use flate2::Compression;
use flate2::write::GzEncoder;
use std::collections::HashMap;
use std::io::Write as _;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How far the gzip bomb expands at most.
pub const GZIP_BOMB_BYTES: u64 = 4 << 30;

/// How many carriage returns `/carriage-returns` sends.
pub const CARRIAGE_RETURNS: usize = 16 << 20;

/// The three listening addresses and per-route counters.
pub struct FaultSite {
    addrs: Vec<SocketAddr>,
    sent: Arc<Mutex<HashMap<String, u64>>>,
}

impl FaultSite {
    /// `http://ADDR` of listener `i` (0..3) + `path`.
    pub fn url(&self, i: usize, path: &str) -> String {
        format!("http://{}{path}", self.addrs[i % self.addrs.len()])
    }

    /// Body bytes written so far by `route` (its path without `/`).
    pub fn sent(&self, route: &str) -> u64 {
        self.sent.lock().unwrap().get(route).copied().unwrap_or(0)
    }

    /// Requests `/hop/...` received on listener `i`.
    pub fn hops(&self, i: usize) -> u64 {
        self.sent(&format!("hop@{}", self.addrs[i]))
    }
}

/// The fault site of this test binary (started on first use, own runtime).
pub fn fault_site() -> &'static FaultSite {
    static SITE: OnceLock<FaultSite> = OnceLock::new();
    SITE.get_or_init(|| {
        let listeners: Vec<std::net::TcpListener> = ["127.0.0.1", "127.0.0.2", "127.0.0.3"]
            .iter()
            .map(|ip| std::net::TcpListener::bind((*ip, 0)).expect("binding a loopback alias"))
            .collect();
        let addrs: Vec<SocketAddr> = listeners.iter().map(|l| l.local_addr().unwrap()).collect();
        let sent = Arc::new(Mutex::new(HashMap::new()));
        let (all, counters) = (addrs.clone(), sent.clone());
        spawn_on_own_runtime("fault-site", move || async move {
            let mut tasks = Vec::new();
            for listener in listeners {
                listener.set_nonblocking(true).unwrap();
                let listener = TcpListener::from_std(listener).unwrap();
                let (all, counters) = (all.clone(), counters.clone());
                tasks.push(tokio::spawn(accept_loop(listener, all, counters)));
            }
            for t in tasks {
                let _ = t.await;
            }
        });
        FaultSite { addrs, sent }
    })
}

type Counters = Arc<Mutex<HashMap<String, u64>>>;

async fn accept_loop(listener: TcpListener, all: Vec<SocketAddr>, counters: Counters) {
    let me = listener.local_addr().unwrap();
    while let Ok((stream, _)) = listener.accept().await {
        let (all, counters) = (all.clone(), counters.clone());
        tokio::spawn(async move {
            let _ = serve(stream, me, &all, &counters).await;
        });
    }
}

/// Reads the request head and returns its path.
async fn read_path(stream: &mut TcpStream) -> std::io::Result<String> {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 64 * 1024 {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let line = String::from_utf8_lossy(&head);
    Ok(line.split_whitespace().nth(1).unwrap_or("/").to_string())
}

fn add(counters: &Counters, key: &str, n: u64) {
    *counters.lock().unwrap().entry(key.to_string()).or_default() += n;
}

async fn serve(
    mut stream: TcpStream,
    me: SocketAddr,
    all: &[SocketAddr],
    counters: &Counters,
) -> std::io::Result<()> {
    let path = read_path(&mut stream).await?;
    let html =
        |body: &str| format!("<html><head><title>Fault</title></head><body><p>{body}</p></body></html>");
    match path.as_str() {
        "/close-mid-body" => {
            stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n")
                .await?;
            let part = html(&"cut ".repeat(500));
            stream.write_all(part.as_bytes()).await?;
            add(counters, "close-mid-body", part.len() as u64);
            // Dropping the stream closes the connection 98 KB short.
        }
        "/carriage-returns" => {
            let mut page = b"<html><body><p>x".to_vec();
            page.resize(page.len() + CARRIAGE_RETURNS, b'\r');
            page.extend_from_slice(b"</p></body></html>");
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                page.len()
            );
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(&page).await?;
            add(counters, "carriage-returns", page.len() as u64);
        }
        "/reopened" => {
            let opened: String = (0..400).map(|i| format!("<b id=b{i}>")).collect();
            let page = format!("<html><body><p>{opened}</p>{}", "<p>x</p>".repeat(5_000));
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                page.len()
            );
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(page.as_bytes()).await?;
            add(counters, "reopened", page.len() as u64);
        }
        "/endless" => {
            stream
                .write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n",
                )
                .await?;
            let body = "<p>and on and on</p>\n".repeat(3000);
            let chunk = format!("{:x}\r\n{body}\r\n", body.len());
            loop {
                stream.write_all(chunk.as_bytes()).await?;
                add(counters, "endless", body.len() as u64);
            }
        }
        "/gzip-bomb" => {
            stream
                .write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n",
                )
                .await?;
            let zeros = vec![0u8; 1 << 20];
            let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
            encoder.write_all(b"<html><body><p>")?;
            let mut expanded = 0u64;
            while expanded < GZIP_BOMB_BYTES {
                encoder.write_all(&zeros)?;
                expanded += zeros.len() as u64;
                add(counters, "gzip-bomb", zeros.len() as u64);
                let out = std::mem::take(encoder.get_mut());
                if !out.is_empty() {
                    stream.write_all(&out).await?;
                }
            }
            let out = encoder.finish()?;
            stream.write_all(&out).await?;
        }
        "/slowloris" => {
            stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n")
                .await?;
            for byte in html(&"s".repeat(1000)).bytes().take(1000) {
                stream.write_all(&[byte]).await?;
                add(counters, "slowloris", 1);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
        p if p.starts_with("/hop/") => {
            let n: usize = p["/hop/".len()..].parse().unwrap_or(0);
            add(counters, &format!("hop@{me}"), 1);
            let next = all[(all.iter().position(|a| *a == me).unwrap_or(0) + 1) % all.len()];
            let head = format!(
                "HTTP/1.1 302 Found\r\nLocation: http://{next}/hop/{}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                n + 1
            );
            stream.write_all(head.as_bytes()).await?;
        }
        _ => {
            let body = html("A page that behaves.");
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(body.as_bytes()).await?;
        }
    }
    stream.shutdown().await
}

/// An endpoint that accepts, reads the request and never answers (the
/// connections are held open until it is dropped).
pub struct HangingEndpoint {
    addr: SocketAddr,
    accepted: Arc<Mutex<u64>>,
    task: tokio::task::JoinHandle<()>,
}

impl HangingEndpoint {
    /// Starts on the caller's runtime.
    pub async fn start() -> HangingEndpoint {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let accepted = Arc::new(Mutex::new(0));
        let count = accepted.clone();
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((mut stream, _)) = listener.accept().await {
                *count.lock().unwrap() += 1;
                let _ = read_path(&mut stream).await;
                held.push(stream);
            }
        });
        HangingEndpoint { addr, accepted, task }
    }

    /// `http://127.0.0.1:PORT/v1` (an OpenAI-style base URL).
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Connections accepted so far.
    pub fn accepted(&self) -> u64 {
        *self.accepted.lock().unwrap()
    }
}

impl Drop for HangingEndpoint {
    fn drop(&mut self) {
        self.task.abort();
    }
}
