//! Crawl and batch scrape routes: `POST /v2/crawl`, `POST /v2/batch/scrape`,
//! and for both `GET /{id}` (status + documents, `next` by size),
//! `DELETE /{id}`, `GET /{id}/errors`; `GET /v2/crawl/active`. Shapes and
//! messages as upstream's (compat notes §7).

use super::auth::Caller;
use super::respond::json_body;
use super::state::AppState;
use crate::api::ApiError;
use crate::api::crawl_request::{BatchRequest, CrawlRequest};
use crate::crawl::preview::{self, PreviewError};
use crate::jobs::{JobKind, JobRecord, JobStatus};
use crate::timestamp::iso8601_ms;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

/// Largest JSON of documents in one status response (upstream: ~10 MiB).
pub const MAX_PAGE_BYTES: usize = 10 << 20;

/// `?skip=N&limit=L` of a status request.
#[derive(Debug, Default, Deserialize)]
pub struct Paging {
    skip: Option<u64>,
    limit: Option<u64>,
}

fn not_found() -> Response {
    missing("Job not found")
}

/// A 404 that says which job was not found.
fn missing(message: &str) -> Response {
    (
        StatusCode::NOT_FOUND,
        Json(json!({"success": false, "error": message})),
    )
        .into_response()
}

/// Why a job another API key started is refused.
pub const NOT_YOURS: &str = "Forbidden: this job was started with another API key";

/// A job another API key started (upstream: 403 for another team's job).
fn forbidden() -> Response {
    (
        StatusCode::FORBIDDEN,
        Json(json!({
            "success": false,
            "code": "FORBIDDEN",
            "error": NOT_YOURS,
        })),
    )
        .into_response()
}

/// A job-queue failure: logged with an id, answered as upstream's unknown error.
pub(super) fn internal(e: impl std::fmt::Display) -> Response {
    let error_id = uuid::Uuid::now_v7().to_string();
    tracing::error!(error_id = %error_id, "job queue failure: {e}");
    ApiError::unknown(&error_id).into_response()
}

/// `<scheme>://<host>` the client used (for the `url` and `next` fields).
fn base_url(state: &AppState, headers: &HeaderMap) -> String {
    if let Some(public) = &state.config.public_url {
        return public.trim_end_matches('/').to_string();
    }
    let host = headers
        .get("host")
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .unwrap_or_else(|| format!("{}:{}", state.config.host, state.config.port));
    let proto = headers
        .get("x-forwarded-proto")
        .and_then(|h| h.to_str().ok())
        .filter(|p| *p == "https" || *p == "http")
        .unwrap_or("http");
    format!("{proto}://{host}")
}

fn path_of(kind: JobKind) -> &'static str {
    match kind {
        JobKind::Crawl => "/v2/crawl",
        JobKind::Batch => "/v2/batch/scrape",
        JobKind::Extract => "/v2/extract",
    }
}

