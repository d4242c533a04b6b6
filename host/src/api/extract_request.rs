//! `POST /v2/extract` bodies (docs/API.md, "Extract"): the URLs (validated as
//! batch scrape URLs are; `ignoreInvalidURLs` lists the bad ones instead of
//! refusing; at most [`MAX_EXTRACT_URLS`]; a whole-site `/*` URL refused), a
//! `prompt` and/or a JSON Schema `schema`, `systemPrompt`, `showSources`, and
//! `scrapeOptions` checked by the scrape validation. What Distill cannot do
//! (`enableWebSearch: true`, the FIRE-1 `agent`, webhooks, zero data
//! retention, which would send the pages to the model) is refused with a
//! 400 saying so; unknown keys are refused as on every route.

use super::crawl_request::{page_request, parse_url};
use super::error::ApiError;
use super::scrape_request::{Catalog, UNKNOWN_KEY_MESSAGE, issues_to_error};
use super::validate::Checker;
use serde_json::{Map, Value, json};
use url::Url;

/// Most URLs one extract reads: the model reads every page in one call,
/// so more pages only means less of each (they share the context).
pub const MAX_EXTRACT_URLS: usize = 25;

/// Longest `prompt` / `systemPrompt`, in characters.
pub const MAX_PROMPT_CHARS: usize = 10_000;

/// A validated extract request.
#[derive(Debug, Clone)]
pub struct ExtractRequest {
    pub urls: Vec<Url>,
    /// URLs left out under `ignoreInvalidURLs` (answered as `invalidURLs`).
    pub invalid_urls: Vec<String>,
    pub prompt: Option<String>,
    /// The JSON Schema the answer must follow (compiled once here).
    pub schema: Option<Value>,
    pub system_prompt: Option<String>,
    pub show_sources: bool,
    /// Scrape options for each page; `formats` is always `["markdown"]`
    /// (what the model reads).
    pub scrape_options: Map<String, Value>,
}

impl ExtractRequest {
    pub fn from_json(body: &Value, catalog: &dyn Catalog) -> Result<ExtractRequest, ApiError> {
        let mut c = Checker::default();
        let Some(mut f) = c.object(body, Vec::new()) else {
            return Err(issues_to_error(c));
        };
        let urls_path = f.at("urls");
        let raw_urls = f.string_array(&mut c, "urls");
        if f.raw("urls").is_none() {
            c.required(&urls_path, "array");
        } else if raw_urls.len() > MAX_EXTRACT_URLS {
            c.issue(
                "too_big",
                &urls_path,
                format!(
                    "At most {MAX_EXTRACT_URLS} URLs per extract (the model reads every page in one call); \
                     split the work into several extracts"
                ),
                json!({"maximum": MAX_EXTRACT_URLS, "type": "array", "inclusive": true, "exact": false}),
            );
        }
        let prompt = f.string_len(&mut c, "prompt", 1, MAX_PROMPT_CHARS);
        let schema_path = f.at("schema");
        let schema = match f.raw("schema") {
            Some(Value::Object(s)) => match jsonschema::validator_for(&Value::Object(s.clone())) {
                Ok(_) => Some(Value::Object(s.clone())),
                Err(e) => {
                    c.custom(&schema_path, format!("schema is not a valid JSON Schema: {e}"));
                    None
                }
            },
            Some(other) => {
                c.invalid_type(&schema_path, "object", other);
                None
            }
            None => None,
        };
        let system_prompt = f.string_len(&mut c, "systemPrompt", 1, MAX_PROMPT_CHARS);
        let ignore_invalid = f.bool(&mut c, "ignoreInvalidURLs", true);
        let show_sources = f.bool(&mut c, "showSources", false);
        // Accepted for the SDKs' sake: only the listed pages are read, so
        // there are no links to follow (docs/API.md).
        f.bool(&mut c, "allowExternalLinks", false);
        if f.bool(&mut c, "enableWebSearch", false) {
            c.custom(
                &f.at("enableWebSearch"),
                "enableWebSearch is not supported: this server has no web search engine; list the pages to read \
                 in urls",
            );
        }
        for (key, why) in [
            (
                "agent",
                "the FIRE-1 agent is a hosted Firecrawl service; Distill does not run one",
            ),
            (
                "webhook",
                "extract jobs send no webhooks on this server; poll GET /v2/extract/{id}",
            ),
        ] {
            if f.raw(key).is_some() {
                c.custom(&f.at(key), format!("{key} is not supported: {why}"));
            }
        }
        let options_path = f.at("scrapeOptions");
        let mut scrape_options = f.any_object(&mut c, "scrapeOptions").cloned().unwrap_or_default();
        if scrape_options.contains_key("url") {
            c.issue(
                "unrecognized_keys",
                &options_path,
                UNKNOWN_KEY_MESSAGE,
                json!({ "keys": ["url"] }),
            );
        }
        if let Some(tp) = f.any_object(&mut c, "threatProtection") {
            scrape_options.insert("threatProtection".into(), Value::Object(tp.clone()));
        }
        f.string(&mut c, "origin");
        f.string(&mut c, "integration");
        f.finish(&mut c);
        if prompt.is_none() && schema.is_none() && c.is_ok() {
            c.custom(&f.at("prompt"), "Either prompt or schema is required");
        }
        if !c.is_ok() {
            return Err(issues_to_error(c));
        }
        let mut urls = Vec::new();
        let mut invalid_urls = Vec::new();
        for (i, raw) in raw_urls.iter().enumerate() {
            let mut at = urls_path.clone();
            at.push(json!(i));
            if raw.ends_with("/*") {
                c.custom(
                    &at,
                    "URLs ending in /* (a whole site) are not supported; list the pages, or find them first \
                     with POST /v2/map",
                );
                continue;
            }
            match parse_url(raw, catalog) {
                Ok(u) => urls.push(u),
                Err(_) if ignore_invalid => invalid_urls.push(raw.clone()),
                Err(_) => c.custom(&at, "Invalid URL"),
            }
        }
        if !c.is_ok() {
            return Err(issues_to_error(c));
        }
        if urls.is_empty() {
            return Err(
                ApiError::bad_request("No valid URLs to extract from").with_details(json!([{
                    "code": "custom", "path": ["urls"], "message": "At least one valid URL is required"
                }])),
            );
        }
        // The model reads markdown, whatever formats were asked for.
        scrape_options.insert("formats".into(), json!(["markdown"]));
        let probe =
            page_request(&scrape_options, urls[0].as_str(), catalog).map_err(|e| nest(e, "scrapeOptions"))?;
        if probe.options.zero_data_retention {
            return Err(ApiError::bad_request(
                "zeroDataRetention is not supported for extract: the pages would be sent to the language model",
            ));
        }
        Ok(ExtractRequest {
            urls,
            invalid_urls,
            prompt,
            schema,
            system_prompt,
            show_sources,
            scrape_options,
        })
    }
}

