//! The job watcher: `GET /v2/crawl/{id}` and `GET /v2/batch/scrape/{id}`
//! upgraded to a WebSocket, which the SDKs' `watcher` opens (firecrawl-py
//! `fc.watcher(...)`, firecrawl-js `fc.watcher(...)`). Without an upgrade the
//! routes answer the status JSON as before (`jobs_route`).
//!
//! Messages, as upstream's (and as both SDKs read them): first
//! `{"type":"catchup","data":{status, completed, total, creditsUsed,
//! expiresAt, data:[documents so far]}}`; then `{"type":"document","data":doc}`
//! for each new document; at the end `{"type":"done","data":{...,data:[]}}`
//! (completed), `{"type":"error","error":...}` (failed or unknown job) or
//! `{"type":"cancelled","data":{status:"cancelled",...}}`, then a close frame.
//! A job already finished at connect gets its catchup only. The job is read
//! every half second; client pings are answered, a client close ends it.

use super::jobs_route::{self, MAX_PAGE_BYTES, Paging};
use super::state::AppState;
use super::ws_frame;
use crate::jobs::{JobKind, JobRecord, JobStatus};
use crate::timestamp::iso8601_ms;
use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap, StatusCode, header};
use axum::response::Response;
use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use std::convert::Infallible;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;

/// How often a watched job is read.
const POLL: Duration = Duration::from_millis(500);

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
    fn accept<F, Fut>(self, then: F) -> Response
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

/// A WebSocket upgrade, if the request asks for one.
pub struct WsUpgrade(Option<Pending>);

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

impl<S: Send + Sync> FromRequestParts<S> for WsUpgrade {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(WsUpgrade(Pending::take(&parts.headers, &mut parts.extensions)))
    }
}

pub async fn crawl_status(
    State(s): State<AppState>,
    ws: WsUpgrade,
    h: HeaderMap,
    id: Path<String>,
    query: Result<Query<Paging>, QueryRejection>,
) -> Response {
    match ws.0 {
        Some(up) => up.accept(move |io| serve(s, id.0, JobKind::Crawl, io)),
        None => jobs_route::crawl_status(State(s), h, id, query).await,
    }
}

pub async fn batch_status(
    State(s): State<AppState>,
    ws: WsUpgrade,
    h: HeaderMap,
    id: Path<String>,
    query: Result<Query<Paging>, QueryRejection>,
) -> Response {
    match ws.0 {
        Some(up) => up.accept(move |io| serve(s, id.0, JobKind::Batch, io)),
        None => jobs_route::batch_status(State(s), h, id, query).await,
    }
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
        let _ = send_json(&mut io, &json!({"type": "error", "error": error})).await;
        let _ = ws_frame::send_close(&mut io).await;
    })
}

async fn serve<IO: AsyncRead + AsyncWrite + Send + 'static>(
    state: AppState,
    id: String,
    kind: JobKind,
    io: IO,
) {
    let (mut rd, mut wr) = tokio::io::split(io);
    let (tx, mut rx) = mpsc::channel(8);
    let reader = tokio::spawn(async move {
        while let Ok(frame) = ws_frame::read(&mut rd).await {
            if tx.send(frame).await.is_err() {
                break;
            }
        }
    });
    if watch(&state, &id, kind, &mut wr, &mut rx).await.is_ok() {
        let _ = ws_frame::send_close(&mut wr).await;
    }
    reader.abort();
}

/// The status fields of a snapshot, with `data`.
fn snapshot(job: &JobRecord, data: Vec<Value>) -> Value {
    json!({
        "status": job.status.as_str(),
        "completed": job.completed,
        "total": job.total,
        "creditsUsed": job.credits,
        "expiresAt": iso8601_ms(job.expires_at_ms),
        "data": data,
    })
}

async fn send_json<W: AsyncWrite + Unpin>(w: &mut W, v: &Value) -> std::io::Result<()> {
    ws_frame::send(w, ws_frame::TEXT, v.to_string().as_bytes()).await
}

fn io_err(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

/// Sends the job's messages until it ends (Ok) or the client goes (Err).
async fn watch<W: AsyncWrite + Unpin>(
    state: &AppState,
    id: &str,
    kind: JobKind,
    w: &mut W,
    rx: &mut mpsc::Receiver<(u8, Vec<u8>)>,
) -> std::io::Result<()> {
    let store = &state.crawls.store;
    let mut sent: u64 = 0;
    let mut first = true;
    loop {
        // Status first: once it is final, every document is stored.
        let job = match store.get(id).await.map_err(io_err)? {
            Some(j) if j.kind == kind => j,
            _ => return send_json(w, &json!({"type": "error", "error": "Job not found"})).await,
        };
        let page = store
            .results(id, sent, MAX_PAGE_BYTES, None)
            .await
            .map_err(io_err)?;
        let more = page.next.is_some();
        let docs = page.documents;
        let n = docs.len() as u64;
        if first {
            first = false;
            send_json(w, &json!({"type": "catchup", "data": snapshot(&job, docs)})).await?;
            if job.status.is_final() && !more {
                return Ok(());
            }
        } else {
            for doc in docs {
                send_json(w, &json!({"type": "document", "data": doc})).await?;
            }
            if job.status.is_final() && !more {
                let end = match job.status {
                    JobStatus::Completed => json!({"type": "done", "data": snapshot(&job, vec![])}),
                    JobStatus::Cancelled => json!({"type": "cancelled", "data": snapshot(&job, vec![])}),
                    _ => json!({
                        "type": "error",
                        "error": job.error.clone().unwrap_or_else(|| "Job failed".into()),
                        "data": snapshot(&job, vec![]),
                    }),
                };
                return send_json(w, &end).await;
            }
        }
        sent += n;
        if more {
            continue;
        }
        tokio::select! {
            frame = rx.recv() => match frame {
                Some((ws_frame::PING, payload)) => ws_frame::send(w, ws_frame::PONG, &payload).await?,
                Some((ws_frame::CLOSE, _)) => return Ok(()),
                None => return Err(io_err("client left")),
                Some(_) => {}
            },
            _ = tokio::time::sleep(POLL) => {}
        }
    }
}
