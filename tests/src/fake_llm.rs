//! A scripted chat-completions endpoint on 127.0.0.1 for the model tests that
//! need exact control: each request gets the next scripted [`Turn`] (status,
//! headers, body; the last one repeats), and every request body is recorded
//! so a test can assert the exact prompts, models and schemas sent.

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One scripted answer.
#[derive(Debug, Clone)]
pub struct Turn {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    pub delay: Duration,
}

impl Turn {
    /// A 200 with `content` as the assistant's message (finish_reason "stop").
    pub fn content(content: &str) -> Turn {
        Turn::completion(content, "stop")
    }

    /// A 200 with `content` and the given finish_reason.
    pub fn completion(content: &str, finish_reason: &str) -> Turn {
        let body = json!({
            "choices": [{"index": 0, "finish_reason": finish_reason,
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
        });
        Turn::status(200, &body.to_string())
    }

    /// Any status with a raw body.
    pub fn status(status: u16, body: &str) -> Turn {
        Turn {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string(),
            delay: Duration::ZERO,
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Turn {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    pub fn delay(mut self, delay: Duration) -> Turn {
        self.delay = delay;
        self
    }
}

#[derive(Default)]
struct Script {
    turns: Vec<Turn>,
    next: usize,
    seen: Vec<Value>,
}

/// A running fake endpoint.
#[derive(Clone)]
pub struct FakeLlm {
    base_url: String,
    script: Arc<Mutex<Script>>,
}

impl FakeLlm {
    /// Starts one answering with `turns` in order (the last repeats).
    pub async fn start(turns: Vec<Turn>) -> FakeLlm {
        let script = Arc::new(Mutex::new(Script {
            turns,
            ..Script::default()
        }));
        let shared = script.clone();
        let app = Router::new().route(
            "/v1/chat/completions",
            post(move |body: Bytes| {
                let script = shared.clone();
                async move { answer(&script, &body).await }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        FakeLlm {
            base_url: format!("http://{addr}/v1"),
            script,
        }
    }

    /// `http://127.0.0.1:<port>/v1`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Every request body received so far.
    pub fn requests(&self) -> Vec<Value> {
        self.script.lock().unwrap().seen.clone()
    }
}

async fn answer(script: &Mutex<Script>, body: &[u8]) -> Response {
    let turn = {
        let mut s = script.lock().unwrap();
        s.seen.push(serde_json::from_slice(body).unwrap_or(Value::Null));
        let i = s.next.min(s.turns.len().saturating_sub(1));
        s.next += 1;
        s.turns.get(i).cloned().unwrap_or_else(|| Turn::status(500, "{}"))
    };
    tokio::time::sleep(turn.delay).await;
    let mut response = (StatusCode::from_u16(turn.status).unwrap(), turn.body).into_response();
    for (name, value) in turn.headers {
        response.headers_mut().insert(
            HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(&value).unwrap(),
        );
    }
    response
}
