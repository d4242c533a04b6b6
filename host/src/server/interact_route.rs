//! `POST /v2/scrape/{scrapeId}/interact` and `DELETE` of it (upstream's
//! bodies, limits and errors; docs/BROWSER.md): the body validated, the call
//! run in the scrape's session ([`crate::fetch::browser::sessions`]), the
//! outcome in upstream's shape.

use super::auth::Caller;
use super::respond::json_body;
use super::state::AppState;
use crate::api::ApiError;
use crate::fetch::browser::sessions::{InteractError, Lifetimes, Work};
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use std::time::Duration;

/// A validated interact body.
#[derive(Debug, PartialEq)]
struct InteractBody {
    code: Option<String>,
    prompt: Option<String>,
    language: String,
    timeout: u64,
    ttl: u64,
    activity_ttl: u64,
}

fn text(body: &Map<String, Value>, key: &str, max: usize, errors: &mut Vec<String>) -> Option<String> {
    match body.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.is_empty() && s.chars().count() <= max => Some(s.clone()),
        Some(Value::String(_)) => {
            errors.push(format!("{key}: must be 1 to {max} characters"));
            None
        }
        Some(_) => {
            errors.push(format!("{key}: must be a string"));
            None
        }
    }
}

fn number(
    body: &Map<String, Value>,
    key: &str,
    (min, max, default): (u64, u64, u64),
    errors: &mut Vec<String>,
) -> u64 {
    match body.get(key) {
        None | Some(Value::Null) => default,
        Some(v) => match v.as_f64() {
            Some(n) if n >= min as f64 && n <= max as f64 => n as u64,
            _ => {
                errors.push(format!("{key}: must be a number from {min} to {max}"));
                default
            }
        },
    }
}

fn parse(body: &Value) -> Result<InteractBody, ApiError> {
    let Some(body) = body.as_object() else {
        return Err(ApiError::bad_request(
            "Invalid request parameters: the body must be a JSON object",
        ));
    };
    let mut errors = Vec::new();
    let code = text(body, "code", 100_000, &mut errors);
    let prompt = text(body, "prompt", 10_000, &mut errors);
    let language = match body.get("language") {
        None | Some(Value::Null) => "node".to_string(),
        Some(Value::String(l)) if ["node", "python", "bash"].contains(&l.as_str()) => l.clone(),
        Some(_) => {
            errors.push("language: must be one of \"python\", \"node\", \"bash\"".into());
            String::new()
        }
    };
    let timeout = number(body, "timeout", (1, 300, 30), &mut errors);
    let ttl = number(body, "ttl", (30, 3600, 600), &mut errors);
    let activity_ttl = number(body, "activityTtl", (10, 3600, 300), &mut errors);
    if errors.is_empty() && code.is_none() && prompt.is_none() {
        errors.push("Either 'code' or 'prompt' must be provided.".into());
    }
    if !errors.is_empty() {
        return Err(ApiError::bad_request(format!(
            "Invalid request parameters: {}",
            errors.join("; ")
        )));
    }
    Ok(InteractBody {
        code,
        prompt,
        language,
        timeout,
        ttl,
        activity_ttl,
    })
}

fn refusal(status: StatusCode, code: &'static str, message: String) -> Response {
    ApiError::new(status, code, message).into_response()
}

fn failed(e: InteractError) -> Response {
    match e {
        InteractError::NotFound => refusal(StatusCode::NOT_FOUND, "NOT_FOUND", "Job not found.".into()),
        InteractError::Forbidden => refusal(StatusCode::FORBIDDEN, "FORBIDDEN", "Forbidden.".into()),
        InteractError::Destroyed => refusal(
            StatusCode::GONE,
            "SESSION_DESTROYED",
            "Browser session has been destroyed.".into(),
        ),
        InteractError::Full(n) => refusal(
            StatusCode::TOO_MANY_REQUESTS,
            "TOO_MANY_SESSIONS",
            format!(
                "You have reached the maximum number of concurrent browser sessions ({n}). End one \
                 with DELETE /v2/scrape/{{scrapeId}}/interact or wait for one to expire."
            ),
        ),
        InteractError::Replay(why) => refusal(
            StatusCode::CONFLICT,
            "REPLAY_FAILED",
            format!("Failed to replay the scrape in a browser session: {why}"),
        ),
        InteractError::Unavailable(why) => refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            "BROWSER_UNAVAILABLE",
            format!("Browser feature is not available: {why}."),
        ),
        InteractError::Exec(why) => refusal(
            StatusCode::BAD_GATEWAY,
            "BROWSER_ERROR",
            format!("Failed to execute code in browser session: {why}"),
        ),
        InteractError::Agent(why) => refusal(
            StatusCode::BAD_GATEWAY,
            "BROWSER_AGENT_ERROR",
            format!("Browser agent failed to execute the task: {why}"),
        ),
        InteractError::NoModel => refusal(
            StatusCode::NOT_IMPLEMENTED,
            "LLM_NOT_CONFIGURED",
            "Interact prompts need a language model: set DISTILL_LLM_BASE_URL and DISTILL_LLM_MODEL \
             (docs/LLM.md), or send `code`."
                .into(),
        ),
    }
}

