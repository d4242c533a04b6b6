//! Key management over HTTP (behind the admin key, as `/admin/plugins`) and
//! the caller's own credit usage:
//!
//! - `GET /admin/keys`: every key (never the key itself) with credits used.
//! - `POST /admin/keys` `{name, credits?, rpm?, concurrency?}`: creates a key;
//!   the answer holds it, once.
//! - `DELETE /admin/keys/{id}`: revokes a key (by id or name).
//! - `GET /v2/team/credit-usage`: upstream's shape for the calling key.

use super::admin::AdminAuth;
use super::auth::{Caller, limits_unavailable};
use super::state::AppState;
use crate::api::ApiError;
use crate::limits::keys::{KeyRecord, NewKey};
use crate::timestamp::iso8601_ms;
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Extension, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// Upstream's credit figure for "unlimited" (its self-hosted bypass).
const UNLIMITED: u64 = 99_999_999;

async fn describe(state: &AppState, r: &KeyRecord) -> Value {
    let used = state.services.limits.usage(r).await.map(|u| u.used).ok();
    json!({
        "id": r.id, "name": r.name, "prefix": r.prefix,
        "credits": r.credits, "creditsUsed": used,
        "rpm": r.rpm, "concurrency": r.concurrency,
        "createdAt": iso8601_ms(r.created_at), "revoked": r.revoked,
    })
}

pub async fn list_keys(_: AdminAuth, State(state): State<AppState>) -> Json<Value> {
    let file = state.services.limits.keys.current();
    let mut keys = Vec::with_capacity(file.keys.len());
    for r in &file.keys {
        keys.push(describe(&state, r).await);
    }
    Json(json!({ "success": true, "keys": keys }))
}

pub async fn create_key(_: AdminAuth, State(state): State<AppState>, body: Bytes) -> Response {
    let body: Value = match serde_json::from_slice(&body) {
        Ok(v @ Value::Object(_)) => v,
        _ => return ApiError::invalid_json().into_response(),
    };
    let number = |field: &str| -> Result<Option<u64>, ApiError> {
        match body.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| ApiError::bad_request(format!("`{field}` must be a non-negative integer"))),
        }
    };
    let new = (|| {
        if let Some(unknown) = body.as_object().and_then(|o| {
            o.keys()
                .find(|k| !["name", "credits", "rpm", "concurrency"].contains(&k.as_str()))
        }) {
            return Err(ApiError::bad_request(format!(
                "Unrecognized key in body: {unknown}"
            )));
        }
        Ok(NewKey {
            name: body["name"]
                .as_str()
                .ok_or_else(|| ApiError::bad_request("`name` (string) is required"))?
                .to_string(),
            credits: number("credits")?,
            rpm: number("rpm")?,
            concurrency: number("concurrency")?,
        })
    })();
    let new = match new {
        Ok(n) => n,
        Err(e) => return e.into_response(),
    };
    match state.services.limits.keys.create(&new) {
        Ok((key, record)) => {
            tracing::info!(key = %record.id, name = %record.name, "API key created");
            let described = describe(&state, &record).await;
            (
                StatusCode::CREATED,
                Json(json!({ "success": true, "key": key, "record": described })),
            )
                .into_response()
        }
        Err(e) => ApiError::bad_request(e.to_string()).into_response(),
    }
}

pub async fn revoke_key(_: AdminAuth, State(state): State<AppState>, Path(id): Path<String>) -> Response {
    match state.services.limits.keys.revoke(&id) {
        Ok(true) => {
            tracing::info!(key = %id, "API key revoked");
            Json(json!({ "success": true })).into_response()
        }
        Ok(false) => {
            ApiError::new(StatusCode::NOT_FOUND, "NOT_FOUND", format!("No active key {id}")).into_response()
        }
        Err(e) => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "KEYS_FILE_ERROR",
            e.to_string(),
        )
        .into_response(),
    }
}

/// `GET /v2/team/credit-usage`. Without keys (auth off): unlimited.
pub async fn credit_usage(State(state): State<AppState>, caller: Option<Extension<Caller>>) -> Response {
    let (plan, used) = match caller {
        None => (None, 0),
        Some(Extension(Caller(key))) => match state.services.limits.usage(&key).await {
            Ok(u) => (u.plan, u.used),
            Err(e) => return limits_unavailable(&e),
        },
    };
    let remaining = plan.map_or(UNLIMITED, |p| p.saturating_sub(used));
    Json(json!({
        "success": true,
        "data": {
            "remainingCredits": remaining,
            "planCredits": plan.unwrap_or(UNLIMITED),
            "billingPeriodStart": null,
            "billingPeriodEnd": null,
            "creditsUsed": used,
        }
    }))
    .into_response()
}
