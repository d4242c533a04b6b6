//! A local forward proxy for the proxy-pool tests, on `127.0.0.1:<ephemeral>`:
//! HTTP (absolute-form requests and `CONNECT` tunnels) and SOCKS5 (no
//! authentication) on one port, told apart by the first byte. It counts the
//! requests it is asked to carry and records their targets, and can be told
//! to answer every request 403 (HTTP) or "not allowed" (SOCKS5) instead. A
//! tunnel (CONNECT, SOCKS5) may carry several requests over one kept-alive
//! connection: for plain-HTTP targets each further request line seen in it
//! counts too. It can also demand HTTP Basic proxy credentials (407 with
//! `Proxy-Authenticate` until a request carries them) and records the
//! `Proxy-Authorization` values it was sent.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The body of the proxy's 403.
pub const REFUSAL_BODY: &str = "<html><body><h1>Forbidden by the proxy</h1></body></html>";

#[derive(Default)]
struct State {
    targets: Mutex<Vec<String>>,
    refuse: AtomicBool,
    requests: AtomicUsize,
    /// `Basic base64(user:pass)` demanded, when set.
    demand: Mutex<Option<String>>,
    authorizations: Mutex<Vec<String>>,
}

/// The running proxy (lives as long as the test binary).
pub struct ForwardProxy {
    pub port: u16,
    state: Arc<State>,
}

impl ForwardProxy {
    pub fn start() -> ForwardProxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(State::default());
        let shared = state.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                let state = shared.clone();
                std::thread::spawn(move || {
                    let _ = serve(conn, &state);
                });
            }
        });
        ForwardProxy { port, state }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn http_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// `socks5://127.0.0.1:PORT`.
    pub fn socks_url(&self) -> String {
        format!("socks5://127.0.0.1:{}", self.port)
    }

    /// Requests carried (or refused) so far.
    pub fn requests(&self) -> usize {
        self.state.requests.load(Ordering::SeqCst)
    }

    /// The targets asked for, in order (`http://host:port/path` for plain
    /// HTTP, `host:port` for tunnels).
    pub fn targets(&self) -> Vec<String> {
        self.state.targets.lock().unwrap().clone()
    }

    /// Demands `user:pass` (HTTP Basic) from now on: a request without them
    /// is answered 407.
    pub fn demand_credentials(&self, user: &str, pass: &str) {
        use base64::Engine;
        let token = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{pass}"));
        *self.state.demand.lock().unwrap() = Some(format!("Basic {token}"));
    }

    /// The `Proxy-Authorization` values received, decoded (`user:pass`), in order.
    pub fn credentials_seen(&self) -> Vec<String> {
        use base64::Engine;
        let seen = self.state.authorizations.lock().unwrap();
        seen.iter()
            .filter_map(|v| v.strip_prefix("Basic "))
            .filter_map(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .collect()
    }

    /// Whether to refuse every request from now on.
    pub fn refuse(&self, on: bool) {
        self.state.refuse.store(on, Ordering::SeqCst);
    }
}

fn serve(client: TcpStream, state: &State) -> std::io::Result<()> {
    let mut first = [0u8; 1];
    client.peek(&mut first)?;
    if first[0] == 5 {
        socks5(client, state)
    } else {
        http(client, state)
    }
}

