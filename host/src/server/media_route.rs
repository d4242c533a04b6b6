//! `GET /v2/media/{id}`: a screenshot or PDF the server produced, while it
//! has not expired (24 h). Unknown, malformed and expired ids are all 404.
//! `GET /v2/media/signed/{file}`: extracted audio / video behind a signed,
//! expiring link (403 tampered, 410 expired).

use super::state::AppState;
use crate::api::ApiError;
use crate::media_capability::signed_store::ServeError;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;

pub async fn media(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    match state.services.media.get(&id) {
        Some((bytes, content_type)) => (
            [
                (header::CONTENT_TYPE, content_type),
                (header::CACHE_CONTROL, "private, max-age=86400"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            bytes,
        )
            .into_response(),
        None => ApiError::new(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            "This media file does not exist or has expired.".to_string(),
        )
        .into_response(),
    }
}

/// `GET /v2/media/signed/{file}?expires=..&signature=..`: extracted audio or
/// video while its signed link is valid. A missing or wrong signature (any
/// part of the link changed) → 403; a valid link past its expiry → 410; an
/// unknown file → 404.
pub async fn signed_media(
    State(state): State<AppState>,
    Path(file): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let store = &state.services.signed_media;
    let served = store.serve(
        &file,
        query.get("expires").map(String::as_str),
        query.get("signature").map(String::as_str),
    );
    match served {
        Ok(f) => (
            [
                (header::CONTENT_TYPE, f.content_type.to_string()),
                (
                    header::CACHE_CONTROL,
                    format!("private, max-age={}", f.remaining_secs),
                ),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
            ],
            f.bytes,
        )
            .into_response(),
        Err(ServeError::NotFound) => ApiError::new(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            "This media file does not exist or has been removed.".to_string(),
        )
        .into_response(),
        Err(ServeError::BadSignature) => ApiError::new(
            StatusCode::FORBIDDEN,
            "MEDIA_SIGNATURE_INVALID",
            "This media link's signature is missing or does not match: use the link exactly as the \
             scrape response returned it."
                .to_string(),
        )
        .into_response(),
        Err(ServeError::Expired) => ApiError::new(
            StatusCode::GONE,
            "MEDIA_LINK_EXPIRED",
            format!(
                "This media link has expired (links are valid for {} seconds): scrape the page again \
                 for a new one.",
                store.ttl().as_secs()
            ),
        )
        .into_response(),
    }
}
