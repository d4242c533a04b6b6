//! `POST /v2/extract` and `GET /v2/extract/{id}` (docs/API.md, "Extract"):
//! the request validated (`api::extract_request`), refused with 501
//! `LLM_NOT_CONFIGURED` at once when the server has no model, else an
//! extract job in the job queue (its pages scraped as a batch's are, then
//! one model call: `crawl/extract_step.rs`), answered `{success, id}`. The
//! status answers the fields firecrawl-py's `ExtractResponse` and
//! firecrawl-js's read: `status` processing / completed / failed /
//! cancelled, `data`, `error`, `warning`, `sources`, `expiresAt`,
//! `creditsUsed`, `tokensUsed`; a job another API key started: 403.

use super::auth::Caller;
use super::jobs_route::{internal, job_or};
use super::respond::json_body;
use super::state::AppState;
use crate::api::ApiError;
use crate::api::extract_request::ExtractRequest;
use crate::crawl::extract_step::NO_MODEL;
use crate::jobs::{JobKind, JobStatus};
use crate::timestamp::iso8601_ms;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// `POST /v2/extract`.
pub async fn start(
    State(state): State<AppState>,
    caller: Option<Extension<Caller>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match json_body(body) {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let registry = state.services.plugins.registry();
    let request = match ExtractRequest::from_json(&body, registry.as_ref()) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if state.services.plugins.services().llm.is_none() {
        return ApiError::new(
            StatusCode::NOT_IMPLEMENTED,
            "LLM_NOT_CONFIGURED",
            format!("Extract needs a language model: {NO_MODEL}; see docs/LLM.md"),
        )
        .into_response();
    }
    let bill_to = caller.map(|Extension(c)| c.0.id.clone());
    let job = match state
        .crawls
        .create_billed(JobKind::Extract, body, request.urls.clone(), bill_to)
        .await
    {
        Ok(j) => j,
        Err(e) => return internal(e),
    };
    state.crawls.run(job.clone());
    let mut out = json!({"success": true, "id": job.id});
    if !request.invalid_urls.is_empty() {
        out["invalidURLs"] = json!(request.invalid_urls);
    }
    Json(out).into_response()
}

/// `GET /v2/extract/{id}`.
/// Only the key that started the job may read it (as crawl and batch jobs:
/// `JobRecord::open_to`, 403 `FORBIDDEN`).
pub async fn status(
    State(state): State<AppState>,
    caller: Option<Extension<Caller>>,
    Path(id): Path<String>,
) -> Response {
    let caller = caller.as_ref().map(|Extension(c)| c);
    let job = match job_or(&state, &id, JobKind::Extract, caller, "Extract job not found").await {
        Ok(j) => j,
        Err(r) => return r,
    };
    let mut out = json!({
        "success": true,
        "id": job.id,
        "status": match job.status {
            JobStatus::Scraping => "processing",
            other => other.as_str(),
        },
        "data": null,
        "expiresAt": iso8601_ms(job.expires_at_ms),
        "creditsUsed": job.credits,
        "tokensUsed": 0,
    });
    if job.status == JobStatus::Completed && job.results > 0 {
        let last = match state
            .crawls
            .store
            .results(&id, job.results - 1, usize::MAX, Some(1))
            .await
        {
            Ok(page) => page.documents.into_iter().next(),
            Err(e) => return internal(e),
        };
        if let Some(Value::Object(mut result)) = last.map(|mut d| d["extract"].take()) {
            for key in ["data", "warning", "sources", "tokensUsed"] {
                if let Some(v) = result.remove(key) {
                    out[key] = v;
                }
            }
        }
    }
    if let Some(e) = &job.error {
        out["error"] = json!(e);
    }
    Json(out).into_response()
}
