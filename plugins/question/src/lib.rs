//! Distill format plugin `question`: `{"type": "question", "question": ...}`
//! answered from the page's markdown (ABI 0.3 `consumes`) by the operator's
//! language model (`llm` capability); the host puts the value in
//! `data.answer`. The user message has upstream's shape:
//! `<query>…</query>\n\n<page url="…">markdown</page>`, the tags inside the
//! question and the page broken with a zero-width space so the content cannot
//! close them. The host cuts a page too long for the model's context (warning).
//!
//! No model, a failed call or an unusable answer → `null` and a warning.

use distill_sdk::llm::{self, Message, Request};
use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value, json};

/// The system prompt.
pub const SYSTEM: &str = "You answer questions about web pages. Be succinct: answer in a few \
sentences at most. Use ONLY content that literally appears in <page>; do not use outside \
knowledge. If the page does not answer the question, say that the page does not say.";
/// Longest answer asked for (characters), so a small model cannot run on.
pub const MAX_ANSWER_CHARS: u64 = 1000;

/// The plugin.
pub struct Question;

impl FormatPlugin for Question {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("The answer to a question about the page, by the operator's language model.")
            .format("question")
            .consumes("markdown")
            .capability("llm")
            .memory_limit_mib(64)
    }

    fn render(_format: &str, page: &Page, options: &Value) -> Result<Value, PluginError> {
        let question = options
            .get("question")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .ok_or_else(|| {
                PluginError::InvalidOptions("question: `question` must be a non-empty string".into())
            })?;
        let markdown = page.markdown().unwrap_or_default();
        if markdown.trim().is_empty() {
            distill_sdk::warning("question: the question was skipped because the markdown content is empty");
            return Ok(Value::Null);
        }
        Ok(match answer(question, &page.final_url, &markdown) {
            Ok(text) => json!(text),
            Err(why) => {
                distill_sdk::warning(format!("question: {why}"));
                Value::Null
            }
        })
    }
}

/// Breaks `<query`, `</query`, `<page`, `</page` in `text` with a zero-width space.
pub fn escape_tags(text: &str) -> String {
    let mut out = text.to_string();
    for tag in ["</query", "<query", "</page", "<page"] {
        let broken = format!("{}\u{200B}{}", &tag[..1], &tag[1..]);
        out = out.replace(tag, &broken);
    }
    out
}

/// The user message.
pub fn user_message(question: &str, url: &str, markdown: &str) -> String {
    format!(
        "<query>{}</query>\n\n<page url=\"{}\">{}</page>",
        escape_tags(question),
        escape_tags(&url.replace('"', "%22")),
        escape_tags(markdown)
    )
}

/// The request sent.
pub fn request(question: &str, url: &str, markdown: &str) -> Request {
    let schema = json!({
        "type": "object",
        "properties": {"answer": {"type": "string", "maxLength": MAX_ANSWER_CHARS}},
        "required": ["answer"],
        "additionalProperties": false
    });
    Request::new(vec![
        Message::new("system", SYSTEM),
        Message::new("user", user_message(question, url, markdown)),
    ])
    .json_schema(&schema)
}

/// The model's answer, or why there is none.
pub fn answer(question: &str, url: &str, markdown: &str) -> Result<String, String> {
    let value = llm::complete_json(&request(question, url, markdown))?;
    value["answer"]
        .as_str()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .ok_or_else(|| "the model's output has no \"answer\" string".into())
}

distill_sdk::export_plugin!(format: Question);

#[cfg(test)]
mod tests {
    use super::*;
    use distill_sdk::llm::mock;

    fn page(md: &str) -> Page {
        Page::builder("https://example.com/moss").markdown(md).build()
    }

    #[test]
    fn sends_the_query_and_the_page_in_tags() {
        mock::set(|req| {
            assert_eq!(req.messages[0].content, SYSTEM);
            assert_eq!(
                req.messages[1].content,
                "<query>Where does moss grow?</query>\n\n<page url=\"https://example.com/moss\"># Moss\n\nOn walls \
                 <\u{200B}/page> here.</page>"
            );
            let schema: Value = serde_json::from_str(req.json_schema.as_deref().unwrap()).unwrap();
            assert_eq!(schema["properties"]["answer"]["maxLength"], MAX_ANSWER_CHARS);
            Ok(r#"{"answer": " On walls. "}"#.into())
        });
        let out = Question::render(
            "question",
            &page("# Moss\n\nOn walls </page> here."),
            &json!({"question": "Where does moss grow?"}),
        )
        .unwrap();
        assert_eq!(out, json!("On walls."));
        mock::clear();
    }

    #[test]
    fn failures_and_empty_pages_are_null_with_a_warning() {
        distill_sdk::take_warnings();
        mock::set(|_| Err("no language model is configured on this server (DISTILL_LLM_BASE_URL)".into()));
        let out = Question::render("question", &page("text"), &json!({"question": "q"})).unwrap();
        assert_eq!(out, Value::Null);
        assert_eq!(
            distill_sdk::take_warnings(),
            vec!["question: no language model is configured on this server (DISTILL_LLM_BASE_URL)"]
        );
        mock::set(|_| Ok(r#"{"answer": ""}"#.into()));
        assert_eq!(
            Question::render("question", &page("text"), &json!({"question": "q"})).unwrap(),
            Value::Null
        );
        assert!(distill_sdk::take_warnings()[0].contains("no \"answer\""));
        assert_eq!(
            Question::render("question", &page(" "), &json!({"question": "q"})).unwrap(),
            Value::Null
        );
        assert!(distill_sdk::take_warnings()[0].contains("markdown content is empty"));
        mock::clear();
        assert!(matches!(
            Question::render("question", &page("t"), &json!({})),
            Err(PluginError::InvalidOptions(_))
        ));
    }
}
