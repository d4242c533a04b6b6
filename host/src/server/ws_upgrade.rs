//! A WebSocket upgrade request (RFC 6455 handshake over hyper's upgrade):
//! taken from a request, answered 101 with the accept key (and the offered
//! subprotocol echoed), the connection handed to a task. Used by the job
//! watcher (`job_watch`) and the auth gate, which answers a refused upgrade
//! with an error message ([`refuse`]).

use super::ws_frame;
use axum::body::Body;
use axum::http::{Extensions, HeaderMap, StatusCode, header};
use axum::response::Response;
use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

/// A WebSocket upgrade request: the pending upgrade, the accept key and the
/// subprotocol to echo (the JS SDK sends its API key as one).
pub struct Pending {
    on: OnUpgrade,
    accept: String,
    protocol: Option<String>,
}

impl Pending {
    /// The upgrade a request asks for, taken out of its extensions.
    pub fn take(headers: &HeaderMap, extensions: &mut Extensions) -> Option<Pending> {
        let accept = headers
            .get(header::SEC_WEBSOCKET_KEY)
            .and_then(|k| k.to_str().ok())
            .map(ws_frame::accept_key)
            .filter(|_| is_upgrade(headers))?;
        let on = extensions.remove::<OnUpgrade>()?;
        Some(Pending {
            on,
            accept,
            protocol: first_protocol(headers),
        })
    }

    /// Gives the upgrade back to the request (for the route's handler).
    pub fn put_back(self, extensions: &mut Extensions) {
        extensions.insert(self.on);
    }

    /// Answers 101 and runs `then` on the upgraded connection.
    pub fn accept<F, Fut>(self, then: F) -> Response
    where
        F: FnOnce(TokioIo<hyper::upgrade::Upgraded>) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = ()> + Send + 'static,
    {
        let on = self.on;
        tokio::spawn(async move {
            match on.await {
                Ok(upgraded) => then(TokioIo::new(upgraded)).await,
                Err(e) => tracing::debug!("job watcher upgrade failed: {e}"),
            }
        });
        let mut r = Response::builder()
            .status(StatusCode::SWITCHING_PROTOCOLS)
            .header(header::CONNECTION, "upgrade")
            .header(header::UPGRADE, "websocket")
            .header(header::SEC_WEBSOCKET_ACCEPT, self.accept);
        if let Some(p) = self.protocol {
            r = r.header(header::SEC_WEBSOCKET_PROTOCOL, p);
        }
        r.body(Body::empty()).expect("static response parts")
    }
}

fn has_token(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim().eq_ignore_ascii_case(token))
}

/// Whether a request asks for a WebSocket (also used by the auth gate).
pub fn is_upgrade(headers: &HeaderMap) -> bool {
    has_token(headers, header::UPGRADE, "websocket") && has_token(headers, header::CONNECTION, "upgrade")
}

/// The first subprotocol a WebSocket request offers.
pub fn first_protocol(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(header::SEC_WEBSOCKET_PROTOCOL)?.to_str().ok()?;
    v.split(',')
        .map(str::trim)
        .find(|p| !p.is_empty())
        .map(str::to_string)
}

/// A WebSocket the auth gate refused, answered as upstream does: accepted,
/// then one `{"type":"error","error":...}` with the refusal's message and a
/// close (a failed handshake leaves the JS SDK's watcher without a reason).
pub async fn refuse(up: Pending, refusal: Response) -> Response {
    let body = axum::body::to_bytes(refusal.into_body(), 1 << 16).await;
    let error = body
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .and_then(|v| v["error"].as_str().map(str::to_string))
        .unwrap_or_else(|| "Unauthorized".into());
    up.accept(move |mut io| async move {
        let msg = json!({"type": "error", "error": error}).to_string();
        let _ = ws_frame::send(&mut io, ws_frame::TEXT, msg.as_bytes()).await;
        let _ = ws_frame::send_close(&mut io).await;
    })
}
