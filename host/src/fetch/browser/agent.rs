//! Interact's `prompt`: the configured model turns a natural-language task
//! into browser actions, once (docs/BROWSER.md). The model sees the page's
//! URL, title, visible text and its interactive elements (each with a CSS
//! selector), and answers `{"actions": [...], "answer": "..."}` under a JSON
//! schema; the actions (at most [`MAX_STEPS`]: click, write, press, scroll,
//! wait) are performed as the `actions` option's are, then the model reads the
//! page again and answers the prompt (`output`). No loop, no retries beyond
//! the model client's own.

use super::actions::{Progress, perform};
use super::settle::{evaluate, settle};
use crate::llm::{Caller, ChatRequest, LlmClient};
use crate::media::MediaStore;
use chromiumoxide::page::Page;
use serde_json::{Value, json};
use std::time::Instant;

/// The most actions one prompt performs.
pub const MAX_STEPS: usize = 10;

/// Characters of page text the model sees.
const TEXT_CHARS: usize = 4000;

/// What a prompt did.
#[derive(Debug, Clone)]
pub struct PromptOutcome {
    /// The model's answer to the prompt after the actions.
    pub output: String,
    /// One line per action performed.
    pub log: String,
}

/// The page as the model sees it.
const SNAPSHOT: &str = r#"(() => {
  const pathOf = (el) => {
    if (el.id) return '#' + CSS.escape(el.id);
    const parts = [];
    while (el && el.nodeType === 1 && el !== document.documentElement) {
      let i = 1, s = el;
      while ((s = s.previousElementSibling)) if (s.tagName === el.tagName) i++;
      parts.unshift(el.tagName.toLowerCase() + ':nth-of-type(' + i + ')');
      el = el.parentElement;
    }
    return parts.join(' > ');
  };
  const items = [...document.querySelectorAll('a,button,input,textarea,select,[role=button],[onclick]')]
    .slice(0, 40)
    .map((el) => ({ selector: pathOf(el), tag: el.tagName.toLowerCase(), type: el.type || '',
      text: (el.innerText || el.value || el.placeholder || el.getAttribute('aria-label') || '').trim().slice(0, 80) }));
  return { url: location.href, title: document.title,
    text: (document.body ? document.body.innerText : '').slice(0, TEXT_CHARS), elements: items };
})()"#;

fn plan_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "actions": {
                "type": "array",
                "maxItems": MAX_STEPS,
                "items": {
                    "type": "object",
                    "properties": {
                        "type": {"type": "string", "enum": ["click", "write", "press", "scroll", "wait"]},
                        "selector": {"type": "string"},
                        "text": {"type": "string"},
                        "key": {"type": "string"},
                        "direction": {"type": "string", "enum": ["up", "down"]},
                        "milliseconds": {"type": "integer"}
                    },
                    "required": ["type"]
                }
            }
        },
        "required": ["actions"]
    })
}

async fn snapshot(page: &Page) -> Result<Value, String> {
    let script = SNAPSHOT.replace("TEXT_CHARS", &TEXT_CHARS.to_string());
    evaluate(page, &script).await.map(|(_, v)| v)
}

/// The model's steps as the `actions` option's objects (a `write` with a
/// selector clicks it first, as upstream's write needs a focused element).
fn to_actions(plan: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let steps = plan["actions"].as_array().cloned().unwrap_or_default();
    for step in steps.iter().take(MAX_STEPS) {
        let selector = step["selector"].as_str().filter(|s| !s.is_empty());
        match step["type"].as_str().unwrap_or("") {
            "click" => {
                if let Some(s) = selector {
                    out.push(json!({"type": "click", "selector": s}));
                }
            }
            "write" => {
                if let Some(s) = selector {
                    out.push(json!({"type": "click", "selector": s}));
                }
                out.push(json!({"type": "write", "text": step["text"].as_str().unwrap_or("")}));
            }
            "press" => out.push(json!({"type": "press", "key": step["key"].as_str().unwrap_or("Enter")})),
            "scroll" => {
                out.push(json!({"type": "scroll", "direction": step["direction"].as_str().unwrap_or("down")}))
            }
            "wait" => {
                let ms = step["milliseconds"].as_u64().unwrap_or(500).min(5000);
                out.push(json!({"type": "wait", "milliseconds": ms}));
            }
            _ => {}
        }
    }
    out
}

/// Runs `prompt` on `page` with `llm` by `deadline`.
pub async fn run_prompt(
    llm: &LlmClient,
    page: &Page,
    media: &MediaStore,
    prompt: &str,
    (request_id, deadline): (&str, Instant),
) -> Result<PromptOutcome, String> {
    let caller = Caller {
        format: None,
        plugin: "interact".into(),
        request_id: request_id.to_string(),
    };
    let before = snapshot(page).await?;
    let plan = ChatRequest {
        messages: vec![
            (
                "system".into(),
                "You operate a web browser. Given the page (URL, title, visible text, interactive \
                 elements with CSS selectors) and a task, answer JSON {\"actions\": [...]} with the \
                 steps to do the task: click {selector}, write {selector, text}, press {key}, \
                 scroll {direction}, wait {milliseconds}. Use only selectors listed. No steps if \
                 the task only asks about the page."
                    .into(),
            ),
            ("user".into(), format!("Page: {before}\n\nTask: {prompt}")),
        ],
        json_schema: Some(plan_schema()),
        max_tokens: Some(512),
        temperature: Some(0.0),
    };
    let planned = llm.complete_for(&plan, &caller, deadline).await?;
    let plan: Value = serde_json::from_str(&planned.text).map_err(|e| format!("the model's plan: {e}"))?;
    let actions = to_actions(&plan);
    let mut log = String::new();
    if !actions.is_empty() {
        perform(page, &actions, false, media, deadline, &Progress::default())
            .await
            .map_err(|e| e.to_string())?;
        settle(page).await;
        for action in &actions {
            log.push_str(&format!("{action}\n"));
        }
    }
    let after = snapshot(page).await?;
    let answer = ChatRequest {
        messages: vec![
            (
                "system".into(),
                "You answer a task about a web page from its content. Be brief.".into(),
            ),
            (
                "user".into(),
                format!(
                    "Page: {}\n\nTask: {prompt}",
                    json!({"url": after["url"], "title": after["title"], "text": after["text"]})
                ),
            ),
        ],
        json_schema: None,
        max_tokens: Some(256),
        temperature: Some(0.0),
    };
    let output = llm.complete_for(&answer, &caller, deadline).await?.text;
    Ok(PromptOutcome { output, log })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_clicks_its_field_first_and_unknown_steps_are_dropped() {
        let plan = json!({"actions": [
            {"type": "write", "selector": "#q", "text": "moss"},
            {"type": "press", "key": "Enter"},
            {"type": "fly"},
            {"type": "click"},
            {"type": "wait", "milliseconds": 999999}
        ]});
        assert_eq!(
            to_actions(&plan),
            vec![
                json!({"type": "click", "selector": "#q"}),
                json!({"type": "write", "text": "moss"}),
                json!({"type": "press", "key": "Enter"}),
                json!({"type": "wait", "milliseconds": 5000}),
            ]
        );
    }
}
