//! One chat-completions exchange over HTTP: a slot of the client's
//! concurrency limit per attempt, a per-attempt timeout within the request's
//! deadline, retries with exponential backoff (jittered) after a 429, a 5xx or
//! a failed connection, honouring `Retry-After` (seconds or an HTTP date).

use super::usage::Usage;
use serde_json::Value;
use std::fmt;
use std::time::{Duration, Instant, SystemTime};
use tokio::sync::Semaphore;

/// First backoff; doubled per retry.
const BACKOFF_BASE: Duration = Duration::from_millis(500);
/// Longest backoff we choose ourselves.
const BACKOFF_MAX: Duration = Duration::from_secs(8);
/// Longest `Retry-After` honoured; a server asking for more is given up on.
const RETRY_AFTER_MAX: Duration = Duration::from_secs(60);

/// The model's reply to one exchange.
#[derive(Debug, Clone)]
pub struct Reply {
    pub content: String,
    pub finish_reason: Option<String>,
}

/// Why an exchange failed.
#[derive(Debug)]
pub enum SendError {
    /// The prompt does not fit the model's context (the server's own count).
    ContextExceeded { prompt_tokens: u32, context: u32 },
    /// Anything else, described for the user.
    Other(String),
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::ContextExceeded {
                prompt_tokens,
                context,
            } => write!(
                f,
                "the prompt ({prompt_tokens} tokens) does not fit the model's context ({context} tokens)"
            ),
            SendError::Other(m) => f.write_str(m),
        }
    }
}

/// Where and how to send.
pub struct Endpoint<'a> {
    pub http: &'a reqwest::Client,
    pub url: String,
    pub api_key: Option<&'a str>,
    pub timeout: Duration,
    pub retries: u32,
    pub slots: &'a Semaphore,
}

/// The outcome of one attempt.
enum Attempt {
    Done(Reply),
    /// Worth another try, after `wait` when the server said so.
    Retry {
        why: String,
        wait: Option<Duration>,
    },
    Fail(SendError),
}

impl Endpoint<'_> {
    /// Sends `body`, retrying as configured; adds every attempt's tokens to `usage`.
    pub async fn send(&self, body: &Value, deadline: Instant, usage: &mut Usage) -> Result<Reply, SendError> {
        let mut retry = 0;
        loop {
            let outcome =
                match tokio::time::timeout_at(deadline.into(), self.attempt(body, deadline, usage)).await {
                    Ok(outcome) => outcome,
                    Err(_) => return Err(past_deadline()),
                };
            let (why, asked) = match outcome {
                Attempt::Done(reply) => return Ok(reply),
                Attempt::Fail(e) => return Err(e),
                Attempt::Retry { why, wait } => (why, wait),
            };
            if retry >= self.retries {
                let tries = retry + 1;
                return Err(SendError::Other(format!("{why} (after {tries} attempts)")));
            }
            let wait = match asked {
                Some(w) if w > RETRY_AFTER_MAX => {
                    return Err(SendError::Other(format!(
                        "{why}; the server asked to retry after {} s",
                        w.as_secs()
                    )));
                }
                Some(w) => w,
                None => backoff(retry),
            };
            if Instant::now() + wait >= deadline {
                return Err(SendError::Other(format!(
                    "{why}; no time left to retry before the request's deadline"
                )));
            }
            tracing::debug!(
                retry = retry + 1,
                wait_ms = wait.as_millis() as u64,
                "llm retry: {why}"
            );
            tokio::time::sleep(wait).await;
            retry += 1;
        }
    }

    async fn attempt(&self, body: &Value, deadline: Instant, usage: &mut Usage) -> Attempt {
        let _slot = self
            .slots
            .acquire()
            .await
            .expect("the llm semaphore is never closed");
        usage.attempts += 1;
        let until = deadline.min(Instant::now() + self.timeout);
        let mut call = self.http.post(&self.url).json(body);
        if let Some(key) = self.api_key {
            call = call.bearer_auth(key);
        }
        let exchange = async {
            let response = call.send().await?;
            let status = response.status();
            let retry_after = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(parse_retry_after);
            let text = response.text().await?;
            Ok::<_, reqwest::Error>((status, retry_after, text))
        };
        let (status, retry_after, text) = match tokio::time::timeout_at(until.into(), exchange).await {
            Err(_) if until < deadline => {
                return Attempt::Fail(SendError::Other(format!(
                    "the model did not answer within {} s (DISTILL_LLM_TIMEOUT_MS)",
                    self.timeout.as_secs()
                )));
            }
            Err(_) => return Attempt::Fail(past_deadline()),
            Ok(Err(e)) if e.is_connect() => {
                return Attempt::Retry {
                    why: format!("could not connect to the model at {}: {e}", self.url),
                    wait: None,
                };
            }
            Ok(Err(e)) => {
                return Attempt::Fail(SendError::Other(format!("the request to the model failed: {e}")));
            }
            Ok(Ok(parts)) => parts,
        };
        let json: Option<Value> = serde_json::from_str(&text).ok();
        if let Some(u) = json.as_ref().map(|j| &j["usage"]) {
            usage.add(u);
        }
        if status.as_u16() == 429 || status.is_server_error() {
            return Attempt::Retry {
                why: format!(
                    "the model answered HTTP {status}{}",
                    error_detail(json.as_ref(), &text)
                ),
                wait: retry_after,
            };
        }
        if !status.is_success() {
            if let Some(exceeded) = json.as_ref().and_then(context_exceeded) {
                return Attempt::Fail(exceeded);
            }
            return Attempt::Fail(SendError::Other(format!(
                "the model answered HTTP {status}{}",
                error_detail(json.as_ref(), &text)
            )));
        }
        let Some(json) = json else {
            return Attempt::Fail(SendError::Other("the model's answer is not JSON".to_string()));
        };
        let choice = &json["choices"][0];
        match choice["message"]["content"].as_str() {
            Some(content) => Attempt::Done(Reply {
                content: content.to_string(),
                finish_reason: choice["finish_reason"].as_str().map(str::to_string),
            }),
            None => Attempt::Fail(SendError::Other(
                "the model's answer has no choices[0].message.content".to_string(),
            )),
        }
    }
}

