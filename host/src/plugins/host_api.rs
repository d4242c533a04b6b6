//! Host functions offered to plugins, for every supported ABI version:
//! structured logging (always granted), from 0.2.0 the `llm` call and in
//! 0.3.0 the `media` call (each granted per plugin by its manifest and the
//! operator; the call slot is given back while the host works).

use super::sandbox::CallState;
use crate::llm::{Caller, ChatRequest};

/// Longest log message kept from a plugin; the rest is cut, so a plugin cannot
/// flood the log.
const MAX_LOG_MESSAGE: usize = 4096;

/// Log levels of every ABI version map to this one.
enum Level {
    Trace,
    Debug,
    Info,
    Warn,
    Error,
}

fn log(state: &CallState, level: Level, mut message: String) {
    if message.len() > MAX_LOG_MESSAGE {
        let mut cut = MAX_LOG_MESSAGE;
        while !message.is_char_boundary(cut) {
            cut -= 1;
        }
        message.truncate(cut);
        message.push('…');
    }
    if state.private_logs {
        message = super::log_privacy::withheld(&message);
    }
    let plugin = state.plugin.as_str();
    let request = state.request_id.as_str();
    match level {
        Level::Trace => tracing::trace!(plugin, request, "{message}"),
        Level::Debug => tracing::debug!(plugin, request, "{message}"),
        Level::Info => tracing::info!(plugin, request, "{message}"),
        Level::Warn => tracing::warn!(plugin, request, "{message}"),
        Level::Error => tracing::error!(plugin, request, "{message}"),
    }
}

/// The `llm` call of every version that has it: the operator's model, within
/// the call's deadline, with the call slot given back while waiting. Notes
/// for the user (e.g. the page was cut to fit the context) are kept in the
/// call's state and added to the format's warnings.
async fn complete(state: &mut CallState, chat: Result<ChatRequest, String>) -> Result<String, String> {
    let client = state.llm.clone().map_err(|why| why.to_string())?;
    let chat = chat?;
    let caller = Caller {
        format: state.format.clone(),
        plugin: state.plugin.clone(),
        request_id: state.request_id.clone(),
    };
    let deadline = state.deadline;
    let answer = state
        .permit
        .released_while(client.complete_for(&chat, &caller, deadline))
        .await?;
    state.llm_notes.extend(answer.notes);
    Ok(answer.text)
}

/// Builds the chat request from a version's fields.
fn chat_request(
    messages: Vec<(String, String)>,
    json_schema: Option<String>,
    max_tokens: Option<u32>,
    temperature: Option<f32>,
) -> Result<ChatRequest, String> {
    let json_schema = match json_schema.as_deref().map(serde_json::from_str) {
        None => None,
        Some(Ok(schema)) => Some(schema),
        Some(Err(e)) => return Err(format!("json-schema is not valid JSON: {e}")),
    };
    Ok(ChatRequest {
        messages,
        json_schema,
        max_tokens,
        temperature,
    })
}

/// Implements a version's `log` and `types` host traits for [`CallState`]
/// (every version has them).
macro_rules! log_interface {
    ($plugin:path) => {
        use wit::log::{self as wit_log, Level as L};
        use $plugin as wit;

        impl wit_log::Host for CallState {
            fn log(&mut self, level: L, message: String) {
                let level = match level {
                    L::Trace => Level::Trace,
                    L::Debug => Level::Debug,
                    L::Info => Level::Info,
                    L::Warn => Level::Warn,
                    L::Error => Level::Error,
                };
                log(self, level, message)
            }
        }

        impl wit::types::Host for CallState {}
    };
}

mod abi_0_1 {
    use super::*;
    log_interface!(crate::plugins::bindings::v0_1::format::distill::plugin);
}

/// Implements a version's `log`, `types` and `llm` host traits for [`CallState`].
macro_rules! host_interfaces_with_llm {
    ($module:ident, $plugin:path) => {
        mod $module {
            use super::*;
            use wit::llm;

            log_interface!($plugin);

            impl llm::Host for CallState {
                async fn complete(&mut self, request: llm::Request) -> Result<String, String> {
                    let messages = request
                        .messages
                        .into_iter()
                        .map(|m| (m.role, m.content))
                        .collect();
                    let chat = chat_request(
                        messages,
                        request.json_schema,
                        request.max_tokens,
                        request.temperature,
                    );
                    complete(self, chat).await
                }
            }
        }
    };
}

host_interfaces_with_llm!(abi_0_2, crate::plugins::bindings::v0_2::format::distill::plugin);
host_interfaces_with_llm!(abi_0_3, crate::plugins::bindings::v0_3::format::distill::plugin);
host_interfaces_with_llm!(abi_0_4, crate::plugins::bindings::v0_4::format::distill::plugin);
host_interfaces_with_llm!(abi_0_5, crate::plugins::bindings::v0_5::format::distill::plugin);

/// The `media` call (0.3.0 and later): fetch and extract within the call's
/// deadline, with the call slot given back while the host works.
macro_rules! media_interface {
    ($module:ident, $media:path) => {
mod $module {
    use super::CallState;
    use crate::media_capability::MediaKind;
    use $media as media;

    impl media::Host for CallState {
        async fn extract(
            &mut self,
            url: String,
            kind: media::MediaKind,
        ) -> Result<media::ExtractedMedia, String> {
            let service = self.media.clone().map_err(|why| why.to_string())?;
            let kind = match kind {
                media::MediaKind::Audio => MediaKind::Audio,
                media::MediaKind::Video => MediaKind::Video,
            };
            let started = std::time::Instant::now();
            let deadline = self.deadline;
            let result = self
                .permit
                .released_while(service.extract(&url, kind, deadline))
                .await;
            tracing::info!(
                plugin = %self.plugin,
                request = %self.request_id,
                kind = ?kind,
                ok = result.is_ok(),
                error = result.as_ref().err().map(String::as_str).unwrap_or(""),
                ms = started.elapsed().as_millis() as u64,
                "media call"
            );
            result.map(|e| media::ExtractedMedia {
                url: e.url,
                content_type: e.content_type.to_string(),
                size: e.size,
                expires_in_secs: e.expires_in_secs,
            })
        }
    }
}
    };
}

media_interface!(
    media_0_3,
    crate::plugins::bindings::v0_3::format::distill::plugin::media
);
media_interface!(
    media_0_4,
    crate::plugins::bindings::v0_4::format::distill::plugin::media
);
media_interface!(
    media_0_5,
    crate::plugins::bindings::v0_5::format::distill::plugin::media
);
