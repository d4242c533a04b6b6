//! Distill format plugin `summary`: the page's markdown (ABI 0.3 `consumes`)
//! summarised by the operator's language model (`llm` capability), with
//! upstream's system prompt, user prompt and schema `{summary: string}`
//! (bounded to [`MAX_SUMMARY_CHARS`]);
//! the value is the summary string (`data.summary`).
//!
//! No model configured, a failed call, or output that is not the schema's
//! JSON → `null` and a warning with the reason (the host's reason names
//! `DISTILL_LLM_BASE_URL` when no model is set), never a failed scrape.
//! Markdown longer than [`MAX_CHARS`] is cut to fit small models, with a warning.

use distill_sdk::llm::{self, Message, Request};
use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value, json};

/// Upstream's system prompt.
pub const SYSTEM: &str = "You are a content summarization expert. Analyze the provided content and create a concise, informative summary that captures the key points, main ideas, and essential information. Focus on clarity and brevity while maintaining accuracy.";
/// Upstream's instruction.
pub const PROMPT: &str = "Summarize the main content and key points from this page.";
/// The most markdown sent (characters), about 6k tokens.
pub const MAX_CHARS: usize = 24_000;

/// Longest summary asked for (characters, about 250 tokens): upstream asks
/// for a concise summary, and an unbounded string lets a small model run on
/// until `max_tokens` cuts the JSON off.
pub const MAX_SUMMARY_CHARS: u64 = 1000;

/// The plugin.
pub struct Summary;

impl FormatPlugin for Summary {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Summary of the page by the operator's language model.")
            .format("summary")
            .consumes("markdown")
            .capability("llm")
            .memory_limit_mib(64)
    }

    fn render(_format: &str, page: &Page, _options: &Value) -> Result<Value, PluginError> {
        let markdown = page.markdown().unwrap_or_default();
        if markdown.chars().count() > MAX_CHARS {
            distill_sdk::warning(format!(
                "summary: the page is longer than {MAX_CHARS} characters; only its beginning was summarised"
            ));
        }
        Ok(match summarize(&markdown) {
            Ok(summary) => json!(summary),
            Err(why) => {
                distill_sdk::warning(format!("summary: {why}"));
                Value::Null
            }
        })
    }
}

/// The request sent for `markdown` (cut to [`MAX_CHARS`]).
pub fn request(markdown: &str) -> Request {
    let cut: String = markdown.chars().take(MAX_CHARS).collect();
    let schema = json!({
        "type": "object",
        "properties": {"summary": {"type": "string", "maxLength": MAX_SUMMARY_CHARS}},
        "required": ["summary"],
        "additionalProperties": false
    });
    Request::new(vec![
        Message::new("system", SYSTEM),
        Message::new("user", format!("{PROMPT}\n\n{cut}")),
    ])
    .json_schema(&schema)
}

/// The model's summary of `markdown`, or why there is none.
pub fn summarize(markdown: &str) -> Result<String, String> {
    if markdown.trim().is_empty() {
        return Err("the page has no text to summarise".into());
    }
    let value = llm::complete_json(&request(markdown))?;
    value["summary"]
        .as_str()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .ok_or_else(|| "the model's output has no \"summary\" string".into())
}

distill_sdk::export_plugin!(format: Summary);

#[cfg(test)]
mod tests {
    use super::*;
    use distill_sdk::llm::mock;

    fn page(md: &str) -> Page {
        Page::builder("https://example.com/").markdown(md).build()
    }

    #[test]
    fn sends_upstreams_prompts_and_schema_and_returns_the_string() {
        mock::set(|req| {
            assert_eq!(req.messages[0].content, SYSTEM);
            assert_eq!(
                req.messages[1].content,
                format!("{PROMPT}\n\n# Moss\n\nGrows on walls.")
            );
            let schema: Value = serde_json::from_str(req.json_schema.as_deref().unwrap()).unwrap();
            assert_eq!(schema["required"], json!(["summary"]));
            assert_eq!(schema["properties"]["summary"]["maxLength"], MAX_SUMMARY_CHARS);
            Ok(r#"{"summary": " Moss grows on walls. "}"#.into())
        });
        let out = Summary::render("summary", &page("# Moss\n\nGrows on walls."), &json!({})).unwrap();
        assert_eq!(out, json!("Moss grows on walls."));
        mock::clear();
    }

    #[test]
    fn failures_become_null_and_a_warning() {
        let warned = |page_text: &str| {
            distill_sdk::take_warnings();
            let out = Summary::render("summary", &page(page_text), &json!({})).unwrap();
            assert_eq!(out, Value::Null);
            distill_sdk::take_warnings().join(" ")
        };
        mock::set(|_| Err("no language model is configured on this server (DISTILL_LLM_BASE_URL)".into()));
        assert_eq!(
            warned("text"),
            "summary: no language model is configured on this server (DISTILL_LLM_BASE_URL)"
        );
        mock::set(|_| Ok("Sure! Here is a summary".into()));
        assert!(warned("text").contains("not JSON"));
        mock::set(|_| Ok(r#"{"summary": ""}"#.into()));
        assert!(warned("text").contains("no \"summary\""));
        mock::clear();
        assert!(warned("  ").contains("no text"));
    }

    #[test]
    fn a_long_page_is_cut_with_a_warning() {
        mock::set(|_| Ok(r#"{"summary": "Long."}"#.into()));
        distill_sdk::take_warnings();
        let long = "word ".repeat(MAX_CHARS);
        let out = Summary::render("summary", &page(&long), &json!({})).unwrap();
        assert_eq!(out, json!("Long."));
        assert!(distill_sdk::take_warnings()[0].contains("only its beginning was summarised"));
        mock::clear();
    }

    #[test]
    fn long_pages_are_cut() {
        let long = "word ".repeat(10_000);
        let req = request(&long);
        assert_eq!(
            req.messages[1].content.chars().count(),
            PROMPT.len() + 2 + MAX_CHARS
        );
    }
}
