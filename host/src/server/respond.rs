//! Shared handler plumbing: reading a JSON body with upstream's error shapes,
//! and running a request's work isolated so a panic fails that request only.

use super::error_map::api_error;
use super::router::MAX_JSON_BODY;
use crate::api::ApiError;
use crate::cache::escaped::Escaped;
use crate::cache::json_string::write_json_value;
use crate::pipeline::{Data, PipelineError};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use futures::FutureExt;
use serde_json::Value;
use std::any::Any;
use std::panic::AssertUnwindSafe;

/// Reads a JSON body, mapping every failure to the upstream error shapes.
pub fn json_body(body: Result<Bytes, BytesRejection>) -> Result<Value, ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "BAD_REQUEST",
                format!("Request body exceeds the {} MB limit", MAX_JSON_BODY >> 20),
            )
        } else {
            ApiError::bad_request(format!("Could not read the request body: {rejection}"))
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|_| ApiError::invalid_json())
}

/// Runs a request's pipeline work on the request's own task, catching a
/// panic, so a panic anywhere in it becomes a logged 500 UNKNOWN_ERROR (with
/// an error id) for this request only.
pub async fn run_isolated<T: Into<Data> + Send + 'static>(
    request_id: String,
    work: impl Future<Output = Result<T, PipelineError>> + Send + 'static,
) -> Response {
    respond_data(isolated(request_id, work).await)
}

/// Like [`run_isolated`], for callers that want the data, not a response
/// (the MCP tools).
pub async fn isolated<T: Into<Data> + Send + 'static>(
    request_id: String,
    work: impl Future<Output = Result<T, PipelineError>> + Send + 'static,
) -> Result<Data, ApiError> {
    match caught(work).await {
        Ok(Ok(data)) => Ok(data.into()),
        Ok(Err(e)) => Err(api_error(e)),
        Err(panic) => Err(unknown_error(&request_id, &panic)),
    }
}

/// As [`run_isolated`], handing back the pipeline's outcome (for billing)
/// before it becomes a response; `Err` is the response to a panic.
pub async fn run_caught<T: Send + 'static>(
    request_id: String,
    work: impl Future<Output = Result<T, PipelineError>> + Send + 'static,
) -> Result<Result<T, PipelineError>, Response> {
    caught(work)
        .await
        .map_err(|panic| unknown_error(&request_id, &panic).into_response())
}

/// Polls `work` on the caller's own task, catching a panic: no task is
/// spawned, so a request's work does not hop to another worker thread and
/// back (BENCHMARKS.md). Callers box large work once, where it is made.
async fn caught<T>(work: impl Future<Output = T>) -> Result<T, String> {
    AssertUnwindSafe(work)
        .catch_unwind()
        .await
        .map_err(|payload| panic_message(payload.as_ref()))
}

/// A panic's message, as tokio's join error would print it.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
    match text {
        Some(text) => format!("panicked with message {text:?}"),
        None => "panicked".to_string(),
    }
}

/// Logs a panicked request at ERROR level with a fresh error id, the id the
/// client's UNKNOWN_ERROR carries.
fn unknown_error(request_id: &str, panic: &str) -> ApiError {
    let error_id = uuid::Uuid::now_v7().to_string();
    tracing::error!(error_id = %error_id, request = %request_id, "request failed unexpectedly: {panic}");
    ApiError::unknown(&error_id)
}

/// `{"success":true,"data":…}` as axum's `Json` writes it (the same bytes and headers):
/// written from `data` itself, its strings escaped eight bytes a step
/// ([`write_json_value`], byte-equal to `serde_json`), into a buffer sized for the
/// document at once rather than grown from 128 bytes by doubling.
fn success(data: Value) -> Response {
    let size = crate::pipeline::response::json_size_hint(&data);
    enveloped(size, |body| write_json_value(body, &data))
}

/// The same bytes as [`success`], `data`'s long strings copied from `escaped`
/// (escaped for the cache's copy of `data`) rather than escaped again.
fn success_escaped(data: &Value, escaped: &Escaped) -> Response {
    enveloped(escaped.len() + 4096, |body| escaped.write(body, data, None))
}

/// `{"success":true,"data":…}` with `data`'s JSON written by `write`, into a
/// buffer with room for `data_len` bytes of it.
fn enveloped(data_len: usize, write: impl FnOnce(&mut Vec<u8>)) -> Response {
    const HEAD: &[u8] = b"{\"success\":true,\"data\":";
    let mut body = Vec::with_capacity(HEAD.len() + data_len + 1);
    body.extend_from_slice(HEAD);
    write(&mut body);
    body.push(b'}');
    ([(CONTENT_TYPE, "application/json")], body).into_response()
}

/// The response to a pipeline outcome, written with the escapes of `data`'s
/// strings when it has them.
pub fn respond_escaped(outcome: Result<Value, PipelineError>, escaped: Option<&Escaped>) -> Response {
    match (outcome, escaped) {
        (Ok(data), Some(escaped)) => success_escaped(&data, escaped),
        (Ok(data), None) => success(data),
        (Err(e), _) => api_error(e).into_response(),
    }
}