fn http(mut client: TcpStream, state: &State) -> std::io::Result<()> {
    let mut reader = BufReader::new(client.try_clone()?);
    let mut head = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if line == "\r\n" || line == "\n" {
            break;
        }
        head.push(line);
    }
    let request_line = head.first().cloned().unwrap_or_default();
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("").to_string());
    let authorization = head.iter().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim()
            .eq_ignore_ascii_case("proxy-authorization")
            .then(|| value.trim().to_string())
    });
    if let Some(value) = &authorization {
        state.authorizations.lock().unwrap().push(value.clone());
    }
    let demand = state.demand.lock().unwrap().clone();
    if demand.is_some() && authorization != demand {
        let body = "<html><body><h1>Proxy credentials required</h1></body></html>";
        let reply = format!(
            "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test proxy\"\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        client.write_all(reply.as_bytes())?;
        return client.shutdown(Shutdown::Both);
    }
    state.targets.lock().unwrap().push(target.clone());
    state.requests.fetch_add(1, Ordering::SeqCst);
    if state.refuse.load(Ordering::SeqCst) {
        let reply = format!(
            "HTTP/1.1 403 Forbidden\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{REFUSAL_BODY}",
            REFUSAL_BODY.len()
        );
        client.write_all(reply.as_bytes())?;
        return client.shutdown(Shutdown::Both);
    }
    if method == "CONNECT" {
        let upstream = TcpStream::connect(&target)?;
        client.write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")?;
        return pipe(client, upstream, state);
    }
    // Absolute form: http://host:port/path.
    let url = url::Url::parse(&target).map_err(std::io::Error::other)?;
    let host = url.host_str().unwrap_or("127.0.0.1");
    let mut upstream = TcpStream::connect((host, url.port_or_known_default().unwrap_or(80)))?;
    let path = match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_string(),
    };
    let mut forwarded = format!("{method} {path} HTTP/1.1\r\n");
    for line in &head[1..] {
        let name = line.split(':').next().unwrap_or("").trim().to_ascii_lowercase();
        if !name.starts_with("proxy-") && name != "connection" {
            forwarded.push_str(line);
        }
    }
    forwarded.push_str("Connection: close\r\n\r\n");
    upstream.write_all(forwarded.as_bytes())?;
    // GET requests carry no body: the answer goes back until the origin closes.
    let mut back = upstream.try_clone()?;
    std::io::copy(&mut back, &mut client)?;
    let _ = upstream.shutdown(Shutdown::Both);
    client.shutdown(Shutdown::Both)
}

fn socks5(mut client: TcpStream, state: &State) -> std::io::Result<()> {
    let mut greeting = [0u8; 2];
    client.read_exact(&mut greeting)?;
    let mut methods = vec![0u8; greeting[1] as usize];
    client.read_exact(&mut methods)?;
    client.write_all(&[5, 0])?;
    let mut request = [0u8; 4];
    client.read_exact(&mut request)?;
    let host = match request[3] {
        1 => {
            let mut ip = [0u8; 4];
            client.read_exact(&mut ip)?;
            std::net::Ipv4Addr::from(ip).to_string()
        }
        3 => {
            let mut len = [0u8; 1];
            client.read_exact(&mut len)?;
            let mut name = vec![0u8; len[0] as usize];
            client.read_exact(&mut name)?;
            String::from_utf8_lossy(&name).into_owned()
        }
        _ => {
            let mut ip = [0u8; 16];
            client.read_exact(&mut ip)?;
            format!("[{}]", std::net::Ipv6Addr::from(ip))
        }
    };
    let mut port = [0u8; 2];
    client.read_exact(&mut port)?;
    let target = format!("{host}:{}", u16::from_be_bytes(port));
    state.targets.lock().unwrap().push(target.clone());
    state.requests.fetch_add(1, Ordering::SeqCst);
    if state.refuse.load(Ordering::SeqCst) {
        client.write_all(&[5, 2, 0, 1, 0, 0, 0, 0, 0, 0])?;
        return client.shutdown(Shutdown::Both);
    }
    let upstream = TcpStream::connect(&target)?;
    client.write_all(&[5, 0, 0, 1, 0, 0, 0, 0, 0, 0])?;
    pipe(client, upstream, state)
}

/// Copies both ways until either side closes; counts the request lines
/// after the first (already counted) that go through.
fn pipe(client: TcpStream, upstream: TcpStream, state: &State) -> std::io::Result<()> {
    let (mut c_read, mut u_write) = (client.try_clone()?, upstream.try_clone()?);
    std::thread::scope(|scope| {
        let forward = scope.spawn(move || {
            let mut seen = 0usize;
            let mut buf = [0u8; 16 * 1024];
            loop {
                let n = match c_read.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                let lines = buf[..n].windows(11).filter(|w| *w == b" HTTP/1.1\r\n").count();
                let extra = (seen + lines).saturating_sub(1) - seen.saturating_sub(1);
                state.requests.fetch_add(extra, Ordering::SeqCst);
                seen += lines;
                if u_write.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            let _ = u_write.shutdown(Shutdown::Write);
        });
        let (mut u_read, mut c_write) = (upstream, client);
        let _ = std::io::copy(&mut u_read, &mut c_write);
        let _ = c_write.shutdown(Shutdown::Both);
        let _ = forward.join();
    });
    Ok(())
}
