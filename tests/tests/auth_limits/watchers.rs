//! Job watchers (the SDKs' WebSockets on a job's status route) are capped per
//! API key: past the cap a watcher hears why and is closed; another key, and
//! the same key once a watcher closes, still get theirs (docs/API.md, "The job
//! watcher").

use super::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The cap (`host/src/server/watch_slots.rs`).
const PER_KEY: usize = 32;

/// Opens a watcher on `path` of the server at `base` (`http://host:port`)
/// with `key`, and reads its first message (the server's frames are not masked).
async fn open_watcher(base: &str, path: &str, key: &str) -> (TcpStream, Value) {
    let addr = base.trim_start_matches("http://");
    let mut io = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    io.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        head.push(io.read_u8().await.unwrap());
    }
    let head = String::from_utf8_lossy(&head);
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    let (first, len) = (io.read_u8().await.unwrap(), io.read_u8().await.unwrap());
    assert_eq!(first, 0x81, "a final text frame");
    let len = match len {
        126 => io.read_u16().await.unwrap() as usize,
        127 => io.read_u64().await.unwrap() as usize,
        n => n as usize,
    };
    let mut payload = vec![0; len];
    io.read_exact(&mut payload).await.unwrap();
    (io, serde_json::from_slice(&payload).unwrap())
}

#[tokio::test]
async fn each_key_may_hold_a_bounded_number_of_watchers() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let (owner, other) = (create_key(&keys, "owner", &[]), create_key(&keys, "other", &[]));
    let s = server.url();
    let auth = |k: &str| format!("Bearer {k}");
    // Two crawls slow enough (43 pages, 0.2 s apart) to run throughout.
    let crawl_site = CrawlSite::start(SiteShape::default());
    let body = json!({"url": crawl_site.url("/"), "sitemap": "skip", "delay": 0.2});
    let mut paths = Vec::new();
    for key in [&owner, &other] {
        let started = call("POST", &format!("{s}/v2/crawl"), Some(&auth(key)), Some(&body)).await;
        assert_eq!(started.status, 200, "{}", started.json);
        paths.push(format!("/v2/crawl/{}", started.json["id"].as_str().unwrap()));
    }
    let mut held = Vec::new();
    for _ in 0..PER_KEY {
        let (io, first) = open_watcher(s, &paths[0], &owner).await;
        assert_eq!(first["type"], json!("catchup"), "{first}");
        held.push(io);
    }
    let (_, refused) = open_watcher(s, &paths[0], &owner).await;
    assert_eq!(refused["type"], json!("error"), "{refused}");
    let why = refused["error"].as_str().unwrap();
    assert!(
        why.starts_with("Too many job watchers open for this API key"),
        "{why}"
    );
    // Another key is counted apart.
    let (_, first) = open_watcher(s, &paths[1], &other).await;
    assert_eq!(first["type"], json!("catchup"), "{first}");
    // A watcher that goes gives its place back (noticed at the next read of the job).
    drop(held.pop());
    let until = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (_, first) = open_watcher(s, &paths[0], &owner).await;
        if first["type"] == json!("catchup") {
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "the place was never given back: {first}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for (path, key) in paths.iter().zip([&owner, &other]) {
        let cancelled = call("DELETE", &format!("{s}{path}"), Some(&auth(key)), None).await;
        assert_eq!(cancelled.status, 200, "{}", cancelled.json);
    }
}
