//! The `changeTracking` format: compares this scrape's markdown with the
//! previous scrape of the same URL and `tag` (kept in the cache store, see
//! `cache::change_tracking`), records this one (last, after the json mode's
//! model call), and puts
//! `data.changeTracking` (`previousScrapeAt`, `changeStatus`, `visibility`,
//! and in `git-diff` mode `diff: {text, json}`) before `metadata`.

use crate::api::ScrapeRequest;
use crate::cache::change_tracking::{
    COMPARE_FAILED_WARNING, PreviousScrape, TrackOptions, Visibility, ZDR_WARNING,
};
use crate::cache::key::normalize_url;
use crate::services::Services;
use serde_json::{Map, Value};
use std::time::Instant;

/// Without a model, `json` mode returns no `json`.
pub const JSON_MODE_WARNING: &str = "changeTracking json mode needs a language model, and none is configured \
     on this server (DISTILL_LLM_BASE_URL): changeStatus (and diff in git-diff mode) are returned without json.";

/// Adds `changeTracking` (and any warning) to `data` when it was requested;
/// json mode asks the model before `deadline`.
pub async fn track(
    services: &Services,
    req: &ScrapeRequest,
    data: &mut Value,
    now_ms: i64,
    deadline: Instant,
) {
    let opts = &req.options;
    let Some(format) = opts.formats.iter().find(|f| f.name == "changeTracking") else {
        return;
    };
    let Some(data) = data.as_object_mut() else {
        return;
    };
    if opts.zero_data_retention {
        add_warning(data, ZDR_WARNING);
        return;
    }
    let Some(cache) = &services.cache else {
        add_warning(data, COMPARE_FAILED_WARNING);
        return;
    };
    let track_opts = TrackOptions::from_format(format);
    let meta = data.get("metadata");
    let current = PreviousScrape {
        markdown: data
            .get("markdown")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        scraped_at_ms: now_ms,
        status_code: meta
            .and_then(|m| m.get("statusCode"))
            .and_then(Value::as_u64)
            .and_then(|s| u16::try_from(s).ok())
            .unwrap_or(200),
    };
    let url = normalize_url(&req.url);
    let tracker = cache.tracker();
    match tracker
        .compare_with_previous(&url, &track_opts, &current, Visibility::Visible)
        .await
    {
        Ok(mut ct) => {
            let mut warning = None;
            let llm = services.plugins.services().llm.as_ref();
            match (llm, ct.previous_markdown.take()) {
                (_, None) => {}
                (None, Some(_)) => warning = Some(JSON_MODE_WARNING),
                (Some(llm), Some(previous)) => {
                    match super::track_json::compare(llm, &track_opts, &previous, &current.markdown, deadline)
                        .await
                    {
                        Ok(json) => ct.json = Some(json),
                        Err(e) => {
                            tracing::warn!(error = %e, "changeTracking json comparison failed");
                            warning = Some(COMPARE_FAILED_WARNING);
                        }
                    }
                }
            }
            if track_opts.json && llm.is_none() {
                warning = Some(JSON_MODE_WARNING);
            }
            // Recorded last, once the response is complete: a request ended
            // before this (its deadline) leaves the previous scrape in place.
            if tracker
                .record(&url, track_opts.tag.as_deref(), &current)
                .await
                .is_err()
            {
                add_warning(data, COMPARE_FAILED_WARNING);
                return;
            }
            insert_before_metadata(data, "changeTracking", ct.to_json());
            if let Some(w) = warning {
                add_warning(data, w);
            }
        }
        Err(_) => add_warning(data, COMPARE_FAILED_WARNING),
    }
}

/// Appends to `data.warning` (warnings are joined with a space).
fn add_warning(data: &mut Map<String, Value>, warning: &str) {
    let joined = match data.get("warning").and_then(Value::as_str) {
        Some(w) if !w.is_empty() => format!("{w} {warning}"),
        _ => warning.to_string(),
    };
    data.insert("warning".into(), Value::String(joined));
}

/// Keeps `metadata` and `warning` last, as the response's field order has them.
fn insert_before_metadata(data: &mut Map<String, Value>, name: &str, value: Value) {
    let tail: Vec<(String, Value)> = ["metadata", "warning"]
        .iter()
        .filter_map(|k| data.shift_remove(*k).map(|v| (k.to_string(), v)))
        .collect();
    data.insert(name.to_string(), value);
    data.extend(tail);
}
