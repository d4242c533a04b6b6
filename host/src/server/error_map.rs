//! The one place pipeline failures become HTTP: each [`PipelineError`] gets
//! upstream's status code and error code where upstream has one, and a
//! message that says what to do.

use crate::api::ApiError;
use crate::fetch::select::SelectError;
use crate::fetch::{ActionFailure, FetchError};
use crate::pipeline::{Origin, PipelineError};
use crate::plugins::bindings::PluginError;
use crate::plugins::{PluginCallError, PluginCallErrorKind};
use axum::http::StatusCode;

/// Maps a pipeline failure to its response.
pub fn api_error(err: PipelineError) -> ApiError {
    match err {
        PipelineError::FormatUnavailable { format } => ApiError::format_unavailable(&format),
        PipelineError::StoresMedia { format } => ApiError::new(
            StatusCode::BAD_REQUEST,
            "SCRAPE_ZDR_VIOLATION_ERROR",
            format!(
                "The '{format}' format cannot be used with zeroDataRetention: it stores the extracted \
                 file on this server to serve it at a signed link. Remove '{format}' from `formats` or \
                 turn zeroDataRetention off."
            ),
        ),
        PipelineError::NoEngine(SelectError::ActionsUnsupported) => ApiError::new(
            StatusCode::BAD_REQUEST,
            "SCRAPE_ACTIONS_NOT_SUPPORTED",
            "Actions are not supported by any available engines. Actions need the browser engine, \
             which this server does not have yet.",
        ),
        PipelineError::LockdownCacheMiss => ApiError::lockdown_miss(),
        PipelineError::NoCachedData => ApiError::no_cached_data(),
        PipelineError::Fetch { error, timeout_ms } => fetch_error(error, timeout_ms),
        PipelineError::InvalidSelector(message) => ApiError::bad_request(message),
        PipelineError::NoConverter { extension } => {
            ApiError::bad_request(format!("No converter is loaded for .{extension} files"))
        }
        PipelineError::ConverterOptions { file, message } => {
            ApiError::bad_request(format!("Invalid converter options for {file}: {message}"))
        }
        PipelineError::Format {
            format,
            error,
            timeout_ms,
        } => plugin_error(error, &format, timeout_ms),
        PipelineError::FormatOutput {
            plugin,
            format,
            message,
        } => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "PLUGIN_ERROR",
            format!("Plugin '{plugin}' returned invalid JSON for the '{format}' format: {message}"),
        ),
        PipelineError::FormatCycle { formats } => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "PLUGIN_ERROR",
            format!(
                "The format plugins for {} consume each other in a circle; ask the operator to fix \
                 their `consumes` declarations.",
                formats.join(", ")
            ),
        ),
        PipelineError::Convert {
            file,
            origin,
            error,
            timeout_ms,
        } => conversion_error(error, &file, origin, timeout_ms),
        PipelineError::Timeout { stage, timeout_ms } => ApiError::timeout(timeout_ms, stage),
        PipelineError::TooManyNodes { most } => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "SCRAPE_CONTENT_TOO_LARGE",
            format!(
                "The page's markup makes more than {most} elements and comments (the server's \
                 DISTILL_MAX_PAGE_NODES), so it was not processed."
            ),
        ),
        PipelineError::Internal { error_id } => ApiError::unknown(&error_id),
    }
}

