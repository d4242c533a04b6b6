//! The bodies of `POST /v2/crawl`, `/v2/batch/scrape`, `/v2/map` and
//! `/v2/crawl/params-preview`, validated like `/v2/scrape` (zod-style issues,
//! unknown keys refused; `origin` / `integration` accepted). `scrapeOptions`
//! (crawl) and the top-level scrape options (batch) go through the scrape
//! request's own validation, so every scrape option behaves as in `/v2/scrape`.

use super::error::ApiError;
use super::scrape_request::{Catalog, ScrapeRequest, UNKNOWN_KEY_MESSAGE, issues_to_error};
use super::validate::{Checker, Fields};
use serde_json::{Map, Value, json};
use url::Url;

/// Upstream's default and largest `limit` of a crawl.
pub const DEFAULT_CRAWL_LIMIT: u64 = 10_000;
/// Largest `delay`, seconds.
pub const MAX_DELAY_S: f64 = 60.0;

/// Webhook settings (string form = URL only).
#[derive(Debug, Clone, PartialEq)]
pub struct WebhookSpec {
    pub url: Url,
    pub headers: Vec<(String, String)>,
    pub metadata: Value,
    /// "started", "page", "completed", "failed".
    pub events: Vec<String>,
}

/// How a crawl or map uses sitemaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SitemapMode {
    Skip,
    Include,
    Only,
}

/// A validated `/v2/crawl` body.
#[derive(Debug, Clone)]
pub struct CrawlRequest {
    pub url: Url,
    pub include_paths: Vec<regex::Regex>,
    pub exclude_paths: Vec<regex::Regex>,
    pub regex_on_full_url: bool,
    pub max_discovery_depth: Option<u32>,
    pub limit: u64,
    pub crawl_entire_domain: bool,
    pub allow_external_links: bool,
    pub allow_subdomains: bool,
    pub ignore_robots_txt: bool,
    pub robots_user_agent: Option<String>,
    pub sitemap: SitemapMode,
    pub deduplicate_similar_urls: bool,
    pub ignore_query_parameters: bool,
    pub delay_s: f64,
    pub max_concurrency: Option<usize>,
    /// The `scrapeOptions` object as sent (validated), `{}` when absent.
    pub scrape_options: Map<String, Value>,
    pub webhook: Option<WebhookSpec>,
    pub prompt: Option<String>,
}

/// A validated `/v2/batch/scrape` body.
#[derive(Debug, Clone)]
pub struct BatchRequest {
    pub urls: Vec<Url>,
    pub invalid_urls: Vec<String>,
    pub append_to_id: Option<String>,
    pub max_concurrency: Option<usize>,
    pub webhook: Option<WebhookSpec>,
    /// Every scrape option given at the top level.
    pub scrape_options: Map<String, Value>,
}

/// A validated `/v2/map` body.
#[derive(Debug, Clone)]
pub struct MapRequest {
    pub url: Url,
    pub search: Option<String>,
    pub sitemap: SitemapMode,
    pub include_subdomains: bool,
    pub ignore_query_parameters: bool,
    pub limit: usize,
    pub timeout_ms: Option<u64>,
}

fn body_fields<'v>(c: &mut Checker, body: &'v Value) -> Result<Fields<'v>, ApiError> {
    match c.object(body, Vec::new()) {
        Some(f) => Ok(f),
        None => Err(issues_to_error(std::mem::take(c))),
    }
}

/// A URL as `/v2/scrape` accepts it (scheme added when missing).
pub fn parse_url(raw: &str, catalog: &dyn Catalog) -> Result<Url, ApiError> {
    ScrapeRequest::from_json(&json!({ "url": raw }), catalog).map(|r| r.url)
}

/// The scrape request for one page of a job: `options` + `url`.
pub fn page_request(
    options: &Map<String, Value>,
    url: &str,
    catalog: &dyn Catalog,
) -> Result<ScrapeRequest, ApiError> {
    let mut body = options.clone();
    body.insert("url".into(), Value::String(url.to_string()));
    ScrapeRequest::from_json(&Value::Object(body), catalog)
}

