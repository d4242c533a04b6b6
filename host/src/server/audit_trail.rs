//! The audit record of a scrape or parse: who (key id and name, the
//! request's `auditMetadata.username`), what (route, the URL or the upload's
//! name — never with `zeroDataRetention`), the outcome (status, code,
//! credits) and when. Written only when the operator set `DISTILL_AUDIT_LOG`.

use super::state::AppState;
use crate::api::ScrapeOptions;
use crate::api::error::ErrorCode;
use crate::limits::keys::KeyRecord;
use crate::timestamp::iso8601_ms;
use axum::response::Response;
use serde_json::{Map, Value, json};

/// What the handler knows about the request.
pub struct Subject<'a> {
    pub route: &'static str,
    pub request_id: &'a str,
    /// The URL scraped or the uploaded file's name.
    pub target: Option<&'a str>,
    pub options: Option<&'a ScrapeOptions>,
}

/// The record of a request the `/v2` gate refused (401/402/429): the route
/// and, once known, the key; never a body, so never a target.
pub fn refused(
    state: &AppState,
    request_id: Option<&str>,
    path: &str,
    key: Option<&KeyRecord>,
    response: &Response,
) {
    let Some(log) = &state.services.audit else {
        return;
    };
    let mut r = Map::new();
    r.insert("time".into(), json!(iso8601_ms(crate::cache::store::now_ms())));
    if let Some(id) = request_id {
        r.insert("requestId".into(), json!(id));
    }
    r.insert("route".into(), json!(path));
    if let Some(key) = key {
        r.insert("keyId".into(), json!(key.id));
        r.insert("keyName".into(), json!(key.name));
    }
    r.insert("status".into(), json!(response.status().as_u16()));
    if let Some(code) = response.extensions().get::<ErrorCode>() {
        r.insert("code".into(), json!(code.0));
    }
    log.record(Value::Object(r));
}

/// Writes the record for `response` (no-op without an audit log).
pub fn record(
    state: &AppState,
    key: Option<&KeyRecord>,
    subject: Subject<'_>,
    credits: u64,
    response: &Response,
) {
    let Some(log) = &state.services.audit else {
        return;
    };
    let zdr = subject
        .options
        .is_some_and(|o| o.zero_data_retention || o.lockdown);
    let mut r = Map::new();
    r.insert("time".into(), json!(iso8601_ms(crate::cache::store::now_ms())));
    r.insert("requestId".into(), json!(subject.request_id));
    r.insert("route".into(), json!(subject.route));
    if let Some(key) = key {
        r.insert("keyId".into(), json!(key.id));
        r.insert("keyName".into(), json!(key.name));
    }
    if let Some(username) = subject
        .options
        .and_then(|o| o.audit_metadata.as_ref())
        .and_then(|m| m.get("username"))
    {
        r.insert("username".into(), username.clone());
    }
    if zdr {
        r.insert("zeroDataRetention".into(), json!(true));
    } else if let Some(target) = subject.target {
        r.insert("target".into(), json!(target));
    }
    r.insert("status".into(), json!(response.status().as_u16()));
    if let Some(code) = response.extensions().get::<ErrorCode>() {
        r.insert("code".into(), json!(code.0));
    }
    r.insert("creditsUsed".into(), json!(credits));
    log.record(Value::Object(r));
}
