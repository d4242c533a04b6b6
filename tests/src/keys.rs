//! API keys and keyed requests for the auth/limits tests: `distill keys`
//! run as the operator runs it, and requests carrying a bearer key whose
//! answers keep their headers (`Retry-After`).

use crate::client::http;
use crate::server::distill_bin;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Runs `distill keys ARGS` against the keys file `keys_file`; returns
/// (exit success, stdout, stderr).
pub fn keys_cmd(keys_file: &Path, args: &[&str]) -> (bool, String, String) {
    let mut cmd = Command::new(distill_bin());
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("DISTILL_") {
            cmd.env_remove(&key);
        }
    }
    let out = cmd
        .arg("keys")
        .args(args)
        .env("DISTILL_KEYS_FILE", keys_file)
        .output()
        .expect("running distill keys");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Creates a key with `distill keys create --name NAME EXTRA...` and returns it.
pub fn create_key(keys_file: &Path, name: &str, extra: &[&str]) -> String {
    let mut args = vec!["create", "--name", name];
    args.extend_from_slice(extra);
    let (ok, stdout, stderr) = keys_cmd(keys_file, &args);
    assert!(ok, "distill keys create failed: {stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "stdout holds the key alone: {stdout:?}");
    lines[0].to_string()
}

/// An answer with its headers.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub json: Value,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn credits(&self) -> u64 {
        self.json["data"]["metadata"]["creditsUsed"]
            .as_u64()
            .unwrap_or_else(|| panic!("no creditsUsed: {}", self.json))
    }
}

/// A request with an optional `Authorization` header value.
pub async fn call(method: &str, url: &str, auth: Option<&str>, body: Option<&Value>) -> Answer {
    let mut req = http().request(method.parse().unwrap(), url);
    if let Some(a) = auth {
        req = req.header("authorization", a);
    }
    if let Some(b) = body {
        req = req.header("content-type", "application/json").body(b.to_string());
    }
    let resp = req.send().await.unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let text = resp.text().await.unwrap_or_default();
    Answer {
        status,
        headers,
        json: serde_json::from_str(&text).unwrap_or(Value::Null),
    }
}

/// `POST {server}/v2/scrape` with `Authorization: Bearer KEY`.
pub async fn scrape_as(server: &str, key: &str, body: &Value) -> Answer {
    call(
        "POST",
        &format!("{server}/v2/scrape"),
        Some(&format!("Bearer {key}")),
        Some(body),
    )
    .await
}

/// `GET {server}/v2/team/credit-usage` as `key`.
pub async fn usage_of(server: &str, key: &str) -> Value {
    let a = call(
        "GET",
        &format!("{server}/v2/team/credit-usage"),
        Some(&format!("Bearer {key}")),
        None,
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.json);
    a.json["data"].clone()
}

/// Asserts the key's usage on `server`: credits used and remaining.
pub async fn assert_usage(server: &str, key: &str, used: impl Into<Value>, remaining: impl Into<Value>) {
    let u = usage_of(server, key).await;
    assert_eq!(
        (&u["creditsUsed"], &u["remainingCredits"]),
        (&used.into(), &remaining.into()),
        "{u}"
    );
}

/// Waits until at least `margin_s` seconds remain in the current wall-clock
/// minute, so a test of per-minute windows does not straddle two.
pub fn wait_for_fresh_minute(margin_s: u64) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let left = 60 - now % 60;
    if left < margin_s {
        std::thread::sleep(std::time::Duration::from_secs(left + 1));
    }
}

/// A crawl or batch job run to its end as `key`: its final status (with
/// every document, following `next`, in `data`) and its error entries.
pub struct FinishedJob {
    pub status: Value,
    pub documents: Vec<Value>,
    pub errors: Vec<Value>,
}

impl FinishedJob {
    /// The `metadata.creditsUsed` of every document, summed.
    pub fn document_credits(&self) -> u64 {
        self.documents
            .iter()
            .map(|d| {
                d["metadata"]["creditsUsed"]
                    .as_u64()
                    .expect("creditsUsed on a page")
            })
            .sum()
    }
}

/// Starts a job (`path`: `/v2/crawl` or `/v2/batch/scrape`) on `server` as
/// `key`, waits up to `limit` for it to leave `scraping` and reads it all.
pub async fn run_job_as(
    server: &str,
    key: &str,
    path: &str,
    body: &Value,
    limit: std::time::Duration,
) -> FinishedJob {
    let auth = format!("Bearer {key}");
    let started = call("POST", &format!("{server}{path}"), Some(&auth), Some(body)).await;
    assert_eq!(started.status, 200, "{}", started.json);
    let id = started.json["id"].as_str().expect("job id").to_string();
    let until = std::time::Instant::now() + limit;
    let status = loop {
        let r = call("GET", &format!("{server}{path}/{id}"), Some(&auth), None).await;
        assert_eq!(r.status, 200, "{}", r.json);
        if r.json["status"] != "scraping" {
            break r.json;
        }
        assert!(std::time::Instant::now() < until, "job still running: {}", r.json);
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    let mut documents = Vec::new();
    let mut page = status.clone();
    loop {
        documents.extend(page["data"].as_array().cloned().unwrap_or_default());
        let Some(next) = page["next"].as_str() else { break };
        page = call("GET", next, Some(&auth), None).await.json;
    }
    let errors = call("GET", &format!("{server}{path}/{id}/errors"), Some(&auth), None).await;
    FinishedJob {
        status,
        documents,
        errors: errors.json["errors"].as_array().cloned().unwrap_or_default(),
    }
}
