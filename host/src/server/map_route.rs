//! `POST /v2/map` and `POST /v2/crawl/params-preview`.

use super::jobs_route::preview_error;
use super::respond::json_body;
use super::state::AppState;
use crate::api::ApiError;
use crate::api::crawl_request::{MapRequest, preview_request};
use crate::crawl::{map, preview};
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

pub async fn map(State(state): State<AppState>, body: Result<Bytes, BytesRejection>) -> Response {
    let body = match json_body(body) {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let registry = state.services.plugins.registry();
    let request = match MapRequest::from_json(&body, registry.as_ref()) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    match map::map(&state.crawls, &request).await {
        Ok(links) => Json(json!({"success": true, "links": links})).into_response(),
        Err(map::MapTimeout) => {
            ApiError::new(StatusCode::REQUEST_TIMEOUT, "MAP_TIMEOUT", "Map timed out").into_response()
        }
    }
}

pub async fn params_preview(State(state): State<AppState>, body: Result<Bytes, BytesRejection>) -> Response {
    let body = match json_body(body) {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let registry = state.services.plugins.registry();
    let (url, prompt) = match preview_request(&body, registry.as_ref()) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    match preview::derive(state.config.llm.as_ref(), url.as_str(), &prompt).await {
        Ok(options) => {
            let mut data = serde_json::Map::new();
            data.insert("url".into(), Value::String(url.to_string()));
            data.extend(options);
            Json(json!({"success": true, "data": data})).into_response()
        }
        Err(e) => preview_error(e).into_response(),
    }
}
