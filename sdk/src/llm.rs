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

/// Runs a completion; returns the model's text or why it failed. In native
/// builds (unit tests) it answers from the handler set with [`mock::set`].
pub fn complete(request: &Request) -> Result<String, String> {
    #[cfg(target_arch = "wasm32")]
    {
        host::complete(request)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = host::complete;
        mock::answer(request)
    }
}

/// Runs a completion whose answer must be JSON (a request with a
/// `json_schema`); the parsed value, or why there is none.
pub fn complete_json(request: &Request) -> Result<serde_json::Value, String> {
    let text = complete(request)?;
    serde_json::from_str(text.trim()).map_err(|e| format!("the model's output is not JSON ({e})"))
}

/// A stand-in for the host's model in native unit tests: set a handler and
/// the plugin's [`complete`] calls reach it (per thread, so tests running in
/// parallel do not see each other's handlers).
#[cfg(not(target_arch = "wasm32"))]
pub mod mock {
    use super::Request;
    use std::cell::RefCell;

    type Handler = Box<dyn Fn(&Request) -> Result<String, String>>;

    thread_local! {
        static HANDLER: RefCell<Option<Handler>> = const { RefCell::new(None) };
    }

    /// Answers this thread's `llm::complete` calls with `handler`.
    pub fn set(handler: impl Fn(&Request) -> Result<String, String> + 'static) {
        HANDLER.with(|h| *h.borrow_mut() = Some(Box::new(handler)));
    }

    /// Removes the handler: calls fail again as outside the host.
    pub fn clear() {
        HANDLER.with(|h| *h.borrow_mut() = None);
    }

    pub(super) fn answer(request: &Request) -> Result<String, String> {
        HANDLER.with(|h| match h.borrow().as_ref() {
            Some(handler) => handler(request),
            None => Err("the llm capability is only available inside the Distill host \
                         (in unit tests, set a handler with distill_sdk::llm::mock::set)"
                .to_string()),
        })
    }

    #[cfg(test)]
    mod tests {
        use super::super::{Message, Request, complete};

        #[test]
        fn a_mocked_model_answers_and_sees_the_request() {
            assert!(complete(&Request::new(vec![])).is_err());
            super::set(|req| {
                Ok(format!(
                    "{} messages, first: {}",
                    req.messages.len(),
                    req.messages[0].content
                ))
            });
            let answer = complete(&Request::new(vec![Message::new("user", "hello")])).unwrap();
            assert_eq!(answer, "1 messages, first: hello");
            super::clear();
            assert!(complete(&Request::new(vec![])).is_err());
        }
    }
}
