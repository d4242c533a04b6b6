//! The language-model client behind the plugins' `llm` capability: any
//! OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama's `/v1`,
//! llama.cpp's server), configured by the operator (docs/LLM.md).
//!
//! One call ([`LlmClient::complete_for`]): the model for the calling format
//! (per-format override), the messages fitted to the model's context
//! ([`context`]), the request sent under a concurrency limit with retries on
//! 429/5xx ([`transport`]), structured output always through
//! `response_format: json_schema`, the answer checked against the schema with
//! one repair attempt ([`schema`]); a cut-off or invalid answer is an `Err`
//! the plugin turns into a warning and a null value. Token usage is logged per
//! call and added to per-format totals ([`usage`]).

pub mod context;
pub mod schema;
pub mod transport;
pub mod usage;

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;
use transport::{Reply, SendError};
pub use usage::{FormatUsage, Usage, UsageTotals};

/// Where the model lives and how to call it.
#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// Base URL up to and including the API version, e.g. `http://127.0.0.1:8080/v1`.
    pub base_url: String,
    pub api_key: Option<String>,
    pub model: String,
    /// Upper bound on `max_tokens` whatever a plugin asks for.
    pub max_tokens_cap: u32,
    /// Per-format model names (`DISTILL_LLM_FORMAT_MODELS=json=gpt-4o,summary=...`).
    pub format_models: BTreeMap<String, String>,
    /// The model's context window in tokens; prompts are cut to fit it.
    pub context_tokens: u32,
    /// Longest one HTTP attempt may take (the request's deadline also applies).
    pub timeout: Duration,
    /// Most model calls in flight at once (the rest wait their turn).
    pub concurrency: usize,
    /// Retries after a 429, a 5xx or a connection failure.
    pub retries: u32,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            base_url: String::new(),
            api_key: None,
            model: "default".to_string(),
            max_tokens_cap: 1024,
            format_models: BTreeMap::new(),
            context_tokens: 8192,
            timeout: Duration::from_secs(120),
            concurrency: 4,
            retries: 2,
        }
    }
}

impl LlmConfig {
    /// The model a call for `format` uses.
    pub fn model_for(&self, format: Option<&str>) -> &str {
        format
            .and_then(|f| self.format_models.get(f))
            .map(String::as_str)
            .unwrap_or(&self.model)
    }
}

/// `format=model,format=model` (blank entries and entries without `=` are ignored).
pub fn parse_format_models(spec: Option<&str>) -> BTreeMap<String, String> {
    spec.unwrap_or_default()
        .split(',')
        .filter_map(|pair| pair.split_once('='))
        .map(|(f, m)| (f.trim().to_string(), m.trim().to_string()))
        .filter(|(f, m)| !f.is_empty() && !m.is_empty())
        .collect()
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

/// Who is calling: for the per-format model, the log and the usage totals.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    /// The format being rendered, when known.
    pub format: Option<String>,
    pub plugin: String,
    pub request_id: String,
}

/// A successful completion.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The model's text; with a schema, JSON that follows it.
    pub text: String,
    /// Things the user should know that did not stop the call (e.g. the
    /// prompt was cut to fit the context); the host adds them to the
    /// format's warnings.
    pub notes: Vec<String>,
    /// Tokens spent by every attempt of this call.
    pub usage: Usage,
}

/// A shared client.
pub struct LlmClient {
    config: LlmConfig,
    http: reqwest::Client,
    slots: Arc<Semaphore>,
    totals: UsageTotals,
}