fn past_deadline() -> SendError {
    SendError::Other("the model did not answer before the request's deadline".to_string())
}

/// `: <message>` from an OpenAI-style error body, or the start of the text.
fn error_detail(json: Option<&Value>, text: &str) -> String {
    let message = json.and_then(|j| {
        j["error"]["message"]
            .as_str()
            .or_else(|| j["error"].as_str())
            .or_else(|| j["message"].as_str())
            .map(str::to_string)
    });
    let message = message.unwrap_or_else(|| text.chars().take(200).collect());
    if message.trim().is_empty() {
        String::new()
    } else {
        format!(": {}", message.trim())
    }
}

/// llama.cpp's `exceed_context_size_error` (with the server's token counts).
fn context_exceeded(json: &Value) -> Option<SendError> {
    let error = &json["error"];
    if error["type"].as_str() != Some("exceed_context_size_error") {
        return None;
    }
    Some(SendError::ContextExceeded {
        prompt_tokens: error["n_prompt_tokens"].as_u64()? as u32,
        context: error["n_ctx"].as_u64()? as u32,
    })
}

/// The wait before retry number `retry + 1`: 0.5 s, 1 s, 2 s, … up to 8 s,
/// each ±25 % so that callers failing together do not retry together.
pub fn backoff(retry: u32) -> Duration {
    let base = BACKOFF_BASE.saturating_mul(1 << retry.min(8)).min(BACKOFF_MAX);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let spread = (nanos % 501) as f64 / 1000.0 + 0.75; // 0.75 ..= 1.25
    base.mul_f64(spread)
}

/// `Retry-After`: delay seconds, or an HTTP date.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(SystemTime::now()).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_takes_seconds_and_dates() {
        assert_eq!(parse_retry_after("3"), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after(" 0 "), Some(Duration::ZERO));
        let soon = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(30));
        let wait = parse_retry_after(&soon).unwrap();
        assert!(
            wait <= Duration::from_secs(30) && wait >= Duration::from_secs(28),
            "{wait:?}"
        );
        let past = httpdate::fmt_http_date(SystemTime::now() - Duration::from_secs(30));
        assert_eq!(parse_retry_after(&past), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon"), None);
    }

    #[test]
    fn backoff_doubles_within_bounds() {
        for retry in 0..12 {
            let wait = backoff(retry);
            let base = BACKOFF_BASE.saturating_mul(1 << retry.min(8)).min(BACKOFF_MAX);
            assert!(
                wait >= base.mul_f64(0.75) && wait <= base.mul_f64(1.25),
                "{retry}: {wait:?}"
            );
        }
    }

    #[test]
    fn llama_cpp_context_errors_are_recognised() {
        let body = serde_json::json!({"error": {"code": 400, "type": "exceed_context_size_error",
            "message": "the request exceeds the available context size", "n_prompt_tokens": 5000, "n_ctx": 4096}});
        assert!(matches!(
            context_exceeded(&body),
            Some(SendError::ContextExceeded {
                prompt_tokens: 5000,
                context: 4096
            })
        ));
        assert!(context_exceeded(&serde_json::json!({"error": {"message": "bad"}})).is_none());
    }
}
