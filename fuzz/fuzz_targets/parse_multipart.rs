//! The `/v2/parse` upload: a multipart body (fixed boundary) read by the
//! route's own form reader, its `options` part validated, the upload's kind
//! found from its file name and declared type. Invariants: no panic; a
//! refusal is a 4xx with a message (413 for too large); bounded time.
#![no_main]

use axum::body::Body;
use axum::extract::{FromRequest, Multipart};
use axum::http::Request;
use distill::api::ApiError;
use distill::api::parse_request::{detect_kind, parse_upload_options};
use distill::server::parse_route::read_form;
use libfuzzer_sys::fuzz_target;

fn check_refusal(e: &ApiError) {
    assert!(
        e.status.is_client_error(),
        "{} for an upload: {}",
        e.status,
        e.message
    );
    assert!(!e.message.is_empty(), "empty error message");
}

fuzz_target!(|data: &[u8]| {
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let request = Request::post("/v2/parse")
        .header("content-type", "multipart/form-data; boundary=FUZZ")
        .body(Body::from(data.to_vec()))
        .unwrap();
    let form = runtime.block_on(async {
        let multipart = Multipart::from_request(request, &()).await;
        read_form(multipart).await
    });
    let (upload, options) = match form {
        Ok(parts) => parts,
        Err(e) => return check_refusal(&e),
    };
    if let Err(e) = parse_upload_options(options.as_deref(), &|name: &str| name == "summary") {
        check_refusal(&e);
    }
    let _ = detect_kind(
        &upload.name,
        upload.content_type.as_deref(),
        &|ext| ["pdf", "docx", "csv"].contains(&ext),
        &|mime| (mime == "application/pdf").then(|| "pdf".to_string()),
    );
});
