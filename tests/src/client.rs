//! Tiny HTTP helpers: POST a JSON body to `/v2/scrape` and get back the status
//! and the parsed JSON, plus accessors for the parts tests look at.

use serde_json::Value;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A response from the server.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: String,
    /// `body` parsed as JSON (`Value::Null` when it is not JSON).
    pub json: Value,
    pub elapsed: Duration,
}

impl Reply {
    /// `json.data`.
    pub fn data(&self) -> &Value {
        &self.json["data"]
    }

    /// `json.data.metadata`.
    pub fn metadata(&self) -> &Value {
        &self.json["data"]["metadata"]
    }

    /// `json.data[field]` as a string; panics with the reply if absent.
    pub fn data_str(&self, field: &str) -> &str {
        self.json["data"][field]
            .as_str()
            .unwrap_or_else(|| panic!("data.{field} is not a string in {}", self.pretty()))
    }

    /// `json.data.markdown`.
    pub fn markdown(&self) -> &str {
        self.data_str("markdown")
    }

    /// `json.code` (error replies).
    pub fn code(&self) -> Option<&str> {
        self.json["code"].as_str()
    }

    /// `json.error` (error replies).
    pub fn error(&self) -> &str {
        self.json["error"].as_str().unwrap_or("")
    }

    /// The reply for assertion messages.
    pub fn pretty(&self) -> String {
        let body = serde_json::to_string_pretty(&self.json).unwrap_or_else(|_| self.body.clone());
        let body = if body.len() > 6000 {
            format!("{}…", &body[..6000])
        } else {
            body
        };
        format!("HTTP {} in {:?}: {body}", self.status, self.elapsed)
    }

    /// Panics unless this is a 200 `success: true` reply.
    pub fn assert_ok(&self) -> &Self {
        assert!(
            self.status == 200 && self.json["success"] == true,
            "expected a successful scrape, got {}",
            self.pretty()
        );
        self
    }

    /// Panics unless this is an error reply with `status` and `code`.
    pub fn assert_error(&self, status: u16, code: &str) -> &Self {
        assert!(
            self.status == status && self.json["success"] == false && self.code() == Some(code),
            "expected HTTP {status} {code}, got {}",
            self.pretty()
        );
        assert!(
            !self.error().is_empty(),
            "error message missing: {}",
            self.pretty()
        );
        self
    }
}

/// One HTTP client for the whole test binary (120 s overall timeout, no proxy).
/// Connections are not pooled: every `#[tokio::test]` has its own runtime, and
/// a pooled connection's task dies with the runtime that opened it.
pub fn http() -> &'static reqwest::Client {
    static CLIENT: OnceLock<reqwest::Client> = OnceLock::new();
    CLIENT.get_or_init(|| {
        reqwest::Client::builder()
            .timeout(Duration::from_secs(120))
            .no_proxy()
            .pool_max_idle_per_host(0)
            .build()
            .unwrap()
    })
}

/// Reads `response` (sent at `started`) into a [`Reply`].
pub async fn into_reply(started: Instant, response: reqwest::Response) -> Reply {
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let body = response.text().await.expect("reading the response body");
    let json = serde_json::from_str(&body).unwrap_or(Value::Null);
    Reply {
        status,
        content_type,
        body,
        json,
        elapsed: started.elapsed(),
    }
}

/// POSTs `body` (any bytes) to `url` with `content-type: application/json`
/// and the extra `headers`.
pub async fn post_raw(url: &str, body: impl Into<reqwest::Body>, headers: &[(&str, &str)]) -> Reply {
    let started = Instant::now();
    let mut req = http()
        .post(url)
        .header("content-type", "application/json")
        .body(body);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let response = req.send().await.unwrap_or_else(|e| panic!("POST {url}: {e:?}"));
    into_reply(started, response).await
}

/// GETs `url`.
pub async fn get(url: &str) -> Reply {
    let started = Instant::now();
    let response = http()
        .get(url)
        .send()
        .await
        .unwrap_or_else(|e| panic!("GET {url}: {e:?}"));
    into_reply(started, response).await
}

/// POSTs `body` as JSON to `{server}/v2/scrape`.
pub async fn scrape(server: &str, body: &Value) -> Reply {
    scrape_with_headers(server, body, &[]).await
}

/// Like [`scrape`], with extra request headers.
pub async fn scrape_with_headers(server: &str, body: &Value, headers: &[(&str, &str)]) -> Reply {
    post_raw(&format!("{server}/v2/scrape"), body.to_string(), headers).await
}
