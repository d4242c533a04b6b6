//! `POST /v2/scrape`: validate the JSON body, run the pipeline isolated.

use super::access_log::RequestId;
use super::respond::{json_body, run_isolated};
use super::state::AppState;
use crate::api::ScrapeRequest;
use crate::pipeline;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

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
    let registry = state.services.plugins.registry();
    let request = match ScrapeRequest::from_json(&body, registry.as_ref()) {
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
        pipeline::scrape_data(&state.services, &request, &id).await
    })
    .await
}
