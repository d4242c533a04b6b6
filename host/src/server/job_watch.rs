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

use super::auth::Caller;
use super::jobs_route::{self, MAX_PAGE_BYTES, Paging};
use super::state::AppState;
use super::ws_frame;
use super::ws_upgrade::Pending;
use crate::jobs::{JobKind, JobRecord, JobStatus};
use crate::timestamp::iso8601_ms;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Extension, FromRequestParts, Path, Query, State};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use axum::response::Response;
use serde_json::{Value, json};
use std::convert::Infallible;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;

/// How often a watched job is read.
const POLL: Duration = Duration::from_millis(500);

/// A WebSocket upgrade, if the request asks for one.
pub struct WsUpgrade(Option<Pending>);

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
    Path(id): Path<String>,
    query: Result<Query<Paging>, QueryRejection>,
    caller: Option<Extension<Caller>>,
) -> Response {
    watch_or_page(s, ws, h, id, query, JobKind::Crawl, caller.map(|Extension(c)| c)).await
}

pub async fn batch_status(
    State(s): State<AppState>,
    ws: WsUpgrade,
    h: HeaderMap,
    Path(id): Path<String>,
    query: Result<Query<Paging>, QueryRejection>,
    caller: Option<Extension<Caller>>,
) -> Response {
    watch_or_page(s, ws, h, id, query, JobKind::Batch, caller.map(|Extension(c)| c)).await
}

/// The watcher on an upgrade, else the status page.
async fn watch_or_page(
    s: AppState,
    ws: WsUpgrade,
    h: HeaderMap,
    id: String,
    query: Result<Query<Paging>, QueryRejection>,
    kind: JobKind,
    caller: Option<Caller>,
) -> Response {
    match ws.0 {
        Some(up) => up.accept(move |io| serve(s, id, kind, caller, io)),
        None => jobs_route::status_page(s, h, id, query, kind, caller.as_ref()).await,
    }
}

async fn serve<IO: AsyncRead + AsyncWrite + Send + 'static>(
    state: AppState,
    id: String,
    kind: JobKind,
    caller: Option<Caller>,
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
    let key = jobs_route::key_id(caller.as_ref());
    if watch(&state, &id, kind, key, &mut wr, &mut rx).await.is_ok() {
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
    key: Option<&str>,
    w: &mut W,
    rx: &mut mpsc::Receiver<(u8, Vec<u8>)>,
) -> std::io::Result<()> {
    let store = &state.crawls.store;
    let mut sent: u64 = 0;
    let mut first = true;
    loop {
        // Status first: once it is final, every document is stored.
        let job = match store.get(id).await.map_err(io_err)? {
            Some(j) if j.kind == kind && j.open_to(key) => j,
            Some(j) if j.kind == kind => {
                return send_json(w, &json!({"type": "error", "error": jobs_route::NOT_YOURS})).await;
            }
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
