//! Request logging: every request gets an id (also used as `scrapeId`) and
//! exactly one log line when it ends: method, path, status, error code, time
//! — and the request metrics (by matched route, so ids never become labels).

use crate::api::error::ErrorCode;
use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use std::time::Instant;

/// The id of the current request, available to handlers as an extension.
#[derive(Clone, Debug)]
pub struct RequestId(pub String);

pub async fn log_request(mut req: Request, next: Next) -> Response {
    let started = Instant::now();
    // Counted on its serving thread until the response is made.
    let _in_flight = crate::lane::request();
    // What the request left to free is freed once its response is written.
    let _after = crate::later::AfterResponse;
    let id = uuid::Uuid::now_v7().to_string();
    req.extensions_mut().insert(RequestId(id.clone()));
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_string();
    let response = next.run(req).await;
    let status = response.status().as_u16();
    crate::telemetry::http_request(&route, method.as_str(), status, started.elapsed());
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let code = response
        .extensions()
        .get::<ErrorCode>()
        .map(|c| c.0)
        .unwrap_or("");
    if status >= 500 {
        tracing::error!(request = %id, %method, %path, status, code, ms = format!("{ms:.1}"), "request failed");
    } else if status >= 400 || !code.is_empty() {
        tracing::warn!(request = %id, %method, %path, status, code, ms = format!("{ms:.1}"), "request rejected");
    } else {
        tracing::info!(request = %id, %method, %path, status, ms = format!("{ms:.1}"), "request ok");
    }
    response
}
