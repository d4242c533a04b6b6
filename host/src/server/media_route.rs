//! `GET /v2/media/{id}`: a screenshot or PDF the server produced, while it
//! has not expired (24 h). Unknown, malformed and expired ids are all 404.

use super::state::AppState;
use crate::api::ApiError;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

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
