//! `POST /v2/scrape` (and the MCP `scrape` tool, which calls this handler):
//! validate the JSON body, then run the pipeline [`metered`] (concurrency
//! slot, credits, isolation, billing, audit).

use super::access_log::RequestId;
use super::audit_trail;
use super::auth::Caller;
use super::metered::{self, Job};
use super::respond::json_body;
use super::state::AppState;
use crate::api::ScrapeRequest;
use crate::pipeline;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub async fn scrape(
    State(state): State<AppState>,
    Extension(RequestId(scrape_id)): Extension<RequestId>,
    caller: Option<Extension<Caller>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let caller = caller.map(|Extension(c)| c);
    let parsed = json_body(body).and_then(|body| {
        let registry = state.services.plugins.registry();
        ScrapeRequest::from_json(&body, registry.as_ref())
    });
    let request = match parsed {
        Ok(r) => r,
        Err(e) => {
            let response = e.into_response();
            let key = caller.as_ref().map(|c| c.0.as_ref());
            audit_trail::refused(&state, Some(&scrape_id), "/v2/scrape", key, &response);
            return response;
        }
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
    // The request's timeout counts from here: a wait for a concurrency slot
    // is part of it.
    let deadline = Instant::now() + Duration::from_millis(request.options.timeout_ms);
    let request = Arc::new(request);
    let (id, work_state, work_request) = (scrape_id.clone(), state.clone(), request.clone());
    let owner = caller.as_ref().map(|c| c.0.id.clone());
    // Boxed here: the route's future then holds a pointer, not the
    // pipeline's state machine (~10 KB, copied at every move).
    let work = Box::pin(async move {
        if fault.as_deref() == Some("panic") {
            panic!("fault injected by x-distill-fault header");
        }
        let data = pipeline::scrape_data_until(&work_state.services, &work_request, &id, deadline).await;
        if data.is_ok() {
            // Interact replays it (docs/BROWSER.md).
            work_state
                .interact
                .record(&id, &work_request.url, &work_request.options, owner.as_deref());
        }
        data
    });
    let job = Job {
        route: "scrape",
        path: "/v2/scrape",
        request_id: &scrape_id,
        target: Some(request.url.as_str()),
        deadline,
    };
    metered::run(&state, caller, job, &request.options, work).await
}
