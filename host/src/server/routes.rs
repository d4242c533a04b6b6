//! Route handlers: `POST /v2/scrape`, health, and JSON answers for unknown
//! routes and methods.

use super::AppState;
use super::access_log::RequestId;
use crate::api::{ApiError, ScrapeRequest};
use crate::pipeline;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(root))
        .route("/health", get(health))
        .route("/v2/scrape", post(scrape))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
}

async fn root() -> Json<Value> {
    Json(json!({ "name": "distill", "version": env!("CARGO_PKG_VERSION"), "api": "/v2" }))
}

async fn health(State(state): State<AppState>) -> Json<Value> {
    let registry = state.runtime.registry();
    let plugins: Vec<Value> = registry
        .plugins()
        .iter()
        .map(|p| json!({ "name": p.manifest.name, "version": p.manifest.version, "kind": p.kind }))
        .collect();
    Json(json!({ "status": "ok", "plugins": plugins }))
}

/// Reads a JSON body, mapping every failure to the upstream error shapes.
pub fn json_body(body: Result<Bytes, BytesRejection>) -> Result<Value, ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "BAD_REQUEST",
                format!("Request body exceeds the {} MB limit", super::MAX_JSON_BODY >> 20),
            )
        } else {
            ApiError::bad_request(format!("Could not read the request body: {rejection}"))
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|_| ApiError::invalid_json())
}

async fn scrape(
    State(state): State<AppState>,
    Extension(RequestId(scrape_id)): Extension<RequestId>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match json_body(body) {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let registry = state.runtime.registry();
    let request = match ScrapeRequest::from_json(&body, &|name| registry.format(name).is_some()) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let fault = state
        .test_faults
        .then(|| {
            headers
                .get("x-distill-fault")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        })
        .flatten();
    let id = scrape_id.clone();
    run_isolated(scrape_id, async move {
        if fault.as_deref() == Some("panic") {
            panic!("fault injected by x-distill-fault header");
        }
        pipeline::scrape(&state, &request, &id).await
    })
    .await
}

/// Runs a request's work in its own task, so a panic anywhere in it becomes a
/// logged 500 UNKNOWN_ERROR (with an error id) for this request only.
pub async fn run_isolated(
    request_id: String,
    work: impl Future<Output = Result<Value, ApiError>> + Send + 'static,
) -> Response {
    match tokio::spawn(work).await {
        Ok(Ok(data)) => Json(json!({ "success": true, "data": data })).into_response(),
        Ok(Err(e)) => e.into_response(),
        Err(join_error) => {
            let error_id = uuid::Uuid::now_v7().to_string();
            tracing::error!(error_id = %error_id, request = %request_id, "request failed unexpectedly: {join_error}");
            ApiError::unknown(&error_id).into_response()
        }
    }
}

async fn not_found(method: Method, uri: Uri) -> Response {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
        format!("No route for {method} {}", uri.path()),
    )
    .into_response()
}

async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "METHOD_NOT_ALLOWED",
        format!("{method} is not allowed on {}", uri.path()),
    )
    .into_response()
}
