//! What operators and integrators read about a running server: `/metrics`
//! (Prometheus text format) and `/openapi.json` (the API's OpenAPI document,
//! for the plugins loaded now).

use super::state::AppState;
use crate::api::openapi;
use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;

pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    let cache_bytes = match &state.services.cache {
        Some(cache) => cache.store().memory_bytes().await,
        None => None,
    };
    crate::telemetry::memory_gauges(
        crate::plugins::plugin::live_versions(),
        cache_bytes,
        crate::heap_trim::stats().0,
    );
    // Two table lengths (embedded) or one round trip (Redis); a queue that
    // cannot answer leaves the last values.
    match state.crawls.store.depth().await {
        Ok((queued, leased)) => crate::telemetry::job_tasks(queued, leased),
        Err(e) => tracing::warn!("/metrics: job queue depth unknown: {e}"),
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        crate::telemetry::render(),
    )
}

pub async fn openapi_document(State(state): State<AppState>) -> impl IntoResponse {
    let registry = state.services.plugins.registry();
    Json(openapi::document(registry.as_ref()))
}
