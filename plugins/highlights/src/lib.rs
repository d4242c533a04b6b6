//! Distill format plugin `highlights`: `{"type": "highlights", "query": ...}`
//! → the page's sentences most relevant to the query, quoted verbatim
//! (`data.highlights`, a string). As upstream does, the markdown (ABI 0.3
//! `consumes`) is split into sentences sent as numbered `i: text` lines; the
//! operator's language model (`llm` capability) answers only indices, so
//! every quoted sentence is the page's own text: the model cannot rephrase or
//! invent. The chosen sentences are joined in page order, one per line.
//!
//! No model, a failed call, or no sentence chosen → `null` and a warning.

mod sentences;

use distill_sdk::llm::{self, Message, Request};
use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value, json};
pub use sentences::split_sentences;

/// The system prompt.
pub const SYSTEM: &str = "You pick the sentences of a web page that answer a query. The page is \
given as numbered sentences, one per line, as `index: sentence`. Answer with the indices of the \
sentences that are most relevant to the query, most relevant first (at least one).";
/// Most sentences quoted.
pub const MAX_HIGHLIGHTS: u64 = 8;
/// Most sentences numbered for the model (the host also cuts to its context).
pub const MAX_SENTENCES: usize = 2000;

/// The plugin.
pub struct Highlights;

impl FormatPlugin for Highlights {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Sentences quoted verbatim from the page, chosen by the operator's language model.")
            .format("highlights")
            .consumes("markdown")
            .capability("llm")
            .memory_limit_mib(64)
    }

    fn render(_format: &str, page: &Page, options: &Value) -> Result<Value, PluginError> {
        let query = options
            .get("query")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .ok_or_else(|| {
                PluginError::InvalidOptions("highlights: `query` must be a non-empty string".into())
            })?;
        let markdown = page.markdown().unwrap_or_default();
        let sentences = split_sentences(&markdown);
        if sentences.is_empty() {
            distill_sdk::warning("highlights: the query was skipped because the markdown content is empty");
            return Ok(Value::Null);
        }
        if sentences.len() > MAX_SENTENCES {
            distill_sdk::warning(format!(
                "highlights: the page has {} sentences; only the first {MAX_SENTENCES} were considered",
                sentences.len()
            ));
        }
        let sentences = &sentences[..sentences.len().min(MAX_SENTENCES)];
        Ok(match highlight(query, sentences) {
            Ok(text) => json!(text),
            Err(why) => {
                distill_sdk::warning(format!("highlights: {why}"));
                Value::Null
            }
        })
    }
}

/// The user message: the query, then the numbered sentences (last, so a cut
/// to the model's context only drops trailing sentences).
pub fn user_message(query: &str, sentences: &[String]) -> String {
    let mut out = format!(
        "<query>{}</query>\n\n",
        query.replace("</query", "<\u{200B}/query")
    );
    for (i, s) in sentences.iter().enumerate() {
        out.push_str(&format!("{i}: {s}\n"));
    }
    out
}

/// The request sent.
pub fn request(query: &str, sentences: &[String]) -> Request {
    let last = sentences.len().saturating_sub(1);
    let schema = json!({
        "type": "object",
        "properties": {"indices": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": last},
            "minItems": 1,
            "maxItems": MAX_HIGHLIGHTS
        }},
        "required": ["indices"],
        "additionalProperties": false
    });
    Request::new(vec![
        Message::new("system", SYSTEM),
        Message::new("user", user_message(query, sentences)),
    ])
    .json_schema(&schema)
}

/// The chosen sentences, verbatim, in page order; or why there are none.
pub fn highlight(query: &str, sentences: &[String]) -> Result<String, String> {
    let value = llm::complete_json(&request(query, sentences))?;
    let mut chosen: Vec<usize> = value["indices"]
        .as_array()
        .ok_or("the model's output has no \"indices\" list")?
        .iter()
        .filter_map(Value::as_u64)
        .map(|i| i as usize)
        .filter(|&i| i < sentences.len())
        .collect();
    chosen.sort_unstable();
    chosen.dedup();
    if chosen.is_empty() {
        return Err("the model found no sentence of the page relevant to the query".into());
    }
    Ok(chosen
        .iter()
        .map(|&i| sentences[i].as_str())
        .collect::<Vec<_>>()
        .join("\n"))
}

distill_sdk::export_plugin!(format: Highlights);

#[cfg(test)]
mod tests {
    use super::*;
    use distill_sdk::llm::mock;

    fn page(md: &str) -> Page {
        Page::builder("https://example.com/").markdown(md).build()
    }

    #[test]
    fn numbered_sentences_go_out_and_chosen_ones_come_back_verbatim() {
        mock::set(|req| {
            assert_eq!(req.messages[0].content, SYSTEM);
            assert_eq!(
                req.messages[1].content,
                "<query>where does it grow?</query>\n\n0: # Moss\n1: Moss is green.\n2: It grows on **walls**.\n3: \
                 Rain helps.\n"
            );
            let schema: Value = serde_json::from_str(req.json_schema.as_deref().unwrap()).unwrap();
            assert_eq!(schema["properties"]["indices"]["items"]["maximum"], 3);
            Ok(r#"{"indices": [3, 2, 2, 99]}"#.into())
        });
        let out = Highlights::render(
            "highlights",
            &page("# Moss\n\nMoss is green. It grows on **walls**.\n\nRain helps."),
            &json!({"query": "where does it grow?"}),
        )
        .unwrap();
        assert_eq!(
            out,
            json!("It grows on **walls**.\nRain helps."),
            "page order, deduplicated, in range"
        );
        mock::clear();
    }

    #[test]
    fn nothing_chosen_or_failed_is_null_with_a_warning() {
        distill_sdk::take_warnings();
        mock::set(|_| Ok(r#"{"indices": []}"#.into()));
        assert_eq!(
            Highlights::render("highlights", &page("A. B."), &json!({"query": "q"})).unwrap(),
            Value::Null
        );
        assert!(distill_sdk::take_warnings()[0].contains("no sentence"));
        mock::set(|_| Err("the model did not answer before the request's deadline".into()));
        assert_eq!(
            Highlights::render("highlights", &page("A. B."), &json!({"query": "q"})).unwrap(),
            Value::Null
        );
        assert_eq!(
            distill_sdk::take_warnings(),
            vec!["highlights: the model did not answer before the request's deadline"]
        );
        assert_eq!(
            Highlights::render("highlights", &page("\n\n"), &json!({"query": "q"})).unwrap(),
            Value::Null
        );
        assert!(distill_sdk::take_warnings()[0].contains("markdown content is empty"));
        mock::clear();
        assert!(Highlights::render("highlights", &page("A."), &json!({"query": " "})).is_err());
    }
}
