//! The `/v2/scrape` request body and the scrape options it shares with
//! `/v2/parse`, validated field by field against the spec (defaults, bounds,
//! allowed values; unknown keys rejected except `origin` and `integration`,
//! which the official SDKs send).

use super::actions::{MAX_TOTAL_WAIT_MS, parse_actions};
use super::error::ApiError;
use super::formats::{FormatRequest, check_prompt_injection, formats_schema, parse_formats};
use super::validate::{Checker, Fields, tagged_variant};
use serde_json::{Map, Value, json};
use url::Url;

/// Message upstream uses for unknown top-level keys.
pub const UNKNOWN_KEY_MESSAGE: &str =
    "Unrecognized key in body -- please review the v2 API documentation for request body changes";

/// Default `maxAge`: 2 days.
pub const DEFAULT_MAX_AGE_MS: i64 = 172_800_000;
/// `maxAge` under lockdown: 2 years.
pub const LOCKDOWN_MAX_AGE_MS: i64 = 2 * 365 * 24 * 3600 * 1000;

/// The options of a scrape (also used by parse).
#[derive(Debug, Clone)]
pub struct ScrapeOptions {
    pub formats: Vec<FormatRequest>,
    pub only_main_content: bool,
    pub include_tags: Vec<String>,
    pub exclude_tags: Vec<String>,
    /// Extra request headers, in the order given.
    pub headers: Vec<(String, String)>,
    pub wait_for_ms: u64,
    pub timeout_ms: u64,
    pub mobile: bool,
    pub skip_tls_verification: bool,
    pub remove_base64_images: bool,
    pub block_ads: bool,
    pub proxy: String,
    /// Accepted for SDK compatibility (upstream's `fastMode`); the HTTP engine is always fast.
    pub fast_mode: bool,
    pub location: Option<Location>,
    pub actions: Vec<Value>,
    pub parsers: Vec<ParserSpec>,
    pub max_age_ms: i64,
    pub min_age_ms: Option<i64>,
    pub store_in_cache: bool,
    pub lockdown: bool,
    pub only_clean_content: bool,
    pub redact_pii: Option<Value>,
    pub profile: Option<Value>,
    pub audit_metadata: Option<Value>,
    pub threat_protection: Option<Value>,
    pub zero_data_retention: bool,
    pub origin: Option<String>,
    pub integration: Option<String>,
}

/// `location`: country and preferred languages.
#[derive(Debug, Clone, PartialEq)]
pub struct Location {
    pub country: String,
    pub languages: Vec<String>,
}

/// One entry of `parsers`.
#[derive(Debug, Clone, PartialEq)]
pub struct ParserSpec {
    pub kind: String,
    pub max_pages: Option<u32>,
    pub mode: String,
    /// Options of a converter's own parser type (any type but upstream's
    /// "pdf"), checked against the converter's declaration when it runs.
    pub extra: Map<String, Value>,
}