/// `url` is the page's own, set per page by [`page_request`]: among the scrape
/// options of a job (crawl `scrapeOptions`, batch top level) it is an unknown
/// key, as in upstream's strict schemas, not an option silently overwritten.
fn refuse_url_option(c: &mut Checker, options: &Map<String, Value>, path: Vec<Value>) {
    if options.contains_key("url") {
        c.issue(
            "unrecognized_keys",
            &path,
            UNKNOWN_KEY_MESSAGE,
            json!({ "keys": ["url"] }),
        );
    }
}

/// Prefixes the issue paths of a nested validation with `prefix`.
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

fn sitemap_mode(c: &mut Checker, f: &mut Fields) -> SitemapMode {
    match f.one_of(c, "sitemap", &["skip", "include", "only"]).as_deref() {
        Some("skip") => SitemapMode::Skip,
        Some("only") => SitemapMode::Only,
        _ => SitemapMode::Include,
    }
}

fn regexes(c: &mut Checker, f: &mut Fields, key: &str) -> Vec<regex::Regex> {
    let path = f.at(key);
    f.string_array(c, key)
        .into_iter()
        .filter_map(
            |p| match regex::RegexBuilder::new(&p).size_limit(1 << 20).build() {
                Ok(r) => Some(r),
                Err(e) => {
                    c.custom(&path, format!("Invalid regular expression {p:?}: {e}"));
                    None
                }
            },
        )
        .collect()
}

fn webhook(c: &mut Checker, f: &mut Fields) -> Option<WebhookSpec> {
    let raw = f.raw("webhook")?;
    let path = f.at("webhook");
    let parse = |c: &mut Checker, s: &str| match Url::parse(s) {
        Ok(u) if u.scheme() == "http" || u.scheme() == "https" => Some(u),
        _ => {
            c.custom(&path, "Invalid webhook URL");
            None
        }
    };
    match raw {
        Value::String(s) => parse(c, s).map(|url| WebhookSpec {
            url,
            headers: Vec::new(),
            metadata: json!({}),
            events: vec![
                "started".into(),
                "page".into(),
                "completed".into(),
                "failed".into(),
            ],
        }),
        Value::Object(_) => {
            let mut w = c.object(raw, path.clone())?;
            let url = w.required_string(c, "url");
            let headers: Vec<(String, String)> = match w.any_object(c, "headers") {
                Some(m) => m
                    .iter()
                    .filter_map(|(k, v)| match v {
                        Value::String(s) => Some((k.clone(), s.clone())),
                        _ => {
                            c.custom(&w.at("headers"), "Webhook header values must be strings");
                            None
                        }
                    })
                    .collect(),
                None => Vec::new(),
            };
            let metadata = w
                .any_object(c, "metadata")
                .map(|m| Value::Object(m.clone()))
                .unwrap_or(json!({}));
            let events_path = w.at("events");
            let mut events = w.string_array(c, "events");
            for e in &events {
                if !["started", "page", "completed", "failed"].contains(&e.as_str()) {
                    c.enum_mismatch(&events_path, &["completed", "failed", "page", "started"], e);
                }
            }
            if w.raw("events").is_none() {
                events = vec![
                    "started".into(),
                    "page".into(),
                    "completed".into(),
                    "failed".into(),
                ];
            }
            w.finish(c);
            let url = url.and_then(|u| parse(c, &u))?;
            Some(WebhookSpec {
                url,
                headers,
                metadata,
                events,
            })
        }
        other => {
            c.invalid_type(&path, "string or object", other);
            None
        }
    }
}

fn concurrency(c: &mut Checker, f: &mut Fields) -> Option<usize> {
    f.int(c, "maxConcurrency", Some(1), Some(1000))
        .map(|n| n as usize)
}