/// Applies `promptGeneratedOptions` under the explicit options of a crawl body.
async fn with_prompt(state: &AppState, body: &mut Value) -> Result<Option<Value>, ApiError> {
    let Some(prompt) = body.get("prompt").and_then(Value::as_str).map(str::to_string) else {
        return Ok(None);
    };
    let url = body.get("url").and_then(Value::as_str).unwrap_or("").to_string();
    let derived = preview::derive(state.config.llm.as_ref(), &url, &prompt)
        .await
        .map_err(preview_error)?;
    if let Some(obj) = body.as_object_mut() {
        for (k, v) in &derived {
            obj.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    Ok(Some(Value::Object(derived)))
}

pub fn preview_error(e: PreviewError) -> ApiError {
    match e {
        PreviewError::NoModel => ApiError::new(
            StatusCode::NOT_IMPLEMENTED,
            "LLM_NOT_CONFIGURED",
            "Deriving crawl options from a prompt needs a language model; the operator has not configured one \
             (DISTILL_LLM_BASE_URL). Give the crawl options explicitly instead.",
        ),
        PreviewError::Failed(why) => {
            tracing::warn!("prompt → crawl options failed: {why}");
            ApiError::bad_request("Failed to process natural language prompt. Please try rephrasing.")
        }
    }
}

pub async fn start_crawl(
    State(state): State<AppState>,
    caller: Option<Extension<Caller>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let mut body = match json_body(body) {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let registry = state.services.plugins.registry();
    // Validate before asking a model anything.
    if let Err(e) = CrawlRequest::from_json(&body, registry.as_ref()) {
        return e.into_response();
    }
    let generated = match with_prompt(&state, &mut body).await {
        Ok(g) => g,
        Err(e) => return e.into_response(),
    };
    let request = match CrawlRequest::from_json(&body, registry.as_ref()) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    // As upstream: a crawl's limit is lowered to the key's remaining credits.
    if let Some(Extension(c)) = &caller
        && let Ok(usage) = state.services.limits.usage(&c.0).await
        && let Some(left) = usage.remaining()
        && left < request.limit
    {
        body["limit"] = json!(left.max(1));
    }
    let job = match create(&state, JobKind::Crawl, &body, vec![request.url.clone()], caller).await {
        Ok(j) => j,
        Err(e) => return e,
    };
    let mut out = started(&state, &headers, &job, "crawl");
    if let Some(g) = generated {
        out["promptGeneratedOptions"] = g;
        out["finalCrawlerOptions"] = body;
    }
    Json(out).into_response()
}

pub async fn start_batch(
    State(state): State<AppState>,
    caller: Option<Extension<Caller>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match json_body(body) {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let registry = state.services.plugins.registry();
    let request = match BatchRequest::from_json(&body, registry.as_ref()) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let job = match &request.append_to_id {
        Some(id) => {
            // Appended pages spend the job's key's credits: only its own key may append.
            let job = match job_of(&state, id, JobKind::Batch, caller.as_ref().map(|c| &c.0)).await {
                Ok(j) => j,
                Err(r) => return r,
            };
            let finished = || {
                ApiError::new(
                    StatusCode::CONFLICT,
                    "JOB_FINISHED",
                    "The batch scrape has already finished; start a new one",
                )
                .into_response()
            };
            if job.status.is_final() {
                return finished();
            }
            // Queueing and completing are each atomic in the store: URLs
            // queued first keep the job running; a job completed first
            // queues nothing, and the caller is told.
            match state.crawls.append(&job, request.urls.clone()).await {
                Ok(0) if !request.urls.is_empty() => match state.crawls.store.get(id).await {
                    Ok(Some(j)) if j.status.is_final() => return finished(),
                    Ok(_) => {}
                    Err(e) => return internal(e),
                },
                Ok(_) => {}
                Err(e) => return internal(e),
            }
            job
        }
        None => match create(&state, JobKind::Batch, &body, request.urls.clone(), caller).await {
            Ok(j) => j,
            Err(e) => return e,
        },
    };
    let mut out = started(&state, &headers, &job, "batch/scrape");
    if !request.invalid_urls.is_empty() {
        out["invalidURLs"] = json!(request.invalid_urls);
    }
    Json(out).into_response()
}

/// Stores a new job billed to the caller.
async fn create(
    state: &AppState,
    kind: JobKind,
    body: &Value,
    urls: Vec<url::Url>,
    caller: Option<Extension<Caller>>,
) -> Result<JobRecord, Response> {
    state
        .crawls
        .create_billed(kind, body.clone(), urls, bill_to(caller))
        .await
        .map_err(internal)
}

/// Starts working `job` here and answers its id and status URL
/// (`/v2/{path}/{id}`), as upstream's start routes do.
fn started(state: &AppState, headers: &HeaderMap, job: &JobRecord, path: &str) -> Value {
    state.crawls.run(job.clone());
    json!({
        "success": true,
        "id": job.id,
        "url": format!("{}/v2/{path}/{}", base_url(state, headers), job.id),
    })
}

/// The job `id` of `kind`, if the caller may use it (`JobRecord::open_to`).
async fn job_of(
    state: &AppState,
    id: &str,
    kind: JobKind,
    caller: Option<&Caller>,
) -> Result<JobRecord, Response> {
    job_or(state, id, kind, caller, "Job not found").await
}

/// [`job_of`] with the 404's message given: another key's job is a 403, a
/// missing one (or one of another kind) a 404 saying `not_found`.
pub(super) async fn job_or(
    state: &AppState,
    id: &str,
    kind: JobKind,
    caller: Option<&Caller>,
    not_found: &str,
) -> Result<JobRecord, Response> {
    match state.crawls.store.get(id).await {
        Ok(Some(j)) if j.kind == kind && j.open_to(key_id(caller)) => Ok(j),
        Ok(Some(j)) if j.kind == kind => Err(forbidden()),
        Ok(_) => Err(missing(not_found)),
        Err(e) => Err(internal(e)),
    }
}

/// The public id of the caller's key (`None`: authentication off).
pub fn key_id(caller: Option<&Caller>) -> Option<&str> {
    caller.map(|c| c.0.id.as_str())
}

async fn status(
    state: AppState,
    headers: HeaderMap,
    id: String,
    paging: Paging,
    kind: JobKind,
    caller: Option<&Caller>,
) -> Response {
    let job = match job_of(&state, &id, kind, caller).await {
        Ok(j) => j,
        Err(r) => return r,
    };
    let skip = paging.skip.unwrap_or(0);
    let page = match state
        .crawls
        .store
        .results(&id, skip, MAX_PAGE_BYTES, paging.limit.filter(|l| *l > 0))
        .await
    {
        Ok(p) => p,
        Err(e) => return internal(e),
    };
    let mut out = json!({
        "success": true,
        "status": job.status.as_str(),
        "completed": job.completed,
        "total": job.total,
        "creditsUsed": job.credits,
        "expiresAt": iso8601_ms(job.expires_at_ms),
    });
    if let Some(next) = page.next {
        let limit = paging.limit.map(|l| format!("&limit={l}")).unwrap_or_default();
        out["next"] = json!(format!(
            "{}{}/{}?skip={next}{limit}",
            base_url(&state, &headers),
            path_of(kind),
            id
        ));
    }
    if let Some(e) = &job.error {
        out["error"] = json!(e);
    }
    out["data"] = Value::Array(page.documents);
    Json(out).into_response()
}

async fn cancel(state: AppState, id: String, kind: JobKind, caller: Option<Extension<Caller>>) -> Response {
    if let Err(r) = job_of(&state, &id, kind, caller.as_ref().map(|c| &c.0)).await {
        return r;
    }
    match state.crawls.cancel(&id).await {
        Ok(Some(JobStatus::Scraping | JobStatus::Cancelled)) => {
            Json(json!({"success": true, "status": "cancelled"})).into_response()
        }
        Ok(Some(_)) => (
            StatusCode::CONFLICT,
            Json(json!({"success": false, "error": "Job already completed"})),
        )
            .into_response(),
        Ok(None) => not_found(),
        Err(e) => internal(e),
    }
}

async fn errors(state: AppState, id: String, kind: JobKind, caller: Option<Extension<Caller>>) -> Response {
    if let Err(r) = job_of(&state, &id, kind, caller.as_ref().map(|c| &c.0)).await {
        return r;
    }
    match state.crawls.store.errors(&id).await {
        Ok((errors, robots)) => {
            Json(json!({"success": true, "errors": errors, "robotsBlocked": robots})).into_response()
        }
        Err(e) => internal(e),
    }
}

/// A status request's query that is not `skip`/`limit` as non-negative
/// integers: a JSON 400, not axum's plain-text one.
fn bad_paging(e: QueryRejection) -> Response {
    ApiError::bad_request(format!(
        "Invalid query string: skip and limit must be non-negative integers ({})",
        e.body_text()
    ))
    .into_response()
}

/// A crawl's or batch's status page (`GET /v2/crawl/{id}`, `/v2/batch/scrape/{id}`
/// without a WebSocket upgrade: `job_watch` routes both here).
pub async fn status_page(
    s: AppState,
    h: HeaderMap,
    id: String,
    query: Result<Query<Paging>, QueryRejection>,
    kind: JobKind,
    caller: Option<&Caller>,
) -> Response {
    match query {
        Ok(Query(p)) => status(s, h, id, p, kind, caller).await,
        Err(e) => bad_paging(e),
    }
}
pub async fn crawl_cancel(
    State(s): State<AppState>,
    caller: Option<Extension<Caller>>,
    Path(id): Path<String>,
) -> Response {
    cancel(s, id, JobKind::Crawl, caller).await
}
pub async fn batch_cancel(
    State(s): State<AppState>,
    caller: Option<Extension<Caller>>,
    Path(id): Path<String>,
) -> Response {
    cancel(s, id, JobKind::Batch, caller).await
}
pub async fn crawl_errors(
    State(s): State<AppState>,
    caller: Option<Extension<Caller>>,
    Path(id): Path<String>,
) -> Response {
    errors(s, id, JobKind::Crawl, caller).await
}
pub async fn batch_errors(
    State(s): State<AppState>,
    caller: Option<Extension<Caller>>,
    Path(id): Path<String>,
) -> Response {
    errors(s, id, JobKind::Batch, caller).await
}

/// `GET /v2/crawl/active` (also `/ongoing`): the caller's running crawls.
pub async fn active(State(state): State<AppState>, caller: Option<Extension<Caller>>) -> Response {
    let key = key_id(caller.as_ref().map(|c| &c.0));
    match state.crawls.store.active().await {
        Ok(jobs) => {
            let crawls: Vec<Value> = jobs
                .into_iter()
                .filter(|j| j.kind == JobKind::Crawl && j.open_to(key))
                .map(|j| {
                    let mut options = j.request.clone();
                    if let Some(o) = options.as_object_mut() {
                        o.remove("url");
                    }
                    json!({"id": j.id, "teamId": "bypass", "url": j.url, "created_at": iso8601_ms(j.created_at_ms), "options": options})
                })
                .collect();
            Json(json!({"success": true, "crawls": crawls})).into_response()
        }
        Err(e) => internal(e),
    }
}

/// The key a job's pages are billed to (its public id).
fn bill_to(caller: Option<Extension<Caller>>) -> Option<String> {
    caller.map(|Extension(c)| c.0.id.clone())
}