fn owner(caller: &Option<Extension<Caller>>) -> Option<String> {
    caller.as_ref().map(|Extension(c)| c.0.id.clone())
}

/// `POST /v2/scrape/{scrapeId}/interact`.
pub async fn interact(
    State(state): State<AppState>,
    Path(scrape_id): Path<String>,
    caller: Option<Extension<Caller>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match json_body(body).and_then(|b| parse(&b)) {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    let work = match (&body.prompt, &body.code) {
        (Some(prompt), _) => Work::Prompt(prompt),
        (None, Some(code)) if body.language == "node" => Work::Node(code),
        _ => {
            return ApiError::bad_request(format!(
                "language \"{}\" is not supported by this server: interact code runs as \"node\" \
                 (a Playwright `page`; docs/BROWSER.md)",
                body.language
            ))
            .into_response();
        }
    };
    let lifetimes = Lifetimes {
        ttl: Duration::from_secs(body.ttl),
        activity_ttl: Duration::from_secs(body.activity_ttl),
    };
    let timeout = Duration::from_secs(body.timeout);
    let key = owner(&caller);
    let ran = state
        .interact
        .call(&scrape_id, key.as_deref(), work, timeout, lifetimes)
        .await;
    let ran = match ran {
        Ok(r) => r,
        Err(e) => return failed(e),
    };
    let code = ran.code;
    let success = code.exit_code == 0 && !code.killed;
    let truncated =
        code.stdout.ends_with("[output truncated]") || code.stderr.ends_with("[output truncated]");
    let mut out = json!({
        "success": success,
        "sessionId": ran.session_id,
        "cdpUrl": null,
        "liveViewUrl": null,
        "interactiveLiveViewUrl": null,
        "stdout": code.stdout,
        "result": code.result,
        "stderr": code.stderr,
        "exitCode": code.exit_code,
        "killed": code.killed,
        "truncated": truncated,
    });
    if let Some(output) = ran.output {
        out["output"] = json!(output);
    }
    if !success {
        let error = if code.killed {
            format!("Execution timed out after {} s and was killed", body.timeout)
        } else if code.stderr.is_empty() {
            "Execution failed".to_string()
        } else {
            code.stderr.clone()
        };
        out["error"] = json!(error);
    }
    Json(out).into_response()
}

/// `DELETE /v2/scrape/{scrapeId}/interact`.
pub async fn stop(
    State(state): State<AppState>,
    Path(scrape_id): Path<String>,
    caller: Option<Extension<Caller>>,
) -> Response {
    let key = owner(&caller);
    if !state.interact.owned_by(&scrape_id, key.as_deref()) {
        return failed(InteractError::Forbidden);
    }
    match state.interact.end(&scrape_id).await {
        Some(lived) => Json(json!({
            "success": true,
            "sessionDurationMs": lived.as_millis() as u64,
            "creditsBilled": 0,
            "cleanupQueued": true,
        }))
        .into_response(),
        None => refusal(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            "Browser session not found.".into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_bounds_and_the_code_or_prompt_rule() {
        let b = parse(&json!({"code": "1+1", "origin": "python-sdk@4.55.0"})).unwrap();
        assert_eq!(
            b,
            InteractBody {
                code: Some("1+1".into()),
                prompt: None,
                language: "node".into(),
                timeout: 30,
                ttl: 600,
                activity_ttl: 300,
            }
        );
        let err = |v: Value| parse(&v).unwrap_err().message;
        assert!(err(json!({})).contains("Either 'code' or 'prompt' must be provided."));
        assert!(err(json!({"code": ""})).contains("code: must be 1 to 100000"));
        assert!(
            err(json!({"code": "x", "timeout": 301})).contains("timeout: must be a number from 1 to 300")
        );
        assert!(err(json!({"code": "x", "ttl": 29})).contains("ttl"));
        assert!(err(json!({"code": "x", "activityTtl": 5})).contains("activityTtl"));
        assert!(err(json!({"code": "x", "language": "ruby"})).contains("language"));
        assert!(err(json!([1])).contains("JSON object"));
    }
}