impl CrawlRequest {
    pub fn from_json(body: &Value, catalog: &dyn Catalog) -> Result<CrawlRequest, ApiError> {
        let mut c = Checker::default();
        let mut f = body_fields(&mut c, body)?;
        let url = f.required_string(&mut c, "url");
        let include_paths = regexes(&mut c, &mut f, "includePaths");
        let exclude_paths = regexes(&mut c, &mut f, "excludePaths");
        let regex_on_full_url = f.bool(&mut c, "regexOnFullURL", false);
        let max_discovery_depth = f
            .int(&mut c, "maxDiscoveryDepth", Some(0), None)
            .map(|d| d.min(u32::MAX as i64) as u32);
        // Upstream's v1 names, refused with a pointer to the v2 ones.
        for (old, new) in [
            ("maxDepth", "maxDiscoveryDepth"),
            ("allowBackwardLinks", "crawlEntireDomain"),
            ("allowBackwardCrawling", "crawlEntireDomain"),
            ("ignoreSitemap", "sitemap"),
        ] {
            if f.raw(old).is_some() {
                c.custom(&f.at(old), format!("{old} is not a v2 option; use {new}"));
            }
        }
        let limit = f
            .int(&mut c, "limit", Some(1), None)
            .map(|l| l as u64)
            .unwrap_or(DEFAULT_CRAWL_LIMIT);
        let crawl_entire_domain = f.bool(&mut c, "crawlEntireDomain", false);
        let allow_external_links = f.bool(&mut c, "allowExternalLinks", false);
        let allow_subdomains = f.bool(&mut c, "allowSubdomains", false);
        let ignore_robots_txt = f.bool(&mut c, "ignoreRobotsTxt", false);
        let robots_user_agent = f.string(&mut c, "robotsUserAgent");
        let sitemap = sitemap_mode(&mut c, &mut f);
        let deduplicate_similar_urls = f.bool(&mut c, "deduplicateSimilarURLs", true);
        let ignore_query_parameters = f.bool(&mut c, "ignoreQueryParameters", false);
        let delay_s = match f.number(&mut c, "delay") {
            Some(d) if !(0.0..=MAX_DELAY_S).contains(&d) => {
                c.custom(&f.at("delay"), "delay must be between 0 and 60 seconds");
                0.0
            }
            Some(d) => d,
            None => 0.0,
        };
        let max_concurrency = concurrency(&mut c, &mut f);
        let mut scrape_options = f.any_object(&mut c, "scrapeOptions").cloned().unwrap_or_default();
        refuse_url_option(&mut c, &scrape_options, f.at("scrapeOptions"));
        let webhook = webhook(&mut c, &mut f);
        let prompt = f.string_len(&mut c, "prompt", 1, 10_000);
        // Zero data retention covers every page of the crawl: each page is
        // scraped with it (nothing written to the page cache, no URL logged).
        if f.bool(&mut c, "zeroDataRetention", false) {
            scrape_options.insert("zeroDataRetention".into(), Value::Bool(true));
        }
        f.string(&mut c, "origin");
        f.string(&mut c, "integration");
        f.finish(&mut c);
        if !c.is_ok() {
            return Err(issues_to_error(c));
        }
        let url = parse_url(url.as_deref().unwrap_or(""), catalog)?;
        page_request(&scrape_options, url.as_str(), catalog).map_err(|e| nest(e, "scrapeOptions"))?;
        Ok(CrawlRequest {
            url,
            include_paths,
            exclude_paths,
            regex_on_full_url,
            max_discovery_depth,
            limit,
            crawl_entire_domain,
            allow_external_links,
            allow_subdomains,
            ignore_robots_txt,
            robots_user_agent,
            sitemap,
            deduplicate_similar_urls,
            ignore_query_parameters,
            delay_s,
            max_concurrency,
            scrape_options,
            webhook,
            prompt,
        })
    }
}

/// Keys of a batch body that are not scrape options (`zeroDataRetention` is
/// one: it stays with the options, so every page is scraped under it).
const BATCH_KEYS: &[&str] = &[
    "urls",
    "webhook",
    "appendToId",
    "ignoreInvalidURLs",
    "maxConcurrency",
];

