//! Waiting for a page to settle, and running script in it.
//!
//! "Smart wait" after load and after actions: the DOM is sampled every
//! [`SAMPLE`]; the page is settled once it has loaded and its serialised
//! size has stayed the same for [`STABLE_SAMPLES`] samples (500 ms: a page
//! that renders from a short timer after load is caught), or after
//! [`MAX_SETTLE`]. A loaded document without scripts (no `<script>`, no
//! `onload` attribute, no meta refresh) cannot change any more: it is settled
//! at once. `waitFor` is then waited as asked.

use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use chromiumoxide::page::Page;
use serde_json::{Value, json};
use std::time::Duration;

/// Between two DOM samples.
pub const SAMPLE: Duration = Duration::from_millis(100);
/// Unchanged samples that make a page settled.
pub const STABLE_SAMPLES: u32 = 5;
/// The longest smart wait.
pub const MAX_SETTLE: Duration = Duration::from_millis(2000);

/// A script's outcome: its value's `type` (JavaScript's `typeof`, `null` for
/// null) and the value, or the exception's text.
pub async fn evaluate(page: &Page, expression: &str) -> Result<(String, Value), String> {
    let params = EvaluateParams {
        expression: expression.to_string(),
        return_by_value: Some(true),
        await_promise: Some(true),
        user_gesture: Some(true),
        ..EvaluateParams::new(String::new())
    };
    let out = page
        .execute(params)
        .await
        .map_err(|e| e.to_string())?
        .result
        .clone();
    if let Some(ex) = out.exception_details {
        let detail = ex.exception.and_then(|o| o.description).unwrap_or(ex.text);
        return Err(detail);
    }
    let kind = serde_json::to_value(&out.result.r#type)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "undefined".into());
    let value = out.result.value.unwrap_or(Value::Null);
    let kind = if kind == "object" && value.is_null() {
        "null".to_string()
    } else {
        kind
    };
    Ok((kind, value))
}

/// Waits until the DOM stops changing (bounded by [`MAX_SETTLE`]).
pub async fn settle(page: &Page) {
    let start = tokio::time::Instant::now();
    let mut last = None;
    let mut same = 0;
    while start.elapsed() < MAX_SETTLE {
        let probe = evaluate(
            page,
            "[document.readyState, document.documentElement ? document.documentElement.outerHTML.length : 0, \
             document.scripts.length === 0 && !document.querySelector('[onload], meta[http-equiv=refresh i]')]",
        )
        .await;
        match probe {
            Ok((_, v)) => {
                let complete = v.get(0) == Some(&json!("complete"));
                if complete && v.get(2) == Some(&json!(true)) {
                    return;
                }
                if complete && last.as_ref() == Some(&v) {
                    same += 1;
                    if same >= STABLE_SAMPLES {
                        return;
                    }
                } else {
                    same = 0;
                }
                last = Some(v);
            }
            // A navigation replaced the context: sample again.
            Err(_) => same = 0,
        }
        tokio::time::sleep(SAMPLE).await;
    }
}

/// Waits until `selector` matches an element (polling every [`SAMPLE`]);
/// the caller bounds it with the request's deadline.
pub async fn wait_for_selector(page: &Page, selector: &str) -> Result<(), String> {
    let probe = format!("document.querySelector({}) !== null", json!(selector));
    loop {
        match evaluate(page, &probe).await {
            Ok((_, Value::Bool(true))) => return Ok(()),
            Ok(_) => {}
            Err(e) if e.contains("SyntaxError") => return Err(format!("invalid selector: {e}")),
            Err(_) => {}
        }
        tokio::time::sleep(SAMPLE).await;
    }
}
