//! Multipart uploads to `/v2/parse`, as the official SDKs send them: a `file`
//! part and an optional `options` part holding JSON.

use crate::client::{Reply, http, into_reply};
use serde_json::Value;
use std::time::Instant;

/// Uploads `bytes` as `file_name` (with an optional declared MIME type) and
/// optional `options`.
pub async fn parse_upload(
    server: &str,
    file_name: &str,
    mime: Option<&str>,
    bytes: Vec<u8>,
    options: Option<&Value>,
) -> Reply {
    let mut part = reqwest::multipart::Part::bytes(bytes).file_name(file_name.to_string());
    if let Some(m) = mime {
        part = part.mime_str(m).expect("valid MIME type");
    }
    let mut form = reqwest::multipart::Form::new().part("file", part);
    if let Some(o) = options {
        form = form.part(
            "options",
            reqwest::multipart::Part::text(o.to_string())
                .mime_str("application/json")
                .unwrap(),
        );
    }
    let started = Instant::now();
    let resp = http()
        .post(format!("{server}/v2/parse"))
        .multipart(form)
        .send()
        .await
        .expect("parse request");
    into_reply(started, resp).await
}

/// Uploads a fixture document under its own name to the shared server and
/// returns the successful reply.
pub async fn parse_fixture(name: &str) -> Reply {
    let r = parse_upload(
        crate::server::shared().url(),
        name,
        None,
        crate::fixture::read_document(name),
        None,
    )
    .await;
    r.assert_ok();
    r
}

/// Asserts each needle appears in `haystack`, in this order.
pub fn assert_in_order(haystack: &str, needles: &[&str]) {
    let mut from = 0;
    for needle in needles {
        match haystack[from..].find(needle) {
            Some(at) => from += at + needle.len(),
            None => panic!("{needle:?} missing (or out of order) after byte {from} in:\n{haystack}"),
        }
    }
}
