//! Performing a request's `actions` (already validated by `api::actions`) on
//! a loaded page, in order, collecting upstream's `actions` response object:
//! `screenshots` and `pdfs` (media URLs), `scrapes` ({url, html}),
//! `javascriptReturns` ({type, value}). The first failing action stops the
//! scrape with [`FetchError::Action`]: its position, type and why (element
//! not found, script threw, timed out, other).

use super::capture::{ShotOptions, pdf, screenshot};
use super::settle::{evaluate, settle, wait_for_selector};
use crate::fetch::{ActionFailure, FetchError};
use crate::media::MediaStore;
use chromiumoxide::page::Page;
use serde_json::{Map, Value, json};
use std::time::{Duration, Instant};

/// What the actions produced, in upstream's shape.
#[derive(Debug, Default)]
pub struct ActionResults {
    pub screenshots: Vec<String>,
    pub scrapes: Vec<Value>,
    pub javascript_returns: Vec<Value>,
    pub pdfs: Vec<String>,
}

impl ActionResults {
    /// The response's `actions` object.
    pub fn to_json(&self) -> Value {
        json!({
            "screenshots": self.screenshots,
            "scrapes": self.scrapes,
            "javascriptReturns": self.javascript_returns,
            "pdfs": self.pdfs,
        })
    }
}

/// The action running now (index, type), so that a request that times out
/// while one runs can name it.
#[derive(Debug, Default)]
pub struct Progress(std::sync::Mutex<Option<(usize, String)>>);

impl Progress {
    /// The timeout error naming the running action, if one was running.
    pub fn timed_out(&self) -> Option<FetchError> {
        let running = self.0.lock().unwrap().clone()?;
        Some(FetchError::Action {
            index: running.0,
            kind: running.1,
            failure: ActionFailure::TimedOut,
        })
    }
}

/// Performs `actions` on `page`, each bounded by `deadline`; the first
/// failure stops them with [`FetchError::Action`] naming it and why.
pub async fn perform(
    page: &Page,
    actions: &[Value],
    mobile: bool,
    media: &MediaStore,
    deadline: Instant,
    progress: &Progress,
) -> Result<ActionResults, FetchError> {
    let mut out = ActionResults::default();
    let empty = Map::new();
    for (index, action) in actions.iter().enumerate() {
        let fields = action.as_object().unwrap_or(&empty);
        let kind = fields.get("type").and_then(Value::as_str).unwrap_or("");
        *progress.0.lock().unwrap() = Some((index, kind.to_string()));
        let done = tokio::time::timeout_at(deadline.into(), one(page, kind, fields, mobile, media, &mut out))
            .await
            .unwrap_or(Err(ActionFailure::TimedOut));
        done.map_err(|failure| FetchError::Action {
            index,
            kind: kind.to_string(),
            failure,
        })?;
    }
    *progress.0.lock().unwrap() = None;
    Ok(out)
}

fn text<'a>(fields: &'a Map<String, Value>, key: &str) -> &'a str {
    fields.get(key).and_then(Value::as_str).unwrap_or("")
}

async fn one(
    page: &Page,
    kind: &str,
    fields: &Map<String, Value>,
    mobile: bool,
    media: &MediaStore,
    out: &mut ActionResults,
) -> Result<(), ActionFailure> {
    let failed = |e: String| ActionFailure::Failed(e);
    let cdp = |e: chromiumoxide::error::CdpError| ActionFailure::Failed(e.to_string());
    let not_found = |selector: &str| ActionFailure::NotFound {
        selector: selector.to_string(),
    };
    match kind {
        "wait" => match fields.get("milliseconds").and_then(Value::as_u64) {
            Some(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
            None => wait_for_selector(page, text(fields, "selector"))
                .await
                .map_err(failed)?,
        },
        "click" => {
            let selector = text(fields, "selector");
            let all = fields.get("all").and_then(Value::as_bool).unwrap_or(false);
            let found = page.find_elements(selector).await.unwrap_or_default();
            if found.is_empty() && !all {
                return Err(not_found(selector));
            }
            let take = if all { found.len() } else { 1 };
            for element in found.iter().take(take) {
                element.click().await.map_err(cdp)?;
            }
            settle(page).await;
        }
        "write" => {
            let focused = page
                .find_element(":focus")
                .await
                .map_err(|_| failed("no element has focus: click an input first".into()))?;
            focused.type_str(text(fields, "text")).await.map_err(cdp)?;
        }
        "press" => {
            let target = match page.find_element(":focus").await {
                Ok(el) => el,
                Err(_) => page.find_element("body").await.map_err(cdp)?,
            };
            target.press_key(text(fields, "key")).await.map_err(cdp)?;
            settle(page).await;
        }
        "scroll" => {
            let sign = if text(fields, "direction") == "up" {
                "-"
            } else {
                ""
            };
            let script = match fields.get("selector").and_then(Value::as_str) {
                Some(sel) => format!(
                    "(() => {{ const el = document.querySelector({}); if (!el) return false; \
                     el.scrollBy(0, {sign}el.clientHeight); return true; }})()",
                    json!(sel)
                ),
                None => format!("(() => {{ window.scrollBy(0, {sign}window.innerHeight); return true; }})()"),
            };
            match evaluate(page, &script).await.map_err(failed)? {
                (_, Value::Bool(true)) => settle(page).await,
                _ => return Err(not_found(text(fields, "selector"))),
            }
        }
        "scrape" => {
            let url = page.url().await.map_err(cdp)?.unwrap_or_default();
            let html = page.content().await.map_err(cdp)?;
            out.scrapes.push(json!({"url": url, "html": html}));
        }
        "executeJavascript" => {
            let (kind, value) = run_script(page, text(fields, "script"))
                .await
                .map_err(ActionFailure::ScriptThrew)?;
            out.javascript_returns.push(json!({"type": kind, "value": value}));
        }
        "screenshot" => {
            let url = screenshot(page, &ShotOptions::from_json(fields), mobile, media)
                .await
                .map_err(failed)?;
            out.screenshots.push(url);
        }
        "pdf" => out.pdfs.push(pdf(page, fields, media).await.map_err(failed)?),
        other => return Err(failed(format!("unknown action type {other:?}"))),
    }
    Ok(())
}

/// Runs a script as an expression; a script with top-level `return` runs as
/// an async function body.
async fn run_script(page: &Page, script: &str) -> Result<(String, Value), String> {
    match evaluate(page, script).await {
        Err(e) if e.contains("Illegal return") || e.contains("await is only valid") => {
            evaluate(page, &format!("(async () => {{\n{script}\n}})()")).await
        }
        other => other,
    }
}
