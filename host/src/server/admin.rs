//! The operator API, enabled by `DISTILL_ADMIN_KEY` and protected by it
//! (`Authorization: Bearer <key>`):
//!
//! - `GET /admin/plugins`: every loaded plugin — name, version, kind, what it
//!   serves, limits, file, SHA-256, load time, call and error counts, p50/p99.
//! - `POST /admin/plugins/reload`: rescan the plugins directory now; returns
//!   what was loaded, replaced, removed or refused.
//! - `GET /admin/llm`: the language model's settings (no key) and token usage
//!   per format since start (calls, failures, attempts, repairs, tokens, ms).

use super::state::AppState;
use crate::api::ApiError;
use crate::plugins::LoadedPlugin;
use crate::timestamp::rfc3339_seconds;
use axum::Json;
use axum::extract::{FromRequestParts, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// Proof that the request carries the admin key; rejects otherwise.
pub struct AdminAuth;

impl FromRequestParts<AppState> for AdminAuth {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let Some(key) = state.config.admin_key.as_deref() else {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "ADMIN_DISABLED",
                "The admin API is disabled. Set DISTILL_ADMIN_KEY to enable it.",
            )
            .into_response());
        };
        let given = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        match given {
            None => Err(unauthorized("Unauthorized: Token missing")),
            Some(token) if constant_time_eq(token.as_bytes(), key.as_bytes()) => Ok(AdminAuth),
            Some(_) => Err(unauthorized("Unauthorized: Invalid token")),
        }
    }
}

fn unauthorized(message: &str) -> Response {
    ApiError::new(StatusCode::UNAUTHORIZED, "UNAUTHORIZED", message).into_response()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

pub async fn llm_usage(_: AdminAuth, State(state): State<AppState>) -> Json<Value> {
    let Some(llm) = state.services.plugins.services().llm.clone() else {
        return Json(json!({"success": true, "configured": false, "usage": {}}));
    };
    let c = llm.config();
    Json(json!({
        "success": true,
        "configured": true,
        "baseUrl": c.base_url,
        "model": c.model,
        "formatModels": c.format_models,
        "contextTokens": c.context_tokens,
        "maxTokens": c.max_tokens_cap,
        "usage": llm.totals().to_json(),
    }))
}

pub async fn list_plugins(_: AdminAuth, State(state): State<AppState>) -> Json<Value> {
    let registry = state.services.plugins.registry();
    let plugins: Vec<Value> = registry.plugins().iter().map(|p| describe(p)).collect::<Vec<_>>();
    Json(json!({
        "success": true,
        "pluginsDir": state.services.plugins.plugins_dir().display().to_string(),
        "plugins": plugins,
    }))
}

pub async fn reload_plugins(_: AdminAuth, State(state): State<AppState>) -> Json<Value> {
    let report = state.services.plugins.reload().await;
    Json(json!({ "success": true, "report": report }))
}

fn describe(p: &LoadedPlugin) -> Value {
    let m = &p.manifest;
    let stats = p.stats.snapshot();
    json!({
        "name": m.name,
        "version": m.version,
        "kind": p.kind,
        "abi": p.abi_version,
        "description": m.description,
        "formats": m.formats,
        "extensions": m.extensions,
        "contentTypes": m.content_types,
        "capabilities": m.capabilities,
        "grantedCapabilities": p.granted,
        "memoryLimitMib": m.memory_limit_mib,
        "timeoutMs": m.timeout_ms,
        "consumes": m.consumes,
        "reads": m.reads,
        "parser": m.parser,
        "file": p.path.display().to_string(),
        "sha256": p.sha256,
        "loadedAt": rfc3339_seconds(p.loaded_at),
        "codeMapped": p.code.is_mapped(),
        "calls": stats.calls,
        "errors": stats.errors,
        "p50Ms": stats.p50_ms,
        "p99Ms": stats.p99_ms,
    })
}