/// `{"success": true, "data": ...}` (a stored response's bytes go in as they
/// are) or the error's response.
pub fn respond_data(result: Result<Data, ApiError>) -> Response {
    match result {
        Ok(Data::Built(data)) => success(data),
        Ok(Data::Escaped(data, escaped)) => success_escaped(&data, &escaped),
        Ok(Data::Stored(hit)) => {
            let data = match hit.into_bytes() {
                Ok(data) => data,
                Err(e) => return api_error(e).into_response(),
            };
            enveloped(data.len(), |body| body.extend_from_slice(&data))
        }
        Err(e) => e.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The envelope as `serde_json` writes it (the response before [`write_json_value`]).
    #[derive(serde::Serialize)]
    struct Success {
        success: bool,
        data: Value,
    }

    #[test]
    fn the_success_envelope_writes_what_the_json_macro_wrote() {
        let data = json!({"markdown": "# T\n\"q\" \u{1} é", "metadata": {"title": "T", "statusCode": 200},
            "links": ["a", "b"], "warning": null});
        let direct = serde_json::to_string(&Success {
            success: true,
            data: data.clone(),
        })
        .unwrap();
        assert_eq!(direct, json!({ "success": true, "data": data }).to_string());
    }

    async fn body_of(response: Response) -> (Option<String>, Vec<u8>) {
        let content_type = response
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap().to_string());
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (content_type, body.to_vec())
    }

    #[tokio::test]
    async fn a_response_from_escaped_strings_is_the_same_response() {
        let markdown = "# Title\n\"quoted\" \u{1} é 😀 \\ ".repeat(40);
        let mut data = json!({"markdown": markdown, "html": "<p>short</p>",
            "metadata": {"title": "T", "statusCode": 200}, "warning": "w"});
        let escaped = Escaped::of(&data);
        assert!(!escaped.is_empty());
        // Fields changed after the escape, as the request's own metadata is.
        data["metadata"]["creditsUsed"] = json!(1);
        data["changeTracking"] = json!({"changeStatus": "new"});
        let plain = body_of(success(data.clone())).await;
        assert_eq!(body_of(success_escaped(&data, &escaped)).await, plain);
        assert_eq!(
            body_of(respond_data(Ok(Data::Escaped(data.clone(), escaped)))).await,
            plain
        );
        assert_eq!(plain.0.as_deref(), Some("application/json"));
    }

    /// Documents as a scrape makes them from every 25th corpus page beside the repository
    /// (when present): the page's metadata, its cleaned HTML and text as long strings, links.
    fn corpus_documents() -> Vec<Value> {
        let paths = crate::test_corpus::pages();
        let url = url::Url::parse("https://example.com/a/page.html").unwrap();
        paths
            .iter()
            .step_by(25)
            .map(|path| {
                let html = crate::test_corpus::gunzip(path);
                let raw = distill_html::PageText::decode(&html, Some("text/html")).open();
                let page = distill_html::ParsedPage::parse_html(&raw, &url);
                let metadata = page.metadata();
                let opts = distill_html::CleanOptions {
                    only_main_content: true,
                    include_tags: &[],
                    exclude_tags: &[],
                };
                let cleaned = page.clean(&opts).unwrap().html();
                json!({"markdown": cleaned, "rawHtml": String::from_utf8_lossy(&html),
                    "metadata": metadata, "links": ["https://example.com/\"x\"", "b"], "warning": null})
            })
            .collect()
    }

    #[tokio::test]
    async fn the_fast_writer_writes_what_serde_json_wrote_on_pages_and_hostile_strings() {
        let hostile: String = (0u8..0x80)
            .map(char::from)
            .chain("é€😀\u{2028}\u{feff}\\\"".chars())
            .collect();
        let mut docs = vec![
            json!({"markdown": hostile.repeat(30), "metadata": {hostile.clone(): hostile.clone(), "n": [1, -2, 0.5, 1e300]},
                "title": hostile, "nested": [{"a": null, "b": true}, [], {}]}),
            json!({}),
            json!("a top-level string\n"),
        ];
        let pages = corpus_documents();
        docs.extend(pages.iter().cloned());
        for data in docs {
            let old = serde_json::to_vec(&Success {
                success: true,
                data: data.clone(),
            })
            .unwrap();
            let (content_type, body) = body_of(success(data.clone())).await;
            assert_eq!(content_type.as_deref(), Some("application/json"));
            assert_eq!(String::from_utf8_lossy(&body), String::from_utf8_lossy(&old));
            // The cached path (escapes kept for the cache's copy) writes the same bytes.
            let escaped = Escaped::of(&data);
            assert_eq!(body_of(success_escaped(&data, &escaped)).await.1, old);
        }
        // With the corpora present, most of their pages must have been read.
        if crate::test_corpus::root().exists() {
            assert!(pages.len() > 50, "{}", pages.len());
        }
    }
}
