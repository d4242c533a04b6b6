//! Cache keys and what may be stored.
//!
//! Two entries per scrape: the **page** (what was fetched: bytes, final URL,
//! status, content type), keyed by the normalised URL plus every option that
//! changes the fetch; and the **result** (the response document), keyed by the
//! page key's inputs plus every option that changes how formats are made from
//! the page. A request for other formats of a page already fetched misses the
//! result entry but finds the page entry and renders from it without a fetch.
//! Keys are `page:<sha256>` / `result:<sha256>` over a canonical JSON
//! description (object keys sorted, versioned), so they are stable across
//! processes and releases of this format.

use crate::api::scrape_request::ScrapeOptions;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use url::Url;

/// Bump when the key inputs change meaning (old entries then simply miss).
const KEY_VERSION: u32 = 1;

/// Formats made while the page is loaded in a browser (their output cannot be
/// re-derived from stored bytes, and asking for them changes the engine).
const FETCH_TIME_FORMATS: &[&str] = &["screenshot", "branding"];

/// The URL as the cache sees it: scheme and host lower-cased, default port
/// dropped and path percent-encoding normalised (all by `url`'s parser), an
/// empty `?` removed, and the fragment removed (it is never sent to the
/// server) unless it is a client-side route (`#/x`, `#!/x`), which a browser
/// engine renders differently, as upstream's index keeps it. Query order and
/// trailing slashes are kept: servers may answer differently.
pub fn normalize_url(url: &Url) -> String {
    let mut u = url.clone();
    let route = u
        .fragment()
        .is_some_and(|f| f.len() > 1 && (f.starts_with('/') || f.starts_with("!/")));
    if !route {
        u.set_fragment(None);
    }
    if u.query() == Some("") {
        u.set_query(None);
    }
    u.to_string()
}

/// The two keys of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheKeys {
    pub page: String,
    pub result: String,
}

/// Keys for `url` fetched and rendered with `opts`.
pub fn keys(url: &Url, opts: &ScrapeOptions) -> CacheKeys {
    let page_inputs = page_inputs(url, opts);
    let page = format!("page:{}", digest(&page_inputs));
    let result_inputs = json!({
        "page": page_inputs,
        "formats": formats_input(opts),
        "onlyMainContent": opts.only_main_content,
        "includeTags": opts.include_tags,
        "excludeTags": opts.exclude_tags,
        "removeBase64Images": opts.remove_base64_images,
        "parsers": crate::api::scrape_request::parsers_json(&opts.parsers),
        "onlyCleanContent": opts.only_clean_content,
        "redactPII": opts.redact_pii,
        "threatProtection": opts.threat_protection,
    });
    CacheKeys {
        page,
        result: format!("result:{}", digest(&result_inputs)),
    }
}

/// Everything that changes what is fetched (or which engine fetches it).
fn page_inputs(url: &Url, opts: &ScrapeOptions) -> Value {
    let mut headers: Vec<(String, &str)> = opts
        .headers
        .iter()
        .map(|(k, v)| (k.to_ascii_lowercase(), v.as_str()))
        .collect();
    headers.sort();
    let fetch_formats: Vec<Value> = opts
        .formats
        .iter()
        .filter(|f| FETCH_TIME_FORMATS.contains(&f.name.as_str()))
        .map(|f| json!([f.name, Value::Object(f.options.clone())]))
        .collect();
    json!({
        "v": KEY_VERSION,
        "url": normalize_url(url),
        "headers": headers,
        "waitFor": opts.wait_for_ms,
        "mobile": opts.mobile,
        "location": opts.location.as_ref().map(|l| json!([l.country, l.languages])),
        "blockAds": opts.block_ads,
        "skipTlsVerification": opts.skip_tls_verification,
        "proxy": opts.proxy,
        "actions": opts.actions,
        "fetchFormats": fetch_formats,
    })
}