impl LlmClient {
    pub fn new(config: LlmConfig) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            .use_rustls_tls()
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        let slots = Arc::new(Semaphore::new(config.concurrency.max(1)));
        Ok(LlmClient {
            config,
            http,
            slots,
            totals: UsageTotals::default(),
        })
    }

    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// Token and call totals per format since the server started.
    pub fn totals(&self) -> &UsageTotals {
        &self.totals
    }

    /// `max_tokens` for a request: what the plugin asked for, capped.
    pub fn max_tokens(&self, req: &ChatRequest) -> u32 {
        req.max_tokens
            .unwrap_or(self.config.max_tokens_cap)
            .min(self.config.max_tokens_cap)
    }

    /// The body sent to `/chat/completions` (with the default model).
    pub fn request_body(&self, req: &ChatRequest) -> Value {
        self.body_for(&self.config.model, &req.messages, req)
    }

    fn body_for(&self, model: &str, messages: &[(String, String)], req: &ChatRequest) -> Value {
        let mut body = json!({
            "model": model,
            "messages": messages.iter().map(|(role, content)| json!({"role": role, "content": content})).collect::<Vec<_>>(),
            "max_tokens": self.max_tokens(req),
            "temperature": req.temperature.unwrap_or(0.0),
            "stream": false,
        });
        if let Some(schema) = &req.json_schema {
            body["response_format"] = json!({
                "type": "json_schema",
                "json_schema": {
                    "name": "result",
                    "schema": schema,
                    // OpenAI's strict mode refuses schemas it cannot enforce
                    // (free-form objects, optional properties); ask for it
                    // only when the schema qualifies.
                    "strict": schema::is_strict_compatible(schema),
                },
            });
        }
        body
    }

    /// Runs a completion, giving up at `deadline`; the text, or why not.
    /// Kept for callers without a [`Caller`]; see [`LlmClient::complete_for`].
    pub async fn complete(&self, req: &ChatRequest, deadline: Instant) -> Result<String, String> {
        self.complete_for(req, &Caller::default(), deadline)
            .await
            .map(|answer| answer.text)
    }

    /// Runs a completion for `caller`, giving up at `deadline`.
    pub async fn complete_for(
        &self,
        req: &ChatRequest,
        caller: &Caller,
        deadline: Instant,
    ) -> Result<Answer, String> {
        let started = Instant::now();
        let model = self.config.model_for(caller.format.as_deref()).to_string();
        let mut usage = Usage::default();
        let result = self.run(req, &model, deadline, &mut usage).await;
        let ms = started.elapsed().as_millis() as u64;
        self.totals.record(
            caller.format.as_deref().unwrap_or("-"),
            &usage,
            ms,
            result.is_ok(),
        );
        tracing::info!(
            plugin = %caller.plugin,
            request = %caller.request_id,
            format = caller.format.as_deref().unwrap_or("-"),
            model = %model,
            ok = result.is_ok(),
            attempts = usage.attempts,
            repaired = usage.repairs > 0,
            prompt_tokens = usage.prompt_tokens,
            completion_tokens = usage.completion_tokens,
            ms,
            "llm call"
        );
        result.map(|(text, notes)| Answer { text, notes, usage })
    }

    async fn run(
        &self,
        req: &ChatRequest,
        model: &str,
        deadline: Instant,
        usage: &mut Usage,
    ) -> Result<(String, Vec<String>), String> {
        let validator = match &req.json_schema {
            Some(s) => Some(schema::compile(s)?),
            None => None,
        };
        let max_tokens = self.max_tokens(req);
        let mut notes = Vec::new();
        let fitted = context::fit(&req.messages, self.config.context_tokens, max_tokens);
        let mut messages = fitted.messages;
        if let Some(note) = fitted.note {
            notes.push(format!(
                "{note} (DISTILL_LLM_CONTEXT_TOKENS={})",
                self.config.context_tokens
            ));
        }
        let mut reply = match self.send(model, &messages, req, deadline, usage).await {
            // The server counted more tokens than the estimate: cut to its
            // own count once and try again.
            Err(SendError::ContextExceeded {
                prompt_tokens,
                context,
            }) => {
                let refit = context::refit(&messages, prompt_tokens, context, max_tokens);
                messages = refit.messages;
                if let Some(note) = refit.note {
                    notes.push(note);
                }
                self.send(model, &messages, req, deadline, usage).await
            }
            other => other,
        }
        .map_err(|e| e.to_string())?;
        let Some(validator) = validator else {
            cut_off(&reply, max_tokens)?;
            return Ok((reply.content, notes));
        };
        let mut repaired = false;
        loop {
            cut_off(&reply, max_tokens)?;
            match schema::check(&validator, &reply.content) {
                Ok(text) => return Ok((text, notes)),
                Err(problem) if repaired => {
                    return Err(format!(
                        "the model's answer did not follow the schema, even after one repair attempt: {problem}"
                    ));
                }
                Err(problem) => {
                    repaired = true;
                    usage.repairs += 1;
                    let mut retry = messages.clone();
                    retry.push(("assistant".to_string(), reply.content.clone()));
                    retry.push(("user".to_string(), schema::repair_prompt(&problem)));
                    reply = self
                        .send(model, &retry, req, deadline, usage)
                        .await
                        .map_err(|e| e.to_string())?;
                }
            }
        }
    }

    /// One exchange (with retries) under the concurrency limit.
    async fn send(
        &self,
        model: &str,
        messages: &[(String, String)],
        req: &ChatRequest,
        deadline: Instant,
        usage: &mut Usage,
    ) -> Result<Reply, SendError> {
        let body = self.body_for(model, messages, req);
        let endpoint = transport::Endpoint {
            http: &self.http,
            url: format!("{}/chat/completions", self.config.base_url.trim_end_matches('/')),
            api_key: self.config.api_key.as_deref(),
            timeout: self.config.timeout,
            retries: self.config.retries,
            slots: &self.slots,
        };
        endpoint.send(&body, deadline, usage).await
    }
}

/// An answer the model stopped because it ran out of tokens is unusable.
fn cut_off(reply: &Reply, max_tokens: u32) -> Result<(), String> {
    if reply.finish_reason.as_deref() == Some("length") {
        return Err(format!(
            "the model's answer was cut off at max_tokens={max_tokens} (finish_reason \"length\"); \
             raise DISTILL_LLM_MAX_TOKENS or ask for a shorter answer"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(max_tokens_cap: u32) -> LlmClient {
        LlmClient::new(LlmConfig {
            base_url: "http://127.0.0.1:1/v1".into(),
            model: "m".into(),
            max_tokens_cap,
            format_models: [("json".to_string(), "big".to_string())].into(),
            ..LlmConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn body_caps_tokens_and_asks_for_schema() {
        let body = client(256).request_body(&ChatRequest {
            messages: vec![("user".into(), "hi".into())],
            json_schema: Some(json!({"type": "object"})),
            max_tokens: Some(5000),
            temperature: None,
        });
        assert_eq!(body["max_tokens"], 256);
        assert_eq!(body["temperature"], 0.0);
        assert_eq!(body["messages"][0]["content"], "hi");
        assert_eq!(body["response_format"]["type"], "json_schema");
        assert_eq!(
            body["response_format"]["json_schema"]["strict"], false,
            "free-form object"
        );
    }

    #[test]
    fn a_format_may_have_its_own_model() {
        let c = client(256);
        assert_eq!(c.config().model_for(Some("json")), "big");
        assert_eq!(c.config().model_for(Some("summary")), "m");
        assert_eq!(c.config().model_for(None), "m");
        let parsed = parse_format_models(Some(" json = big ,summary=small,,bad"));
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed["json"], "big");
        assert_eq!(parsed["summary"], "small");
    }
}
