//! The language-model client behind the plugins' `llm` capability: any
//! OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama's `/v1`,
//! llama.cpp's server), configured by the operator.

use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Where the model lives and how to call it.
#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// Base URL up to and including the API version, e.g. `http://127.0.0.1:8080/v1`.
    pub base_url: String,
    pub api_key: Option<String>,
    pub model: String,
    /// Upper bound on `max_tokens` whatever a plugin asks for.
    pub max_tokens_cap: u32,
}

/// A completion request from a plugin.
#[derive(Debug, Clone)]
pub struct ChatRequest {
    /// `(role, content)` pairs.
    pub messages: Vec<(String, String)>,
    /// A JSON Schema the answer must follow.
    pub json_schema: Option<Value>,
    pub max_tokens: Option<u32>,
    pub temperature: Option<f32>,
}

/// A shared client.
pub struct LlmClient {
    config: LlmConfig,
    http: reqwest::Client,
}

impl LlmClient {
    pub fn new(config: LlmConfig) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            .use_rustls_tls()
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        Ok(LlmClient { config, http })
    }

    /// The body sent to `/chat/completions`.
    pub fn request_body(&self, req: &ChatRequest) -> Value {
        let max_tokens = req
            .max_tokens
            .unwrap_or(self.config.max_tokens_cap)
            .min(self.config.max_tokens_cap);
        let mut body = json!({
            "model": self.config.model,
            "messages": req.messages.iter().map(|(role, content)| json!({"role": role, "content": content})).collect::<Vec<_>>(),
            "max_tokens": max_tokens,
            "temperature": req.temperature.unwrap_or(0.0),
            "stream": false,
        });
        if let Some(schema) = &req.json_schema {
            body["response_format"] = json!({
                "type": "json_schema",
                "json_schema": { "name": "result", "schema": schema, "strict": true },
            });
        }
        body
    }

    /// Runs a completion, giving up at `deadline`.
    pub async fn complete(&self, req: &ChatRequest, deadline: Instant) -> Result<String, String> {
        let url = format!("{}/chat/completions", self.config.base_url.trim_end_matches('/'));
        let mut call = self.http.post(&url).json(&self.request_body(req));
        if let Some(key) = &self.config.api_key {
            call = call.bearer_auth(key);
        }
        let send = async {
            let response = call
                .send()
                .await
                .map_err(|e| format!("LLM request to {url} failed: {e}"))?;
            let status = response.status();
            let body: Value = response
                .json()
                .await
                .map_err(|e| format!("LLM answered with a body that is not JSON: {e}"))?;
            if !status.is_success() {
                return Err(format!("LLM answered HTTP {status}: {}", body["error"]));
            }
            body["choices"][0]["message"]["content"]
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| "LLM answer has no choices[0].message.content".to_string())
        };
        match tokio::time::timeout_at(deadline.into(), send).await {
            Ok(result) => result,
            Err(_) => Err("LLM call did not finish before the request deadline".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_caps_tokens_and_asks_for_schema() {
        let client = LlmClient::new(LlmConfig {
            base_url: "http://127.0.0.1:1/v1".into(),
            api_key: None,
            model: "m".into(),
            max_tokens_cap: 256,
        })
        .unwrap();
        let body = client.request_body(&ChatRequest {
            messages: vec![("user".into(), "hi".into())],
            json_schema: Some(json!({"type": "object"})),
            max_tokens: Some(5000),
            temperature: None,
        });
        assert_eq!(body["max_tokens"], 256);
        assert_eq!(body["temperature"], 0.0);
        assert_eq!(body["messages"][0]["content"], "hi");
        assert_eq!(body["response_format"]["type"], "json_schema");
    }
}