/// What the loaded plugins serve, as request validation needs to know it.
pub trait Catalog {
    /// Whether a format name outside the spec is served by a plugin.
    fn has_format(&self, name: &str) -> bool;
    /// Whether a `parsers` type other than "pdf" configures a loaded converter.
    fn has_parser(&self, name: &str) -> bool;
    /// The formats loaded plugins add to the spec's (for the API's schema).
    fn plugin_formats(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A closure naming plugin formats is a catalog without extra parsers.
impl<F: Fn(&str) -> bool> Catalog for F {
    fn has_format(&self, name: &str) -> bool {
        self(name)
    }
    fn has_parser(&self, _name: &str) -> bool {
        false
    }
}

/// A validated `/v2/scrape` body.
#[derive(Debug, Clone)]
pub struct ScrapeRequest {
    /// The URL as the client sent it (reported as `metadata.sourceURL`).
    pub url_as_sent: String,
    /// The URL to fetch (scheme added when missing).
    pub url: Url,
    pub options: ScrapeOptions,
}

impl ScrapeOptions {
    /// The format request named `name`, if requested.
    pub fn format(&self, name: &str) -> Option<&FormatRequest> {
        self.formats.iter().find(|f| f.name == name)
    }

    pub fn wants(&self, name: &str) -> bool {
        self.format(name).is_some()
    }
}

/// Turns collected issues into the 400 response upstream gives: `error` is the
/// first custom (refinement) message, else "Bad Request"; `details` lists all.
pub fn issues_to_error(c: Checker) -> ApiError {
    let message = c
        .issues
        .iter()
        .find(|i| i["code"] == "custom")
        .and_then(|i| i["message"].as_str())
        .unwrap_or("Bad Request")
        .to_string();
    ApiError::bad_request(message).with_details(Value::Array(c.issues))
}

impl ScrapeRequest {
    /// Validates a JSON body. `catalog` says which format names outside the
    /// spec and which extra `parsers` types loaded plugins serve.
    pub fn from_json(body: &Value, catalog: &dyn Catalog) -> Result<Self, ApiError> {
        let mut c = Checker::default();
        let Some((url_as_sent, options)) = walk(&mut c, body, catalog) else {
            return Err(issues_to_error(c));
        };
        let url = url_as_sent
            .as_deref()
            .and_then(|u| normalize_url(&mut c, u, vec![json!("url")]));
        match (c.is_ok(), url_as_sent, url) {
            (true, Some(url_as_sent), Some(url)) => Ok(ScrapeRequest {
                url_as_sent,
                url,
                options,
            }),
            _ => Err(issues_to_error(c)),
        }
    }

    /// The JSON Schema of a `/v2/scrape` body, recorded by walking the same
    /// validators `from_json` runs.
    pub fn schema(catalog: &dyn Catalog) -> Value {
        let mut c = Checker::describing();
        walk(&mut c, &Value::Null, catalog);
        c.describe(&vec![json!("url")], json!({"format": "uri"}));
        c.into_schema().unwrap_or(Value::Null)
    }
}

/// The schema of the scrape options alone (the `/v2/parse` options part, the
/// `scrapeOptions` of other requests).
pub fn options_schema(catalog: &dyn Catalog) -> Value {
    let mut c = Checker::describing();
    if let Some(mut fields) = c.object(&Value::Null, Vec::new()) {
        parse_options(&mut c, &mut fields, catalog);
        fields.finish(&mut c);
    }
    c.into_schema().unwrap_or(Value::Null)
}

/// Reads a scrape body: the URL as sent and the options.
fn walk(c: &mut Checker, body: &Value, catalog: &dyn Catalog) -> Option<(Option<String>, ScrapeOptions)> {
    let mut fields = c.object(body, Vec::new())?;
    let url_as_sent = fields.required_string(c, "url");
    let options = parse_options(c, &mut fields, catalog);
    fields.finish_with_message(c, Some(UNKNOWN_KEY_MESSAGE));
    Some((url_as_sent, options))
}

/// Adds `http://` to a URL without a scheme; refuses schemes other than http(s).
fn normalize_url(c: &mut Checker, raw: &str, path: Vec<Value>) -> Option<Url> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        c.custom(&path, "URL must not be empty");
        return None;
    }
    let has_scheme = trimmed.split_once(':').is_some_and(|(scheme, rest)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "+-.".contains(ch))
            && scheme.chars().next().is_some_and(|ch| ch.is_ascii_alphabetic())
            && (rest.starts_with("//") || !rest.chars().next().is_some_and(|ch| ch.is_ascii_digit()))
    });
    let candidate = if has_scheme {
        trimmed.to_string()
    } else {
        format!("http://{trimmed}")
    };
    match Url::parse(&candidate) {
        Ok(url) if url.scheme() == "http" || url.scheme() == "https" => {
            if url.host_str().is_none_or(str::is_empty) {
                c.custom(&path, "Invalid URL");
                return None;
            }
            Some(url)
        }
        Ok(_) => {
            c.custom(&path, "URL uses unsupported protocol");
            None
        }
        Err(_) => {
            c.custom(&path, "Invalid URL");
            None
        }
    }
}

