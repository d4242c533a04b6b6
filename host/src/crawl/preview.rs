//! Crawl options from a natural-language prompt (`/v2/crawl/params-preview`
//! and a crawl's `prompt`), through the operator's model (`llm.rs`). Only
//! upstream's option names with the right types survive the model's answer.

use crate::llm::{ChatRequest, LlmClient, LlmConfig};
use serde_json::{Map, Value, json};
use std::time::{Duration, Instant};

/// Why no options came.
#[derive(Debug, PartialEq, Eq)]
pub enum PreviewError {
    /// No model is configured.
    NoModel,
    /// The model failed or answered something unusable.
    Failed(String),
}

/// Option names the model may set, with their JSON types.
const OPTIONS: &[(&str, &str)] = &[
    ("includePaths", "array"),
    ("excludePaths", "array"),
    ("maxDiscoveryDepth", "integer"),
    ("crawlEntireDomain", "boolean"),
    ("allowExternalLinks", "boolean"),
    ("allowSubdomains", "boolean"),
    ("sitemap", "string"),
    ("ignoreQueryParameters", "boolean"),
    ("deduplicateSimilarURLs", "boolean"),
    ("delay", "number"),
    ("limit", "integer"),
];

fn schema() -> Value {
    let props: Map<String, Value> = OPTIONS
        .iter()
        .map(|(k, t)| {
            let s = match *t {
                "array" => json!({"type": "array", "items": {"type": "string"}}),
                "string" => json!({"type": "string", "enum": ["skip", "include", "only"]}),
                other => json!({ "type": other }),
            };
            (k.to_string(), s)
        })
        .collect();
    json!({ "type": "object", "properties": props, "additionalProperties": false })
}

/// Keeps the known options with valid values.
pub fn sanitize(answer: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    let Some(obj) = answer.as_object() else { return out };
    for (k, t) in OPTIONS {
        let Some(v) = obj.get(*k) else { continue };
        let ok = match *t {
            "array" => v.as_array().is_some_and(|a| {
                a.iter()
                    .all(|s| s.as_str().is_some_and(|s| regex::Regex::new(s).is_ok()))
            }),
            "integer" => v.as_u64().is_some_and(|n| n >= 1 || *k == "maxDiscoveryDepth"),
            "number" => v.as_f64().is_some_and(|d| (0.0..=60.0).contains(&d)),
            "boolean" => v.is_boolean(),
            _ => v
                .as_str()
                .is_some_and(|s| ["skip", "include", "only"].contains(&s)),
        };
        if ok {
            out.insert(k.to_string(), v.clone());
        }
    }
    out
}

/// Asks the model for crawl options for `url` given `prompt`.
pub async fn derive(
    llm: Option<&LlmConfig>,
    url: &str,
    prompt: &str,
) -> Result<Map<String, Value>, PreviewError> {
    let config = llm.ok_or(PreviewError::NoModel)?;
    let client = LlmClient::new(config.clone()).map_err(|e| PreviewError::Failed(e.to_string()))?;
    let system = "You turn a user's description of a web crawl into crawler options. Answer with one JSON \
        object using only these keys: includePaths and excludePaths (arrays of regular expressions matched \
        against the URL path, e.g. \"^/blog/.*\"), maxDiscoveryDepth (integer link hops), crawlEntireDomain, \
        allowExternalLinks, allowSubdomains, ignoreQueryParameters, deduplicateSimilarURLs (booleans), sitemap \
        (\"skip\", \"include\" or \"only\"), delay (seconds), limit (integer pages). Leave out every key the \
        description does not call for.";
    let request = ChatRequest {
        messages: vec![
            ("system".into(), system.into()),
            ("user".into(), format!("Site: {url}\nCrawl description: {prompt}")),
        ],
        json_schema: Some(schema()),
        max_tokens: Some(512),
        temperature: Some(0.0),
    };
    let text = client
        .complete(&request, Instant::now() + Duration::from_secs(60))
        .await
        .map_err(PreviewError::Failed)?;
    let start = text
        .find('{')
        .ok_or_else(|| PreviewError::Failed("no JSON object in the answer".into()))?;
    let end = text.rfind('}').map(|e| e + 1).unwrap_or(text.len());
    let answer: Value =
        serde_json::from_str(&text[start..end]).map_err(|e| PreviewError::Failed(e.to_string()))?;
    Ok(sanitize(&answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_known_valid_options() {
        let got = sanitize(&json!({
            "includePaths": ["^/blog/"], "excludePaths": ["("], "limit": 0, "maxDiscoveryDepth": 0,
            "sitemap": "only", "delay": 99, "allowSubdomains": true, "bogus": 1
        }));
        assert_eq!(
            Value::Object(got),
            json!({"includePaths": ["^/blog/"], "maxDiscoveryDepth": 0, "allowSubdomains": true, "sitemap": "only"})
        );
    }
}
