//! A local webhook receiver: records every delivery (headers and JSON body)
//! and answers 500 to the first `fail_first` attempts of each event, so that
//! retries can be observed.

use crate::background::serve_router;
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// One delivery as received.
#[derive(Debug, Clone)]
pub struct Delivery {
    pub headers: HashMap<String, String>,
    pub raw: Vec<u8>,
    pub body: Value,
    /// Whether this attempt was answered 2xx.
    pub accepted: bool,
}

#[derive(Clone)]
struct Ctx {
    log: Arc<Mutex<Vec<Delivery>>>,
    fail_first: usize,
}

/// The running receiver.
pub struct WebhookReceiver {
    pub port: u16,
    log: Arc<Mutex<Vec<Delivery>>>,
}

impl WebhookReceiver {
    pub fn start(fail_first: usize) -> WebhookReceiver {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let ctx = Ctx {
            log: log.clone(),
            fail_first,
        };
        let app = Router::new().route("/hook", post(receive)).with_state(ctx);
        serve_router("webhook-receiver", listener, app);
        WebhookReceiver { port, log }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/hook", self.port)
    }

    pub fn deliveries(&self) -> Vec<Delivery> {
        self.log.lock().unwrap().clone()
    }
}

async fn receive(State(ctx): State<Ctx>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let json: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let mut log = ctx.log.lock().unwrap();
    // Attempts of the same delivery share type + data.
    let same = log
        .iter()
        .filter(|d| d.body["type"] == json["type"] && d.body["data"] == json["data"])
        .count();
    let accepted = same >= ctx.fail_first;
    log.push(Delivery {
        headers: headers
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
            .collect(),
        raw: body.to_vec(),
        body: json,
        accepted,
    });
    if accepted {
        StatusCode::OK
    } else {
        StatusCode::INTERNAL_SERVER_ERROR
    }
}
