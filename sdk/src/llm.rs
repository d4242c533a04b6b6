//! The `llm` capability: a chat completion from the operator's language model.
//! Declare it with `PluginInfo::capability("llm")`; without that, or when the
//! operator does not allow it or configured no model, calls return `Err`.

use crate::bindings::format::distill::plugin::llm as host;

pub use host::{Message, Request};

impl Message {
    /// A message with a role ("system", "user", "assistant").
    pub fn new(role: &str, content: impl Into<String>) -> Self {
        Message {
            role: role.to_string(),
            content: content.into(),
        }
    }
}

impl Request {
    /// A request with these messages and default settings.
    pub fn new(messages: Vec<Message>) -> Self {
        Request {
            messages,
            json_schema: None,
            max_tokens: None,
            temperature: None,
        }
    }

    /// Asks for JSON following `schema`.
    pub fn json_schema(mut self, schema: &serde_json::Value) -> Self {
        self.json_schema = Some(schema.to_string());
        self
    }

    /// Caps the tokens generated.
    pub fn max_tokens(mut self, n: u32) -> Self {
        self.max_tokens = Some(n);
        self
    }
}

/// Runs a completion; returns the model's text or why it failed.
pub fn complete(request: &Request) -> Result<String, String> {
    #[cfg(target_arch = "wasm32")]
    {
        host::complete(request)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (request, host::complete);
        Err("the llm capability is only available inside the Distill host".to_string())
    }
}
