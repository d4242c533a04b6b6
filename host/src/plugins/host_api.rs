//! Host functions offered to plugins. Today: structured logging, attributed to
//! the calling plugin and request. Later capabilities (an LLM call, ...) are
//! added here and granted per plugin by its manifest and the operator.

use super::bindings::format::distill::plugin::log::{Host, Level};
use super::bindings::format::distill::plugin::types;
use super::sandbox::CallState;

/// Longest log message kept from a plugin; the rest is cut, so a plugin cannot
/// flood the log.
const MAX_LOG_MESSAGE: usize = 4096;

impl Host for CallState {
    fn log(&mut self, level: Level, message: String) {
        let mut message = message;
        if message.len() > MAX_LOG_MESSAGE {
            let mut cut = MAX_LOG_MESSAGE;
            while !message.is_char_boundary(cut) {
                cut -= 1;
            }
            message.truncate(cut);
            message.push_str("…");
        }
        let plugin = self.plugin.as_str();
        let request = self.request_id.as_str();
        match level {
            Level::Trace => tracing::trace!(plugin, request, "{message}"),
            Level::Debug => tracing::debug!(plugin, request, "{message}"),
            Level::Info => tracing::info!(plugin, request, "{message}"),
            Level::Warn => tracing::warn!(plugin, request, "{message}"),
            Level::Error => tracing::error!(plugin, request, "{message}"),
        }
    }
}

/// The `types` interface has no functions; its marker trait is all there is.
impl types::Host for CallState {}
