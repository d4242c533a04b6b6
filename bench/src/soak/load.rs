//! The soak's request mix and its workers. Each worker takes the next request
//! from a shared counter (so the mix is the same at any concurrency), sends it
//! and records the outcome (`"200"`, `"<status> <code>"` or `"transport"`)
//! with its latency under the minute it finished in.

use super::site::Site;
use bytes::Bytes;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One request of the mix.
#[derive(Clone)]
pub enum Request {
    Scrape(Value),
    Parse { name: String, bytes: Bytes },
    RawJson(&'static str),
}

/// Out of every 20 requests: 13 scrapes of corpus pages (8 never from the
/// cache, 3 allowed to hit it, 2 with several formats), 4 document parses,
/// 3 hostile inputs (rotating through [`hostile`]).
pub struct Mix {
    site_pages: usize,
    site: String,
    documents: Vec<(String, Bytes)>,
    hostile: Vec<Request>,
}

impl Mix {
    pub fn new(site: &Site, documents: Vec<(String, Bytes)>) -> Mix {
        Mix {
            site_pages: site.pages,
            site: site.url(""),
            hostile: hostile(site),
            documents,
        }
    }

    pub fn nth(&self, n: u64) -> Request {
        let round = n / 20;
        let page = |salt: u64| {
            format!(
                "{}/page/{}",
                self.site,
                (round * 7 + salt) % self.site_pages as u64
            )
        };
        match n % 20 {
            0..=7 => Request::Scrape(json!({ "url": page(n % 20), "maxAge": 0 })),
            8..=10 => Request::Scrape(json!({ "url": page(n % 3) })),
            11..=12 => Request::Scrape(json!({
                "url": page(n % 20), "maxAge": 0, "formats": ["markdown", "links", "html"]
            })),
            13..=16 if !self.documents.is_empty() => {
                let (name, bytes) =
                    &self.documents[((round * 4 + n % 20 - 13) as usize) % self.documents.len()];
                Request::Parse {
                    name: name.clone(),
                    bytes: bytes.clone(),
                }
            }
            _ => self.hostile[((round * 4 + n % 4) as usize) % self.hostile.len()].clone(),
        }
    }
}

/// Hostile inputs: redirect loop, connection cut mid-body, a body past the
/// page limit, deep nesting, error statuses, a refused connection, malformed
/// and invalid request bodies.
fn hostile(site: &Site) -> Vec<Request> {
    let refused = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or(9); // bound then dropped: nothing listens there
    vec![
        Request::Scrape(json!({ "url": site.url("/loop/0"), "maxAge": 0 })),
        Request::Scrape(json!({ "url": site.url("/closed"), "maxAge": 0 })),
        Request::Scrape(json!({ "url": site.url("/huge"), "maxAge": 0 })),
        Request::Scrape(json!({ "url": site.url("/nested"), "maxAge": 0 })),
        Request::Scrape(json!({ "url": site.url("/status/404"), "maxAge": 0 })),
        Request::Scrape(json!({ "url": site.url("/status/503"), "maxAge": 0 })),
        Request::Scrape(json!({ "url": format!("http://127.0.0.1:{refused}/"), "maxAge": 0 })),
        Request::Scrape(json!({ "url": site.url("/page/1"), "formats": ["no-such-format"] })),
        Request::RawJson("{\"url\": \"http://127.0.0.1/\", \"formats\": [\"markdown\""),
        Request::RawJson("{\"url\": 42, \"timeout\": -1}"),
    ]
}

/// Outcomes of one minute.
#[derive(Default)]
pub struct Minute {
    pub outcomes: BTreeMap<String, u64>,
    pub latencies_ms: Vec<f64>,
}

/// Every minute's outcomes, indexed from 0.
pub type Record = Arc<Mutex<Vec<Minute>>>;

/// Runs `concurrency` workers until `until`; a request still in flight then
/// counts in the last minute.
pub async fn run(
    client: reqwest::Client,
    server: String,
    mix: Arc<Mix>,
    concurrency: usize,
    started: Instant,
    until: Instant,
    record: Record,
) {
    let last_minute = ((until - started).as_secs() as usize)
        .div_ceil(60)
        .saturating_sub(1);
    let counter = Arc::new(AtomicU64::new(0));
    let mut workers = Vec::new();
    for _ in 0..concurrency {
        let (client, server, mix, counter, record) = (
            client.clone(),
            server.clone(),
            mix.clone(),
            counter.clone(),
            record.clone(),
        );
        workers.push(tokio::spawn(async move {
            while Instant::now() < until {
                let request = mix.nth(counter.fetch_add(1, Ordering::Relaxed));
                let sent = Instant::now();
                let outcome = send(&client, &server, request).await;
                let done = Instant::now();
                let minute = ((done - started).as_secs() as usize / 60).min(last_minute);
                let mut record = record.lock().unwrap();
                while record.len() <= minute {
                    record.push(Minute::default());
                }
                let m = &mut record[minute];
                *m.outcomes.entry(outcome).or_default() += 1;
                m.latencies_ms.push((done - sent).as_secs_f64() * 1e3);
            }
        }));
    }
    for w in workers {
        let _ = w.await;
    }
}

async fn send(client: &reqwest::Client, server: &str, request: Request) -> String {
    let builder = match request {
        Request::Scrape(body) => client
            .post(format!("{server}/v2/scrape"))
            .header("content-type", "application/json")
            .body(body.to_string()),
        Request::RawJson(body) => client
            .post(format!("{server}/v2/scrape"))
            .header("content-type", "application/json")
            .body(body),
        Request::Parse { name, bytes } => {
            let part = reqwest::multipart::Part::stream(bytes).file_name(name);
            client
                .post(format!("{server}/v2/parse"))
                .multipart(reqwest::multipart::Form::new().part("file", part))
        }
    };
    let response = match builder.timeout(Duration::from_secs(300)).send().await {
        Ok(r) => r,
        Err(_) => return "transport".into(),
    };
    let status = response.status().as_u16();
    let body: Value = match response.bytes().await {
        Ok(b) => serde_json::from_slice(&b).unwrap_or(Value::Null),
        Err(_) => return "transport".into(),
    };
    match body["code"].as_str() {
        Some(code) if status != 200 || body["success"] == false => format!("{status} {code}"),
        _ => status.to_string(),
    }
}
