//! Error responses. Every failure leaves the server as
//! `{"success": false, "code": "...", "error": "...", "details"?: ...}` with the
//! status and code upstream Firecrawl uses for the same condition.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// An error on its way to the client.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub details: Option<Value>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            details: None,
        }
    }

    pub fn with_details(mut self, details: Value) -> Self {
        self.details = Some(details);
        self
    }

    /// 400 `BAD_REQUEST` with a message.
    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, "BAD_REQUEST", message)
    }

    /// 400 `BAD_REQUEST_INVALID_JSON`: the body is not JSON.
    pub fn invalid_json() -> Self {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "BAD_REQUEST_INVALID_JSON",
            "Bad request, malformed JSON",
        )
    }

    /// 408 `SCRAPE_TIMEOUT`.
    pub fn timeout(timeout_ms: u64, stage: &str) -> Self {
        ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "SCRAPE_TIMEOUT",
            format!(
                "The scrape operation timed out before completing ({timeout_ms} ms, while {stage}). \
                 This happens when a page takes too long to load or process. Possible fixes: \
                 (1) raise the `timeout` option (max 300000), (2) check that the site answers quickly."
            ),
        )
    }

    /// 500 `UNKNOWN_ERROR` carrying an id that is also logged.
    pub fn unknown(error_id: &str) -> Self {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "UNKNOWN_ERROR",
            format!("An error occurred. Please check your logs for more details. Error ID: {error_id}"),
        )
    }

    /// 400 for a format no loaded plugin serves.
    pub fn format_unavailable(format: &str) -> Self {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "FORMAT_NOT_AVAILABLE",
            format!(
                "The '{format}' format is not available on this server: no loaded plugin serves it. \
                 Ask the operator to install a plugin for it, or remove it from `formats`."
            ),
        )
    }

    /// 404 `SCRAPE_NO_CACHED_DATA` (minAge set, nothing cached).
    pub fn no_cached_data() -> Self {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "SCRAPE_NO_CACHED_DATA",
            "No cached data is available for this URL that meets your specified age requirements. \
             This error occurs when you use the minAge parameter to request only cached data, but \
             Firecrawl has no cached version of this URL (or no version within the specified age \
             range). To resolve this, either remove the minAge parameter to allow a fresh scrape, or \
             try again later after the URL has been scraped and cached.",
        )
    }

    /// 404 `SCRAPE_LOCKDOWN_CACHE_MISS` (lockdown, nothing cached).
    pub fn lockdown_miss() -> Self {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "SCRAPE_LOCKDOWN_CACHE_MISS",
            "No cached data is available for this request in lockdown mode. Lockdown mode only serves \
             previously cached responses and never makes outbound requests. To resolve this, either \
             disable lockdown mode to allow a fresh scrape, or try again after the URL has been \
             scraped and cached.",
        )
    }

    /// The JSON body.
    pub fn body(&self) -> Value {
        let mut body = json!({
            "success": false,
            "code": self.code,
            "error": self.message,
        });
        if let Some(details) = &self.details {
            body["details"] = details.clone();
        }
        body
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(self.body())).into_response();
        // Lets the request log line say why the request failed.
        response.extensions_mut().insert(ErrorCode(self.code));
        response
    }
}

/// Attached to error responses so the access log can show the code.
#[derive(Clone, Copy, Debug)]
pub struct ErrorCode(pub &'static str);

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status.as_u16(), self.code, self.message)
    }
}

impl std::error::Error for ApiError {}