impl BatchRequest {
    pub fn from_json(body: &Value, catalog: &dyn Catalog) -> Result<BatchRequest, ApiError> {
        let mut c = Checker::default();
        let mut f = body_fields(&mut c, body)?;
        let urls_path = f.at("urls");
        let raw_urls = f.string_array(&mut c, "urls");
        if f.raw("urls").is_none() {
            c.required(&urls_path, "array");
        }
        let ignore_invalid = f.bool(&mut c, "ignoreInvalidURLs", true);
        let append_to_id = f.string(&mut c, "appendToId");
        let max_concurrency = concurrency(&mut c, &mut f);
        let webhook = webhook(&mut c, &mut f);
        let Value::Object(map) = body else {
            unreachable!("checked above")
        };
        refuse_url_option(&mut c, map, Vec::new());
        if !c.is_ok() {
            return Err(issues_to_error(c));
        }
        let scrape_options: Map<String, Value> = map
            .iter()
            .filter(|(k, _)| !BATCH_KEYS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let mut urls = Vec::new();
        let mut invalid_urls = Vec::new();
        for (i, raw) in raw_urls.iter().enumerate() {
            match parse_url(raw, catalog) {
                Ok(u) => urls.push(u),
                Err(_) if ignore_invalid => invalid_urls.push(raw.clone()),
                Err(_) => {
                    let mut p = urls_path.clone();
                    p.push(json!(i));
                    c.custom(&p, "Invalid URL");
                }
            }
        }
        if !c.is_ok() {
            return Err(issues_to_error(c));
        }
        if urls.is_empty() && append_to_id.is_none() {
            return Err(
                ApiError::bad_request("No valid URLs to scrape").with_details(json!([{
                    "code": "custom", "path": ["urls"], "message": "At least one valid URL is required"
                }])),
            );
        }
        let probe = urls.first().map(Url::as_str).unwrap_or("http://example.invalid/");
        page_request(&scrape_options, probe, catalog)?;
        Ok(BatchRequest {
            urls,
            invalid_urls,
            append_to_id,
            max_concurrency,
            webhook,
            scrape_options,
        })
    }
}

impl MapRequest {
    pub fn from_json(body: &Value, catalog: &dyn Catalog) -> Result<MapRequest, ApiError> {
        let mut c = Checker::default();
        let mut f = body_fields(&mut c, body)?;
        let url = f.required_string(&mut c, "url");
        let search = f.string(&mut c, "search").filter(|s| !s.trim().is_empty());
        let sitemap = sitemap_mode(&mut c, &mut f);
        let include_subdomains = f.bool(&mut c, "includeSubdomains", true);
        let ignore_query_parameters = f.bool(&mut c, "ignoreQueryParameters", true);
        let limit = f.int(&mut c, "limit", Some(1), Some(100_000)).unwrap_or(5000) as usize;
        let timeout_ms = f.int(&mut c, "timeout", Some(1), Some(300_000)).map(|t| t as u64);
        // Accepted for compatibility; see docs/CRAWL.md.
        for key in ["filterByPath", "useIndex", "ignoreCache", "ignoreSitemap"] {
            f.bool(&mut c, key, false);
        }
        f.any_object(&mut c, "location");
        f.any_object(&mut c, "headers");
        f.string(&mut c, "origin");
        f.string(&mut c, "integration");
        f.finish(&mut c);
        if !c.is_ok() {
            return Err(issues_to_error(c));
        }
        let url = parse_url(url.as_deref().unwrap_or(""), catalog)?;
        Ok(MapRequest {
            url,
            search,
            sitemap,
            include_subdomains,
            ignore_query_parameters,
            limit,
            timeout_ms,
        })
    }
}

/// A validated `/v2/crawl/params-preview` body: `(url, prompt)`.
pub fn preview_request(body: &Value, catalog: &dyn Catalog) -> Result<(Url, String), ApiError> {
    let mut c = Checker::default();
    let mut f = body_fields(&mut c, body)?;
    let url = f.required_string(&mut c, "url");
    let prompt = f.string_len(&mut c, "prompt", 1, 10_000);
    if f.raw("prompt").is_none() {
        c.required(&f.at("prompt"), "string");
    }
    f.string(&mut c, "origin");
    f.string(&mut c, "integration");
    f.finish(&mut c);
    if !c.is_ok() {
        let e = issues_to_error(c);
        let msgs: Vec<String> = e
            .details
            .as_ref()
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|i| i["message"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        return Err(ApiError::bad_request(format!(
            "Invalid request parameters: {}",
            msgs.join(", ")
        )));
    }
    let url = parse_url(url.as_deref().unwrap_or(""), catalog)?;
    Ok((url, prompt.unwrap_or_default()))
}
