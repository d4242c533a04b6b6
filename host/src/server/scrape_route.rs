//! `POST /v2/scrape`: validate the JSON body, meter it (concurrency slot,
//! credits), run the pipeline isolated, bill and audit the outcome.

use super::access_log::RequestId;
use super::audit_trail::{self, Subject};
use super::auth::Caller;
use super::billing::{self, Meter};
use super::respond::{isolated, json_body, respond, run_caught};
use super::state::AppState;
use crate::api::{ApiError, ScrapeRequest};
use crate::pipeline::{self, Data};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::Value;
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
    let deadline = Instant::now() + Duration::from_millis(request.options.timeout_ms);
    let meter = match Meter::start(&state, caller.clone(), deadline).await {
        Ok(m) => m,
        Err(refused) => {
            let key = caller.as_ref().map(|c| c.0.as_ref());
            audit_trail::refused(&state, Some(&scrape_id), "/v2/scrape", key, &refused);
            return refused;
        }
    };
    let request = Arc::new(request);
    let (id, work_state, work_request) = (scrape_id.clone(), state.clone(), request.clone());
    let outcome = run_caught(scrape_id.clone(), async move {
        if fault.as_deref() == Some("panic") {
            panic!("fault injected by x-distill-fault header");
        }
        pipeline::scrape(&work_state.services, &work_request, &id).await
    })
    .await;
    let (credits, response) = match outcome {
        Ok(mut outcome) => {
            if outcome.is_ok() {
                // Interact replays it (docs/BROWSER.md).
                let owner = caller.as_ref().map(|c| c.0.id.as_str());
                state
                    .interact
                    .record(&scrape_id, &request.url, &request.options, owner);
            }
            let credits = billing::cost(&request.options, &outcome);
            meter.finish(&state, credits, outcome.as_mut().ok()).await;
            (credits, respond(outcome))
        }
        Err(panicked) => {
            meter.finish(&state, 0, None).await;
            (0, panicked)
        }
    };
    let subject = Subject {
        route: "scrape",
        request_id: &scrape_id,
        target: Some(request.url.as_str()),
        options: Some(&request.options),
    };
    let key = caller.as_ref().map(|c| c.0.as_ref());
    audit_trail::record(&state, key, subject, credits, &response);
    response
}

/// Validates a scrape body and runs the pipeline isolated, for the MCP
/// `scrape` tool (the route above adds metering, billing and the audit trail).
pub async fn run_scrape(state: &AppState, body: &Value, scrape_id: String) -> Result<Data, ApiError> {
    let registry = state.services.plugins.registry();
    let request = ScrapeRequest::from_json(body, registry.as_ref())?;
    let services = state.services.clone();
    let id = scrape_id.clone();
    isolated(scrape_id, async move {
        pipeline::scrape_data(&services, &request, &id).await
    })
    .await
}
