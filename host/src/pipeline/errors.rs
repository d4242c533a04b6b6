//! Fetch and plugin failures as API errors, with upstream's status codes and
//! error codes where upstream has one.

use crate::api::ApiError;
use crate::fetch::FetchError;
use crate::plugins::bindings::PluginError;
use crate::plugins::{PluginCallError, PluginCallErrorKind};
use axum::http::StatusCode;

/// Maps a fetch failure. `timeout_ms` is the request's timeout, for the message.
pub fn fetch_error(err: FetchError, timeout_ms: u64) -> ApiError {
    match err {
        // Upstream answers DNS failures with HTTP 200 and success:false.
        FetchError::Dns { host } => ApiError::new(
            StatusCode::OK,
            "SCRAPE_DNS_RESOLUTION_ERROR",
            format!(
                "DNS resolution failed for hostname \"{host}\". Check that the domain name is spelled \
                 correctly and that it exists."
            ),
        ),
        FetchError::Blocked { url, reason } => ApiError::new(
            StatusCode::FORBIDDEN,
            "SCRAPE_TARGET_BLOCKED",
            format!(
                "Blocked insecure target URL {url}: {reason}. Distill refuses loopback, private, \
                 link-local and cloud-metadata addresses by default; an operator can allow them with \
                 DISTILL_ALLOW_PRIVATE_TARGETS=true (or --allow-private-targets)."
            ),
        ),
        FetchError::Timeout { .. } => ApiError::timeout(timeout_ms, "fetching the page"),
        e @ FetchError::Tls { .. } => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "SCRAPE_SSL_ERROR",
            format!("{e}. Set skipTlsVerification to true to accept invalid certificates."),
        ),
        e @ FetchError::TooLarge { .. } => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "SCRAPE_CONTENT_TOO_LARGE",
            e.to_string(),
        ),
        e @ (FetchError::Connect { .. }
        | FetchError::TooManyRedirects { .. }
        | FetchError::BadRedirect { .. }
        | FetchError::Other { .. }) => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "SCRAPE_SITE_ERROR",
            e.to_string(),
        ),
    }
}

/// Maps a plugin failure for format `format`.
pub fn plugin_error(err: PluginCallError, format: &str, timeout_ms: u64) -> ApiError {
    let what = format!("rendering the '{format}' format with plugin '{}'", err.plugin);
    match &err.kind {
        PluginCallErrorKind::RequestTimeout => ApiError::timeout(timeout_ms, &what),
        PluginCallErrorKind::Rejected(PluginError::InvalidOptions(_)) => {
            ApiError::bad_request(format!("Invalid options for the '{format}' format: {err}"))
        }
        _ => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "PLUGIN_ERROR",
            format!("Failed while {what}: {err}"),
        ),
    }
}