/// Reads every scrape option from `fields` (shared by scrape and parse).
pub fn parse_options(c: &mut Checker, fields: &mut Fields, catalog: &dyn Catalog) -> ScrapeOptions {
    if c.is_describing() {
        fields.describe(c, "formats", || formats_schema(&catalog.plugin_formats()));
    }
    let formats = parse_formats(c, fields, &|name| catalog.has_format(name));
    let explicit_timeout = fields.int(c, "timeout", Some(1000), Some(300_000));
    let timeout_ms = explicit_timeout.unwrap_or(60_000);
    let wait_for_ms = fields.int(c, "waitFor", Some(0), Some(60_000)).unwrap_or(0);
    fields.describe(c, "timeout", || json!({"default": 60_000}));
    fields.describe(c, "waitFor", || json!({"default": 0}));
    // As upstream: checked only against a timeout the client gave.
    if explicit_timeout.is_some() && wait_for_ms > timeout_ms / 2 {
        c.custom(&fields.at("waitFor"), "waitFor must not exceed half of timeout");
    }
    let (actions, action_wait) = parse_actions(c, fields);
    if wait_for_ms + action_wait > MAX_TOTAL_WAIT_MS {
        c.custom(
            &fields.at("actions"),
            "The total wait time (waitFor plus wait actions) must not exceed 60 seconds",
        );
    }
    let headers = parse_headers(c, fields);
    let location = parse_location(c, fields);
    let parsers = parse_parsers(c, fields, catalog);
    let lockdown = fields.bool(c, "lockdown", false);
    let default_max_age = if lockdown {
        LOCKDOWN_MAX_AGE_MS
    } else {
        DEFAULT_MAX_AGE_MS
    };
    let audit_metadata = fields.object(c, "auditMetadata").map(|mut am| {
        am.string_len(c, "username", 0, 1024);
        if am.raw("username").is_none() {
            c.required(&am.at("username"), "string");
        }
        am.finish(c);
        fields.raw("auditMetadata").cloned().unwrap_or(Value::Null)
    });
    let profile = fields.object(c, "profile").map(|mut p| {
        if p.raw("name").is_none() {
            c.required(&p.at("name"), "string");
        }
        p.string_len(c, "name", 1, 128);
        p.bool(c, "saveChanges", true);
        p.finish(c);
        fields.raw("profile").cloned().unwrap_or(Value::Null)
    });
    fields.describe(
        c,
        "redactPII",
        || json!({"oneOf": [{"type": "boolean"}, {"type": "object"}], "default": false}),
    );
    fields.describe(c, "maxAge", || json!({"default": default_max_age}));
    let redact_pii = match fields.raw("redactPII") {
        None | Some(Value::Bool(false)) => None,
        Some(v @ (Value::Bool(true) | Value::Object(_))) => {
            if let Err(why) = distill_redact::RedactOptions::from_json(v) {
                c.custom(&fields.at("redactPII"), why);
            }
            Some(v.clone())
        }
        Some(other) => {
            c.invalid_type(&fields.at("redactPII"), "boolean or object", other);
            None
        }
    };
    check_prompt_injection(c, fields);
    let only_clean_content = fields.bool(c, "onlyCleanContent", false);
    let zero_data_retention = fields.bool(c, "zeroDataRetention", false);
    // The spec: "Not supported for zero-data-retention requests" — the
    // markdown would have to leave the server for the model pass.
    if only_clean_content && zero_data_retention {
        c.custom(
            &fields.at("onlyCleanContent"),
            "onlyCleanContent is not supported for zero data retention requests",
        );
    }
    ScrapeOptions {
        formats,
        only_main_content: fields.bool(c, "onlyMainContent", true),
        include_tags: fields.string_array(c, "includeTags"),
        exclude_tags: fields.string_array(c, "excludeTags"),
        headers,
        wait_for_ms: wait_for_ms as u64,
        timeout_ms: timeout_ms as u64,
        mobile: fields.bool(c, "mobile", false),
        skip_tls_verification: fields.bool(c, "skipTlsVerification", true),
        remove_base64_images: fields.bool(c, "removeBase64Images", true),
        block_ads: fields.bool(c, "blockAds", true),
        // "stealth" is what the official SDKs call "enhanced".
        proxy: fields
            .one_of(c, "proxy", &["basic", "enhanced", "auto", "stealth"])
            .map(|p| if p == "stealth" { "enhanced".to_string() } else { p })
            .unwrap_or_else(|| "auto".to_string()),
        fast_mode: fields.bool(c, "fastMode", false),
        location,
        actions,
        parsers,
        max_age_ms: fields.int(c, "maxAge", Some(0), None).unwrap_or(default_max_age),
        min_age_ms: fields.int(c, "minAge", Some(0), None),
        store_in_cache: fields.bool(c, "storeInCache", true),
        lockdown,
        only_clean_content,
        redact_pii,
        profile,
        audit_metadata,
        threat_protection: fields
            .any_object(c, "threatProtection")
            .map(|m| Value::Object(m.clone())),
        zero_data_retention,
        origin: fields.string(c, "origin"),
        integration: fields.string(c, "integration"),
    }
}

fn parse_headers(c: &mut Checker, fields: &mut Fields) -> Vec<(String, String)> {
    fields.describe(
        c,
        "headers",
        || json!({"additionalProperties": {"type": "string"}}),
    );
    let Some(map) = fields.any_object(c, "headers") else {
        return Vec::new();
    };
    let path = fields.at("headers");
    let mut out = Vec::with_capacity(map.len());
    for (k, v) in map {
        let mut p = path.clone();
        p.push(json!(k));
        match v {
            Value::String(s) => {
                if http::HeaderName::from_bytes(k.as_bytes()).is_err()
                    || http::HeaderValue::from_str(s).is_err()
                {
                    c.custom(&p, format!("Header '{k}' is not a valid HTTP header"));
                } else {
                    out.push((k.clone(), s.clone()));
                }
            }
            other => c.invalid_type(&p, "string", other),
        }
    }
    out
}

