//! `POST /v2/scrape`: validate the JSON body, run the pipeline isolated.

use super::access_log::RequestId;
use super::respond::{isolated, json_body, respond};
use super::state::AppState;
use crate::api::{ApiError, ScrapeRequest};
use crate::pipeline::Data;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::Value;

pub async fn scrape(
    State(state): State<AppState>,
    Extension(RequestId(scrape_id)): Extension<RequestId>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match json_body(body) {
        Ok(v) => v,
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
    respond(run_scrape(&state, &body, scrape_id, fault).await)
}

/// Validates a scrape body and runs the pipeline isolated (also the MCP
/// `scrape` tool). `fault` is a test fault to inject (tests only).
pub async fn run_scrape(
    state: &AppState,
    body: &Value,
    scrape_id: String,
    fault: Option<String>,
) -> Result<Data, ApiError> {
    let registry = state.services.plugins.registry();
    let request = ScrapeRequest::from_json(body, registry.as_ref())?;
    let services = state.services.clone();
    let id = scrape_id.clone();
    isolated(scrape_id, async move {
        if fault.as_deref() == Some("panic") {
            panic!("fault injected by x-distill-fault header");
        }
        crate::pipeline::scrape_data(&services, &request, &id).await
    })
    .await
}