/// The scrape validation's issues, their paths under `prefix`.
fn nest(mut e: ApiError, prefix: &str) -> ApiError {
    if let Some(Value::Array(issues)) = &mut e.details {
        for issue in issues {
            if let Some(Value::Array(path)) = issue.get_mut("path") {
                path.insert(0, Value::String(prefix.to_string()));
            }
        }
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(body: Value) -> Result<ExtractRequest, ApiError> {
        ExtractRequest::from_json(&body, &|name: &str| name == "markdown")
    }

    fn message(e: &ApiError) -> String {
        format!("{} {}", e.message, e.details.clone().unwrap_or_default())
    }

    #[test]
    fn a_prompt_or_a_schema_is_required() {
        let e = parse(json!({"urls": ["https://a.example/x"]})).unwrap_err();
        assert!(message(&e).contains("Either prompt or schema"), "{}", message(&e));
        let r = parse(json!({"urls": ["https://a.example/x"], "schema": {"type": "object"}})).unwrap();
        assert_eq!(r.urls.len(), 1);
        assert_eq!(r.scrape_options["formats"], json!(["markdown"]));
        assert!(parse(json!({"urls": ["https://a.example/x"], "prompt": "p"})).is_ok());
    }

    #[test]
    fn refusals_say_why() {
        let base = |extra: Value| {
            let mut b = json!({"urls": ["https://a.example/x"], "prompt": "p"});
            b.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            parse(b).map(|_| ()).map_err(|e| message(&e))
        };
        assert!(
            base(json!({"enableWebSearch": true}))
                .unwrap_err()
                .contains("web search")
        );
        assert!(base(json!({"enableWebSearch": false})).is_ok());
        assert!(
            base(json!({"agent": {"model": "FIRE-1"}}))
                .unwrap_err()
                .contains("agent")
        );
        assert!(base(json!({"schema": [1]})).unwrap_err().contains("object"));
        assert!(
            base(json!({"schema": {"type": 12}}))
                .unwrap_err()
                .contains("not a valid JSON Schema")
        );
        assert!(base(json!({"bogus": 1})).unwrap_err().contains("bogus"));
        assert!(
            base(json!({"urls": ["https://a.example/*"]}))
                .unwrap_err()
                .contains("/*")
        );
        assert!(
            base(json!({"scrapeOptions": {"zeroDataRetention": true}}))
                .unwrap_err()
                .contains("zeroDataRetention")
        );
        assert!(
            base(json!({"scrapeOptions": {"timeout": "x"}}))
                .unwrap_err()
                .contains("scrapeOptions")
        );
        let many: Vec<String> = (0..=MAX_EXTRACT_URLS)
            .map(|i| format!("https://a.example/{i}"))
            .collect();
        assert!(
            base(json!({"urls": many}))
                .unwrap_err()
                .contains("At most 25 URLs")
        );
    }

    #[test]
    fn invalid_urls_are_listed_or_refused() {
        let r = parse(json!({"urls": ["https://a.example/x", "not a url"], "prompt": "p"})).unwrap();
        assert_eq!(r.invalid_urls, vec!["not a url".to_string()]);
        let e = parse(
            json!({"urls": ["https://a.example/x", "not a url"], "prompt": "p", "ignoreInvalidURLs": false}),
        )
        .unwrap_err();
        assert!(message(&e).contains("Invalid URL"));
        let e = parse(json!({"urls": ["not a url"], "prompt": "p"})).unwrap_err();
        assert!(message(&e).contains("No valid URLs"));
    }
}
