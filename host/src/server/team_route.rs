//! The account calls the official SDKs make besides credit usage
//! (`keys_admin::credit_usage`), in upstream's shapes (docs/API.md, "Team
//! and account calls"):
//!
//! - `GET /v2/concurrency-check`: `{success, concurrency, maxConcurrency}`.
//! - `GET /v2/team/queue-status`: `{success, jobsInQueue, activeJobsInQueue,
//!   waitingJobsInQueue, maxConcurrency, mostRecentSuccess}`.
//! - `GET /v2/team/token-usage`: `{success, data: {remainingTokens,
//!   planTokens, billingPeriodStart, billingPeriodEnd}}`.
//! - `GET /v2/team/credit-usage/historical` and `.../token-usage/historical`
//!   (`?byApiKey=true`): `{success, periods: [{startDate, endDate, apiKey?,
//!   creditsUsed | tokensUsed}]}`.
//! - `GET /v2/parse/formats`: the uploads `/v2/parse` accepts right now.
//!
//! Without keys (auth off) nothing is limited or counted per caller: the
//! figures are upstream's self-hosted "unlimited" (99 999 999) and zeros.

use super::auth::{Caller, limits_unavailable};
use super::state::AppState;
use crate::api::parse_request::{HTML_EXTENSIONS, SPEC_EXTENSIONS};
use crate::plugins::PluginKind;
use axum::Json;
use axum::extract::{Extension, Query, State};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::collections::HashMap;

/// Upstream's figure for "unlimited" (its self-hosted bypass).
pub const UNLIMITED: u64 = 99_999_999;

/// The caller's concurrency: `(slots held, limit)`.
async fn concurrency(state: &AppState, caller: &Option<Extension<Caller>>) -> Result<(u64, u64), Response> {
    let Some(Extension(Caller(key))) = caller else {
        return Ok((0, UNLIMITED));
    };
    let held = state
        .services
        .limits
        .slots
        .in_use(key)
        .await
        .map_err(|e| limits_unavailable(&e))?;
    Ok((held, key.concurrency.unwrap_or(UNLIMITED)))
}

/// `GET /v2/concurrency-check`.
pub async fn concurrency_check(State(state): State<AppState>, caller: Option<Extension<Caller>>) -> Response {
    match concurrency(&state, &caller).await {
        Ok((held, max)) => Json(json!({
            "success": true, "concurrency": held, "maxConcurrency": max,
        }))
        .into_response(),
        Err(refusal) => refusal,
    }
}

/// `GET /v2/team/queue-status`: the caller's scrapes holding a concurrency
/// slot (active) and queued for one on this server (waiting).
pub async fn queue_status(State(state): State<AppState>, caller: Option<Extension<Caller>>) -> Response {
    let (active, max) = match concurrency(&state, &caller).await {
        Ok(c) => c,
        Err(refusal) => return refusal,
    };
    let waiting = caller.as_ref().map_or(0, |Extension(Caller(key))| {
        state.services.limits.slots.waiting(key) as u64
    });
    Json(json!({
        "success": true,
        "jobsInQueue": active + waiting,
        "activeJobsInQueue": active,
        "waitingJobsInQueue": waiting,
        "maxConcurrency": max,
        "mostRecentSuccess": null,
    }))
    .into_response()
}

/// `GET /v2/team/token-usage`. Distill has no token budget (model use is
/// billed in credits), so the remaining tokens are unlimited.
pub async fn token_usage() -> Json<Value> {
    Json(json!({
        "success": true,
        "data": {
            "remainingTokens": UNLIMITED,
            "planTokens": UNLIMITED,
            "billingPeriodStart": null,
            "billingPeriodEnd": null,
        }
    }))
}

/// The `byApiKey` query flag of the historical calls.
fn by_api_key(query: &HashMap<String, String>) -> bool {
    query.get("byApiKey").is_some_and(|v| v == "true")
}

/// One period without bounds (keys have no billing periods), with the key's
/// name when asked per key.
fn period(caller: &Option<Extension<Caller>>, per_key: bool, field: &str, used: u64) -> Value {
    let mut p = json!({ "startDate": null, "endDate": null, field: used });
    if per_key && let Some(Extension(Caller(key))) = caller {
        p["apiKey"] = json!(key.name);
    }
    p
}

/// `GET /v2/team/credit-usage/historical`: one period holding every credit
/// the calling key spent (none without keys).
pub async fn credit_usage_historical(
    State(state): State<AppState>,
    caller: Option<Extension<Caller>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let used = match &caller {
        None => 0,
        Some(Extension(Caller(key))) => match state.services.limits.usage(key).await {
            Ok(u) => u.used,
            Err(e) => return limits_unavailable(&e),
        },
    };
    let periods = vec![period(&caller, by_api_key(&query), "creditsUsed", used)];
    Json(json!({ "success": true, "periods": periods })).into_response()
}

/// `GET /v2/team/token-usage/historical`: no tokens are counted (see
/// [`token_usage`]).
pub async fn token_usage_historical(
    caller: Option<Extension<Caller>>,
    Query(query): Query<HashMap<String, String>>,
) -> Json<Value> {
    let periods = vec![period(&caller, by_api_key(&query), "tokensUsed", 0)];
    Json(json!({ "success": true, "periods": periods }))
}

/// `GET /v2/parse/formats`: HTML, each loaded converter (named after its
/// plugin, with the extensions and MIME types it declares), and the spec's
/// extensions no loaded converter serves (`available: false`).
pub async fn parse_formats(State(state): State<AppState>) -> Json<Value> {
    let registry = state.services.plugins.registry();
    let dotted = |exts: &[String]| exts.iter().map(|e| format!(".{e}")).collect::<Vec<_>>();
    let mut formats = vec![json!({
        "format": "html", "kind": "document",
        "extensions": HTML_EXTENSIONS.iter().map(|e| format!(".{e}")).collect::<Vec<_>>(),
        "mimeTypes": ["text/html", "application/xhtml+xml"],
        "available": true,
    })];
    let mut served: Vec<String> = Vec::new();
    for plugin in registry.plugins() {
        if !matches!(plugin.kind, PluginKind::Converter) || plugin.manifest.extensions.is_empty() {
            continue;
        }
        served.extend(plugin.manifest.extensions.iter().cloned());
        formats.push(json!({
            "format": plugin.manifest.name, "kind": "document",
            "extensions": dotted(&plugin.manifest.extensions),
            "mimeTypes": plugin.manifest.content_types,
            "available": true,
        }));
    }
    for ext in SPEC_EXTENSIONS {
        if HTML_EXTENSIONS.contains(ext) || served.iter().any(|s| s == ext) {
            continue;
        }
        formats.push(json!({
            "format": ext, "kind": "document", "extensions": [format!(".{ext}")],
            "mimeTypes": [], "available": false,
        }));
    }
    Json(json!({ "success": true, "data": { "formats": formats } }))
}