/// Requested formats with their options, in name order (the response does
/// not depend on the order they were asked in).
fn formats_input(opts: &ScrapeOptions) -> Value {
    let mut formats: Vec<(&str, &Map<String, Value>)> = opts
        .formats
        .iter()
        .map(|f| (f.name.as_str(), &f.options))
        .collect();
    formats.sort_by_key(|(name, _)| *name);
    Value::Array(
        formats
            .into_iter()
            .map(|(name, options)| json!([name, Value::Object(options.clone())]))
            .collect(),
    )
}

/// `keys` with the result key tied to `renderers` (an identity of the code
/// that renders formats, e.g. the loaded plugins' hashes): a stored response
/// made by other plugins is not served; the page entry is shared.
pub fn with_renderers(keys: CacheKeys, renderers: &str) -> CacheKeys {
    if renderers.is_empty() {
        return keys;
    }
    let result = format!(
        "result:{}",
        digest(&json!({ "result": keys.result, "renderers": renderers }))
    );
    CacheKeys { result, ..keys }
}

/// sha256 (hex) of the canonical JSON of `v`.
fn digest(v: &Value) -> String {
    let mut text = Vec::with_capacity(512);
    serde_json::to_writer(&mut text, &Sorted(v)).expect("JSON values serialise");
    hex::encode(Sha256::digest(&text))
}

/// `v` serialised with every object's keys sorted: the same text as
/// [`canonical`]'s value serialised, without building that copy (a
/// scrape's keys cost ~40 % less, BENCHMARKS.md).
struct Sorted<'a>(&'a Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(m) => {
                let mut entries: Vec<(&String, &Value)> = m.iter().collect();
                entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, &Sorted(v))?;
                }
                map.end()
            }
            Value::Array(items) => serializer.collect_seq(items.iter().map(Sorted)),
            other => other.serialize(serializer),
        }
    }
}

/// `v` with every object's keys sorted (serde_json keeps insertion order here).
pub fn canonical(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Value::Object(keys.into_iter().map(|k| (k.clone(), canonical(&m[k]))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// Why nothing (or only the page) is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoStore {
    ZeroDataRetention,
    /// Lockdown runs as zero data retention.
    Lockdown,
    StoreInCacheFalse,
    Actions,
    /// Cookies, credentials or tokens in `headers`.
    PrivateHeaders,
    Profile,
    /// `user:pass@` in the URL.
    UrlCredentials,
}

/// What the pipeline may write after a live fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreDecision {
    /// Store the fetched page (lets later requests re-render it).
    pub page: bool,
    /// Store the response document.
    pub result: bool,
    /// Set when `page` is false.
    pub reason: Option<NoStore>,
}

/// Effective `storeInCache` after the privacy rules: options that make a
/// result private force it off; zero data retention (and lockdown, which runs
/// as it) store nothing. A changeTracking result depends on the previous
/// scrape, so only its page is stored.
pub fn cacheable(url: &Url, opts: &ScrapeOptions) -> StoreDecision {
    let reason = if opts.zero_data_retention {
        Some(NoStore::ZeroDataRetention)
    } else if opts.lockdown {
        Some(NoStore::Lockdown)
    } else if !opts.store_in_cache {
        Some(NoStore::StoreInCacheFalse)
    } else if !opts.actions.is_empty() {
        Some(NoStore::Actions)
    } else if opts.headers.iter().any(|(name, _)| is_private_header(name)) {
        Some(NoStore::PrivateHeaders)
    } else if opts.profile.is_some() {
        Some(NoStore::Profile)
    } else if !url.username().is_empty() || url.password().is_some() {
        Some(NoStore::UrlCredentials)
    } else {
        None
    };
    let page = reason.is_none();
    StoreDecision {
        page,
        result: page && !opts.wants("changeTracking"),
        reason,
    }
}

/// Header names that carry a session or a credential.
pub fn is_private_header(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    matches!(n.as_str(), "cookie" | "authorization" | "proxy-authorization")
        || [
            "auth", "token", "session", "secret", "password", "api-key", "apikey", "cookie",
        ]
        .iter()
        .any(|w| n.contains(w))
}

#[cfg(test)]
#[path = "key_tests.rs"]
mod tests;