/// Maps a fetch failure. `timeout_ms` is the request's timeout, for the message.
fn fetch_error(err: FetchError, timeout_ms: u64) -> ApiError {
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
        FetchError::Action {
            index,
            kind,
            failure: ActionFailure::TimedOut,
        } => ApiError::timeout(timeout_ms, &format!("performing action {index} ({kind})")),
        e @ FetchError::ProfileInUse { .. } => {
            ApiError::new(StatusCode::CONFLICT, "SCRAPE_PROFILE_IN_USE", e.to_string())
        }
        // Upstream's ActionError: 500, its code and message prefix.
        e @ FetchError::Action { .. } => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "SCRAPE_ACTION_ERROR",
            format!("Action(s) failed to complete. Error code: {e}"),
        ),
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
fn plugin_error(err: PluginCallError, format: &str, timeout_ms: u64) -> ApiError {
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

/// Maps a converter failure. Input the converter refuses (corrupt, encrypted,
/// a bomb, a lying extension) is a 4xx for uploads.
fn conversion_error(err: PluginCallError, name: &str, origin: Origin, timeout_ms: u64) -> ApiError {
    let (status, code) = match origin {
        Origin::Upload => (StatusCode::BAD_REQUEST, "PARSE_DOCUMENT_ERROR"),
        Origin::Scrape => (StatusCode::INTERNAL_SERVER_ERROR, "SCRAPE_DOCUMENT_ERROR"),
    };
    match &err.kind {
        PluginCallErrorKind::RequestTimeout => ApiError::timeout(timeout_ms, &format!("converting {name}")),
        PluginCallErrorKind::Rejected(PluginError::UnsupportedInput(why)) => {
            ApiError::new(status, code, format!("Could not convert {name}: {why}"))
        }
        PluginCallErrorKind::OutOfMemory { .. } | PluginCallErrorKind::PluginTimeout { .. } => ApiError::new(
            status,
            code,
            format!(
                "Could not convert {name}: the document is too large or too complex to convert within limits ({err})"
            ),
        ),
        PluginCallErrorKind::Rejected(PluginError::InvalidOptions(_)) => {
            ApiError::bad_request(format!("Invalid converter options for {name}: {err}"))
        }
        // A converter that crashes on a file is a bug to fix, but for the user the
        // file could not be converted: say so with the document error (the trap
        // itself is in the log line of the call).
        PluginCallErrorKind::Trap(_) | PluginCallErrorKind::Rejected(PluginError::Failed(_)) => {
            ApiError::new(
                status,
                code,
                format!("Could not convert {name}: the converter failed on this file ({err})"),
            )
        }
        _ => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "PLUGIN_ERROR",
            format!("Failed while converting {name}: {err}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call_error(kind: PluginCallErrorKind) -> PluginCallError {
        PluginCallError {
            plugin: "p".into(),
            kind,
        }
    }

    #[test]
    fn conversion_failures_are_the_client_s_for_uploads_and_the_site_s_for_scrapes() {
        let rejected = || {
            call_error(PluginCallErrorKind::Rejected(PluginError::UnsupportedInput(
                "bad".into(),
            )))
        };
        let upload = api_error(PipelineError::Convert {
            file: "a.pdf".into(),
            origin: Origin::Upload,
            error: rejected(),
            timeout_ms: 1000,
        });
        assert_eq!(
            (upload.status, upload.code),
            (StatusCode::BAD_REQUEST, "PARSE_DOCUMENT_ERROR")
        );
        let scrape = api_error(PipelineError::Convert {
            file: "a.pdf".into(),
            origin: Origin::Scrape,
            error: rejected(),
            timeout_ms: 1000,
        });
        assert_eq!(
            (scrape.status, scrape.code),
            (StatusCode::INTERNAL_SERVER_ERROR, "SCRAPE_DOCUMENT_ERROR")
        );
    }

    #[test]
    fn timeouts_are_408_and_dns_failures_200() {
        let t = api_error(PipelineError::Format {
            format: "markdown".into(),
            error: call_error(PluginCallErrorKind::RequestTimeout),
            timeout_ms: 5000,
        });
        assert_eq!(
            (t.status, t.code),
            (StatusCode::REQUEST_TIMEOUT, "SCRAPE_TIMEOUT")
        );
        let waited = api_error(PipelineError::Timeout {
            stage: "waiting for a slot to prepare a large page",
            timeout_ms: 2000,
        });
        assert_eq!(
            (waited.status, waited.code),
            (StatusCode::REQUEST_TIMEOUT, "SCRAPE_TIMEOUT")
        );
        assert!(
            waited.message.contains("2000 ms, while waiting for a slot"),
            "{}",
            waited.message
        );
        let dns = api_error(PipelineError::Fetch {
            error: FetchError::Dns {
                host: "x.invalid".into(),
            },
            timeout_ms: 1,
        });
        assert_eq!(
            (dns.status, dns.code),
            (StatusCode::OK, "SCRAPE_DNS_RESOLUTION_ERROR")
        );
    }

    #[test]
    fn actions_without_a_browser_are_refused_with_upstream_s_code() {
        let e = api_error(PipelineError::NoEngine(SelectError::ActionsUnsupported));
        assert_eq!(
            (e.status, e.code),
            (StatusCode::BAD_REQUEST, "SCRAPE_ACTIONS_NOT_SUPPORTED")
        );
    }
}
