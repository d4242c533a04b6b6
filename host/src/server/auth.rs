//! The router-wide gate of `/v2` (docs/OPERATORS.md): once any API key exists
//! every `/v2` request needs `Authorization: Bearer <key>` (a WebSocket
//! upgrade may give the key as its subprotocol instead; media links
//! excepted: their ids are unguessable and clients open them without
//! headers); then the key's per-minute limit of the endpoint class (429 with
//! `Retry-After`) and, for billable classes, a credit left (402). The key
//! reaches handlers as a [`Caller`] extension. Bodies are upstream's
//! (`success`, `error`) with a `code` added. Keys are never logged: only
//! their public ids.

use super::access_log::RequestId;
use super::audit_trail;
use super::state::AppState;
use super::ws_upgrade;
use crate::api::ApiError;
use crate::limits::concurrency::SlotError;
use crate::limits::counters::CounterError;
use crate::limits::keys::KeyRecord;
use crate::limits::{EndpointClass, RateLimited};
use crate::timestamp::iso8601_ms;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// The key a request was made with.
#[derive(Clone, Debug)]
pub struct Caller(pub Arc<KeyRecord>);

/// The gate itself (an axum middleware over the whole router). A refusal is
/// audited when the audit log is on; a refused WebSocket upgrade is accepted
/// and told why in an error message (`ws_upgrade::refuse`), as upstream does.
pub async fn authorize(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    let request_id = req.extensions().get::<RequestId>().map(|r| r.0.clone());
    // A refused WebSocket (the SDKs' watcher) gets the refusal as a message.
    let mut upgrade = None;
    if req.headers().contains_key(header::SEC_WEBSOCKET_KEY) {
        let (mut parts, body) = req.into_parts();
        upgrade = ws_upgrade::Pending::take(&parts.headers, &mut parts.extensions);
        req = Request::from_parts(parts, body);
    }
    match gate(&state, req).await {
        Ok(mut req) => {
            if let Some(up) = upgrade {
                up.put_back(req.extensions_mut());
            }
            next.run(req).await
        }
        Err(refused) => {
            let (refusal, key) = *refused;
            audit_trail::refused(&state, request_id.as_deref(), &path, key.as_ref(), &refusal);
            match upgrade {
                Some(up) => ws_upgrade::refuse(up, refusal).await,
                None => refusal,
            }
        }
    }
}

type Refusal = (Response, Option<KeyRecord>);

/// Lets the request through (with its [`Caller`] when keys are on) or says
/// why not.
async fn gate(state: &AppState, mut req: Request) -> Result<Request, Box<Refusal>> {
    let path = req.uri().path();
    // The v2 API (media links are capabilities of their own) and the MCP
    // tools, which run the same scrapes.
    let gated = (path.starts_with("/v2/") && !path.starts_with("/v2/media/"))
        || path == "/mcp"
        || path.starts_with("/mcp/");
    if !gated {
        return Ok(req);
    }
    let limits = &state.services.limits;
    if !limits.keys.auth_required() {
        return Ok(req);
    }
    let class = EndpointClass::of(req.method().as_str(), path);
    // A WebSocket opened by a browser-style client (the JS SDK's watcher)
    // cannot set headers: its key comes as the subprotocol, as upstream reads it.
    let ws_key = match req.headers().get(header::AUTHORIZATION) {
        None if ws_upgrade::is_upgrade(req.headers()) => ws_upgrade::first_protocol(req.headers()),
        _ => None,
    };
    let token = match (req.headers().get(header::AUTHORIZATION), &ws_key) {
        (_, Some(key)) => key.as_str(),
        (None, None) => return Err(Box::new((unauthorized("Unauthorized"), None))),
        (Some(value), None) => value
            .to_str()
            .ok()
            .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
            .map(str::trim)
            .unwrap_or(""),
    };
    if token.is_empty() {
        return Err(Box::new((unauthorized("Unauthorized: Token missing"), None)));
    }
    let Some(key) = limits.keys.find(token) else {
        return Err(Box::new((unauthorized("Unauthorized: Invalid token"), None)));
    };
    let refused = match limits.check_rate(&key, class).await {
        Ok(Ok(())) => None,
        Ok(Err(limited)) => Some(rate_limited(&limited)),
        Err(e) => Some(limits_unavailable(&e)),
    };
    let refused = match refused {
        Some(r) => Some(r),
        None if class.billable() => match limits.usage(&key).await {
            Ok(usage) if usage.remaining() == Some(0) => Some(insufficient_credits()),
            Ok(_) => None,
            Err(e) => Some(limits_unavailable(&e)),
        },
        None => None,
    };
    if let Some(r) = refused {
        return Err(Box::new((r, Some(key))));
    }
    req.extensions_mut().insert(Caller(Arc::new(key)));
    Ok(req)
}

fn unauthorized(message: &str) -> Response {
    ApiError::new(StatusCode::UNAUTHORIZED, "UNAUTHORIZED", message).into_response()
}

/// 402 with upstream's message (its pricing link replaced by the operator).
pub fn insufficient_credits() -> Response {
    ApiError::new(
        StatusCode::PAYMENT_REQUIRED,
        "INSUFFICIENT_CREDITS",
        "Insufficient credits to perform this request. For more credits, ask the operator of this \
         server or try changing the request limit to a lower value.",
    )
    .into_response()
}

/// 429 with upstream's message and `Retry-After`.
pub fn rate_limited(l: &RateLimited) -> Response {
    let message = format!(
        "Rate limit exceeded. Consumed (req/min): {}, Remaining (req/min): {}. Ask the operator of \
         this server for increased rate limits or please retry after {}s, resets at {}",
        l.consumed,
        l.remaining,
        l.retry_after_secs,
        iso8601_ms(l.resets_at_ms)
    );
    with_retry_after(
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "RATE_LIMIT_EXCEEDED", message),
        l.retry_after_secs,
    )
}

/// 429 for a full concurrency queue or a wait past the request's timeout.
pub fn concurrency_error(e: SlotError) -> Response {
    let (code, message) = match e {
        SlotError::QueueFull => (
            "CONCURRENCY_LIMIT_EXCEEDED",
            "Rate limit exceeded: this key's concurrency limit is reached and its queue is full. \
             Please retry after 1s.",
        ),
        SlotError::Timeout => (
            "CONCURRENCY_QUEUE_TIMEOUT",
            "Rate limit exceeded: the request waited for a free concurrency slot until its \
             timeout. Please retry after 1s, or raise `timeout`.",
        ),
        SlotError::Store(e) => return limits_unavailable(&e),
    };
    with_retry_after(ApiError::new(StatusCode::TOO_MANY_REQUESTS, code, message), 1)
}

/// 503 when the counters cannot be reached (fail closed: nothing is served
/// unmetered).
pub fn limits_unavailable(e: &CounterError) -> Response {
    tracing::error!("limits store unavailable: {e}");
    with_retry_after(
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "LIMITS_UNAVAILABLE",
            "The server cannot check this key's limits right now. Please retry shortly.",
        ),
        1,
    )
}

fn with_retry_after(error: ApiError, secs: u64) -> Response {
    let mut response = error.into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    response
}
