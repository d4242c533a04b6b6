//! Token usage: what one call spent ([`Usage`], from the endpoint's `usage`
//! object, summed over retries and the repair attempt) and the totals per
//! format since the server started ([`UsageTotals`], shown by
//! `GET /admin/llm` and read by `make bench`).

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// What one call (every attempt of it) spent.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// HTTP attempts (1 unless retried or repaired).
    pub attempts: u32,
    /// Repair attempts after an answer that did not follow the schema.
    pub repairs: u32,
}

impl Usage {
    /// Adds an OpenAI-style `usage` object (`prompt_tokens`, `completion_tokens`).
    pub fn add(&mut self, usage: &Value) {
        self.prompt_tokens += usage["prompt_tokens"].as_u64().unwrap_or(0);
        self.completion_tokens += usage["completion_tokens"].as_u64().unwrap_or(0);
    }
}

/// Totals for one format.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FormatUsage {
    pub calls: u64,
    pub failures: u64,
    pub attempts: u64,
    pub repairs: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Wall time of every call, summed.
    pub total_ms: u64,
}

/// Totals per format (`-` for calls with no format).
#[derive(Debug, Default)]
pub struct UsageTotals {
    by_format: Mutex<BTreeMap<String, FormatUsage>>,
}

impl UsageTotals {
    pub fn record(&self, format: &str, usage: &Usage, ms: u64, ok: bool) {
        let mut map = self.by_format.lock().unwrap_or_else(|p| p.into_inner());
        let t = map.entry(format.to_string()).or_default();
        t.calls += 1;
        t.failures += u64::from(!ok);
        t.attempts += u64::from(usage.attempts);
        t.repairs += u64::from(usage.repairs);
        t.prompt_tokens += usage.prompt_tokens;
        t.completion_tokens += usage.completion_tokens;
        t.total_ms += ms;
        crate::telemetry::model_tokens(usage.prompt_tokens, usage.completion_tokens);
    }

    pub fn snapshot(&self) -> BTreeMap<String, FormatUsage> {
        self.by_format.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The totals as JSON: `{format: {calls, failures, ...}}`.
    pub fn to_json(&self) -> Value {
        let formats: serde_json::Map<String, Value> = self
            .snapshot()
            .into_iter()
            .map(|(format, t)| {
                (
                    format,
                    json!({
                        "calls": t.calls, "failures": t.failures, "attempts": t.attempts,
                        "repairs": t.repairs, "promptTokens": t.prompt_tokens,
                        "completionTokens": t.completion_tokens, "totalMs": t.total_ms,
                    }),
                )
            })
            .collect();
        Value::Object(formats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_add_up_per_format() {
        let totals = UsageTotals::default();
        let mut u = Usage::default();
        u.add(&json!({"prompt_tokens": 100, "completion_tokens": 7, "total_tokens": 107}));
        u.add(&json!({"prompt_tokens": 120, "completion_tokens": 9}));
        u.attempts = 2;
        u.repairs = 1;
        totals.record("json", &u, 40, true);
        totals.record("json", &Usage::default(), 5, false);
        let j = totals.to_json();
        assert_eq!(
            j["json"],
            json!({"calls": 2, "failures": 1, "attempts": 2, "repairs": 1, "promptTokens": 220,
                   "completionTokens": 16, "totalMs": 45})
        );
    }
}
