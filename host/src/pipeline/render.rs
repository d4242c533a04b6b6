//! Runs the format plugins a request asks for, concurrently, each in its own
//! fresh instance, and collects their JSON values by format name.

use super::errors::plugin_error;
use crate::api::{ApiError, FormatRequest};
use crate::plugins::bindings::Page;
use crate::plugins::{PluginRuntime, Registry};
use futures_util::future::join_all;
use serde_json::Value;
use std::time::Instant;

/// Renders every requested format that a plugin serves. Formats the host
/// produces itself are skipped. Returns `(format, value)` in request order.
pub async fn render_plugin_formats(
    runtime: &PluginRuntime,
    registry: &Registry,
    formats: &[FormatRequest],
    page: &Page,
    request_id: &str,
    deadline: Instant,
    timeout_ms: u64,
) -> Result<Vec<(String, Value)>, ApiError> {
    let calls = formats.iter().filter_map(|f| {
        let plugin = registry.format(&f.name)?.clone();
        Some(async move {
            let options = Value::Object(f.options.clone()).to_string();
            let out = runtime
                .render(&plugin, &f.name, page, &options, request_id, deadline)
                .await
                .map_err(|e| plugin_error(e, &f.name, timeout_ms))?;
            let value: Value = serde_json::from_str(&out).map_err(|e| {
                ApiError::new(
                    axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                    "PLUGIN_ERROR",
                    format!(
                        "Plugin '{}' returned invalid JSON for the '{}' format: {e}",
                        plugin.manifest.name, f.name
                    ),
                )
            })?;
            Ok::<_, ApiError>((f.name.clone(), value))
        })
    });
    join_all(calls).await.into_iter().collect()
}
