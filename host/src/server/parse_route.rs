//! `POST /v2/parse`: a multipart upload with a `file` part (≤ 50 MB) and an
//! optional `options` part (a JSON object of scrape options), converted
//! [`metered`] like a scrape. Errors carry upstream's exact messages.

use super::access_log::RequestId;
use super::audit_trail;
use super::auth::Caller;
use super::metered::{self, Job};
use super::state::AppState;
use crate::api::ApiError;
use crate::api::parse_request::UploadKind;
use crate::api::parse_request::{
    MAX_UPLOAD_BYTES, detect_kind, missing_file, parse_upload_options, supported_extensions, too_large,
    unsupported_type,
};
use crate::pipeline;
use crate::pipeline::parse::Upload;
use crate::plugins::registry::Registry;
use axum::extract::multipart::{Multipart, MultipartError, MultipartRejection};
use axum::extract::{Extension, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Room for the multipart framing and the options part on top of the file.
const FRAMING_ALLOWANCE: usize = 1024 * 1024;

/// The largest request body this route reads.
pub const MAX_FORM_BYTES: usize = MAX_UPLOAD_BYTES + FRAMING_ALLOWANCE;

pub async fn parse(
    State(state): State<AppState>,
    Extension(RequestId(scrape_id)): Extension<RequestId>,
    caller: Option<Extension<Caller>>,
    multipart: Result<Multipart, MultipartRejection>,
) -> Response {
    let caller = caller.map(|Extension(c)| c);
    match read_form(multipart).await {
        Ok((upload, options)) => parse_upload(&state, caller, scrape_id, upload, options.as_deref()).await,
        Err(e) => {
            let response = e.into_response();
            let key = caller.as_ref().map(|c| c.0.as_ref());
            audit_trail::refused(&state, Some(&scrape_id), "/v2/parse", key, &response);
            response
        }
    }
}

/// Validates an upload's options (JSON text) and kind, then converts it
/// [`metered`] (the route above and the MCP `parse` tool).
pub async fn parse_upload(
    state: &AppState,
    caller: Option<Caller>,
    scrape_id: String,
    upload: Upload,
    options: Option<&str>,
) -> Response {
    let registry = state.services.plugins.registry();
    let checked = parse_upload_options(options, registry.as_ref())
        .and_then(|options| Ok((upload_kind(&registry, &upload)?, options)));
    let (kind, options) = match checked {
        Ok(found) => found,
        Err(e) => {
            let response = e.into_response();
            let key = caller.as_ref().map(|c| c.0.as_ref());
            audit_trail::refused(state, Some(&scrape_id), "/v2/parse", key, &response);
            return response;
        }
    };
    // The request's timeout counts from here: a wait for a concurrency slot
    // is part of it.
    let deadline = Instant::now() + Duration::from_millis(options.timeout_ms);
    let upload = Upload { kind, ..upload };
    let file_name = upload.name.clone();
    let options = Arc::new(options);
    let (id, work_state, work_options) = (scrape_id.clone(), state.clone(), options.clone());
    let work = Box::pin(async move {
        pipeline::parse_until(&work_state.services, upload, &work_options, &id, deadline)
            .await
            .map(pipeline::Data::Built)
    });
    let job = Job {
        route: "parse",
        path: "/v2/parse",
        request_id: &scrape_id,
        target: Some(&file_name),
        deadline,
    };
    metered::run(state, caller, job, &options, work).await
}

/// What the upload is (HTML or a document for a loaded converter), by name
/// and declared type; upstream's error when nothing handles it.
fn upload_kind(registry: &Registry, upload: &Upload) -> Result<UploadKind, ApiError> {
    detect_kind(
        &upload.name,
        upload.content_type.as_deref(),
        &|ext| registry.converter_for_extension(ext).is_some(),
        &|mime| {
            registry
                .converter_for_content_type(mime)
                .and_then(|p| p.manifest.extensions.first().cloned())
        },
    )
    .ok_or_else(|| unsupported_type(&supported_extensions(&registry.converter_extensions())))
}

/// Reads the `file` and `options` parts (public for the fuzz target `parse_multipart`).
pub async fn read_form(
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<(Upload, Option<String>), ApiError> {
    let mut multipart = multipart.map_err(|_| missing_file())?;
    let mut file: Option<Upload> = None;
    let mut options: Option<String> = None;
    while let Some(mut field) = multipart.next_field().await.map_err(form_error)? {
        match field.name() {
            Some("file") => {
                let name = field.file_name().unwrap_or("upload").to_string();
                let content_type = field.content_type().map(str::to_string);
                let mut bytes = Vec::new();
                while let Some(chunk) = field.chunk().await.map_err(form_error)? {
                    if bytes.len() + chunk.len() > MAX_UPLOAD_BYTES {
                        return Err(too_large());
                    }
                    bytes.extend_from_slice(&chunk);
                }
                file = Some(Upload {
                    name,
                    content_type,
                    bytes,
                    kind: crate::api::parse_request::UploadKind::Html,
                });
            }
            Some("options") => {
                let text = field.text().await.map_err(form_error)?;
                options = Some(text);
            }
            _ => {}
        }
    }
    let file = file.ok_or_else(missing_file)?;
    Ok((file, options))
}

fn form_error(err: MultipartError) -> ApiError {
    if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
        too_large()
    } else {
        ApiError::bad_request(format!(
            "Invalid multipart form-data request: {}",
            err.body_text()
        ))
    }
}