fn parse_location(c: &mut Checker, fields: &mut Fields) -> Option<Location> {
    let mut f = fields.object(c, "location")?;
    let country = f.string(c, "country").unwrap_or_else(|| "US".to_string());
    if !(country.len() == 2 && country.chars().all(|ch| ch.is_ascii_uppercase())) {
        c.issue(
            "invalid_string",
            &f.at("country"),
            "Invalid country code: expected two upper-case letters (ISO 3166-1 alpha-2)",
            json!({"validation": "regex"}),
        );
    }
    let languages = f.string_array(c, "languages");
    f.finish(c);
    Some(Location { country, languages })
}

fn parse_parsers(c: &mut Checker, fields: &mut Fields, catalog: &dyn Catalog) -> Vec<ParserSpec> {
    let path = fields.at("parsers");
    if c.is_describing() {
        let object_form = tagged_variant("type", "pdf", |c, item| {
            if let Some(f) = c.object(item, Vec::new()) {
                pdf_parser_object(c, f);
            }
        });
        fields.describe(c, "parsers", || {
            json!({"type": "array", "default": ["pdf"],
                   "items": {"oneOf": [{"type": "string", "enum": ["pdf"]}, object_form]}})
        });
    }
    let Some(value) = fields.raw("parsers") else {
        return vec![ParserSpec::pdf()];
    };
    let Value::Array(items) = value else {
        c.invalid_type(&path, "array", value);
        return vec![ParserSpec::pdf()];
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let mut p = path.clone();
        p.push(json!(i));
        match item {
            Value::String(s) if s == "pdf" => out.push(ParserSpec::pdf()),
            Value::String(s) if catalog.has_parser(s) => out.push(ParserSpec {
                kind: s.clone(),
                ..ParserSpec::pdf()
            }),
            Value::String(s) => c.enum_mismatch(&p, &["pdf"], s),
            other => {
                let plugin_type = match other.get("type") {
                    Some(Value::String(t)) if t != "pdf" && catalog.has_parser(t) => Some(t.clone()),
                    _ => None,
                };
                if let Some(kind) = plugin_type {
                    // A converter's own parser: its options are checked against
                    // the converter's declaration when it runs.
                    let extra = other
                        .as_object()
                        .map(|m| {
                            m.iter()
                                .filter(|(k, _)| *k != "type")
                                .map(|(k, v)| (k.clone(), v.clone()))
                        })
                        .into_iter()
                        .flatten()
                        .collect();
                    out.push(ParserSpec {
                        kind,
                        extra,
                        ..ParserSpec::pdf()
                    });
                } else if let Some(f) = c.object(other, p.clone()) {
                    out.extend(pdf_parser_object(c, f));
                }
            }
        }
    }
    out
}

/// The object form of upstream's `pdf` parser: `{type, maxPages, mode}`.
fn pdf_parser_object(c: &mut Checker, mut f: Fields) -> Option<ParserSpec> {
    let kind = f
        .raw("type")
        .map(|_| ())
        .and_then(|_| f.one_of(c, "type", &["pdf"]));
    if f.raw("type").is_none() {
        c.required(&f.at("type"), "string");
    }
    let max_pages = f.int(c, "maxPages", Some(1), Some(10_000)).map(|n| n as u32);
    let mode = f
        .one_of(c, "mode", &["fast", "auto", "ocr"])
        .unwrap_or_else(|| "auto".into());
    f.describe(c, "mode", || json!({"default": "auto"}));
    f.finish(c);
    Some(ParserSpec {
        kind: kind?,
        max_pages,
        mode,
        extra: Map::new(),
    })
}

impl ParserSpec {
    /// Upstream's default parser: `{type: "pdf", mode: "auto"}`.
    fn pdf() -> Self {
        ParserSpec {
            kind: "pdf".into(),
            max_pages: None,
            mode: "auto".into(),
            extra: Map::new(),
        }
    }
}

/// The options as a JSON object, for plugins (e.g. converters read `parsers`).
pub fn parsers_json(parsers: &[ParserSpec]) -> Value {
    Value::Array(
        parsers
            .iter()
            .map(|p| {
                let mut m = p.extra.clone();
                m.insert("type".into(), json!(p.kind));
                m.insert("mode".into(), json!(p.mode));
                if let Some(n) = p.max_pages {
                    m.insert("maxPages".into(), json!(n));
                }
                Value::Object(m)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests;
