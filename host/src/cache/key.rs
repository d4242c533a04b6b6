//! Cache keys and what may be stored.
//!
//! Two entries per scrape: the **page** (what was fetched: bytes, final URL,
//! status, content type), keyed by the normalised URL plus every option that
//! changes the fetch; and the **result** (the response document), keyed by the
//! page key plus every option that changes how formats are made from the page
//! and the identity of the code that renders them. A request for other
//! formats of a page already fetched misses the result entry but finds the
//! page entry and renders from it without a fetch. Keys are
//! `page:<sha256>` / `result:<sha256>` over a canonical JSON description
//! (object keys sorted, no spaces, versioned), so they are stable across
//! processes and releases of this format. The text is written directly
//! ([`Canon`]), not built as a `serde_json::Value` first; the tests hold it
//! to the canonical serialisation of the same description as a value.

use crate::api::scrape_request::{ScrapeOptions, parsers_json};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use url::Url;

/// Bump when the key inputs change meaning (old entries then simply miss).
/// 2: the result key covers the page key (not the page inputs again) and
/// the renderers' identity.
const KEY_VERSION: u32 = 2;

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
    let route = url
        .fragment()
        .is_some_and(|f| f.len() > 1 && (f.starts_with('/') || f.starts_with("!/")));
    if url.fragment().is_none() && url.query() != Some("") {
        return url.as_str().to_string();
    }
    let mut u = url.clone();
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

/// Keys for `url` fetched and rendered with `opts` (no renderers named).
pub fn keys(url: &Url, opts: &ScrapeOptions) -> CacheKeys {
    keys_for(url, opts, "")
}

/// Keys for `url` fetched and rendered with `opts`, the result key tied to
/// `renderers` (an identity of the code that renders formats, e.g. a digest
/// of the loaded plugins' hashes): a stored response made by other plugins
/// is not served; the page entry is shared.
pub fn keys_for(url: &Url, opts: &ScrapeOptions, renderers: &str) -> CacheKeys {
    let mut text = Vec::with_capacity(512);
    page_text(&mut text, url, opts);
    let page = key_of("page:", &text);
    text.clear();
    result_text(&mut text, &page, opts, renderers);
    let result = key_of("result:", &text);
    CacheKeys { page, result }
}

/// The request's headers, names lower-cased, in order (the order they were
/// sent in and the names' case change nothing).
fn sorted_headers(opts: &ScrapeOptions) -> Vec<(String, &str)> {
    let mut headers: Vec<(String, &str)> = opts
        .headers
        .iter()
        .map(|(k, v)| (k.to_ascii_lowercase(), v.as_str()))
        .collect();
    headers.sort();
    headers
}

/// The canonical text of everything that changes what is fetched (or which
/// engine fetches it).
fn page_text(out: &mut Vec<u8>, url: &Url, opts: &ScrapeOptions) {
    let headers = sorted_headers(opts);
    let fetch_formats: Vec<(&str, SortedMap)> = opts
        .formats
        .iter()
        .filter(|f| FETCH_TIME_FORMATS.contains(&f.name.as_str()))
        .map(|f| (f.name.as_str(), SortedMap(&f.options)))
        .collect();
    let actions: Vec<Sorted> = opts.actions.iter().map(Sorted).collect();
    let mut c = Canon::open(out);
    c.field("actions", &actions);
    c.field("blockAds", &opts.block_ads);
    c.field("fetchFormats", &fetch_formats);
    c.field("headers", &headers);
    c.field(
        "location",
        &opts.location.as_ref().map(|l| (&l.country, &l.languages)),
    );
    c.field("mobile", &opts.mobile);
    c.field("proxy", &opts.proxy);
    c.field("skipTlsVerification", &opts.skip_tls_verification);
    c.field("url", &normalize_url(url));
    c.field("v", &KEY_VERSION);
    c.field("waitFor", &opts.wait_for_ms);
    c.close();
}

/// The canonical text of the result key's inputs: the page key, the
/// requested formats with their options in name order (the response does
/// not depend on the order they were asked in), every option that changes
/// how they are made, and the renderers.
fn result_text(out: &mut Vec<u8>, page_key: &str, opts: &ScrapeOptions, renderers: &str) {
    let mut formats: Vec<(&str, SortedMap)> = opts
        .formats
        .iter()
        .map(|f| (f.name.as_str(), SortedMap(&f.options)))
        .collect();
    formats.sort_by_key(|(name, _)| *name);
    let parsers = parsers_json(&opts.parsers);
    let mut c = Canon::open(out);
    c.field("excludeTags", &opts.exclude_tags);
    c.field("formats", &formats);
    c.field("includeTags", &opts.include_tags);
    c.field("onlyCleanContent", &opts.only_clean_content);
    c.field("onlyMainContent", &opts.only_main_content);
    c.field("page", page_key);
    c.field("parsers", &Sorted(&parsers));
    c.field("redactPII", &opts.redact_pii.as_ref().map(Sorted));
    c.field("removeBase64Images", &opts.remove_base64_images);
    c.field("renderers", renderers);
    c.field("threatProtection", &opts.threat_protection.as_ref().map(Sorted));
    c.close();
}

/// `prefix` and the sha256 (lower-case hex) of `text`.
fn key_of(prefix: &str, text: &[u8]) -> String {
    let mut key = String::with_capacity(prefix.len() + 64);
    key.push_str(prefix);
    key.push_str(&hex::encode(Sha256::digest(text)));
    key
}

/// A JSON object written field by field, in the order given, which must be
/// the sorted order of the names (checked in debug builds).
struct Canon<'a> {
    out: &'a mut Vec<u8>,
    last: Option<&'static str>,
}

impl<'a> Canon<'a> {
    fn open(out: &'a mut Vec<u8>) -> Canon<'a> {
        out.push(b'{');
        Canon { out, last: None }
    }

    fn field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) {
        debug_assert!(self.last.is_none_or(|l| l < name), "{name} out of order");
        if self.last.is_some() {
            self.out.push(b',');
        }
        self.last = Some(name);
        self.out.push(b'"');
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b"\":");
        serde_json::to_writer(&mut *self.out, value).expect("key inputs serialise");
    }

    fn close(self) {
        self.out.push(b'}');
    }
}

/// `v` serialised with every object's keys sorted: the same text as
/// [`canonical`]'s value serialised, without building that copy.
struct Sorted<'a>(&'a Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(m) => SortedMap(m).serialize(serializer),
            Value::Array(items) => serializer.collect_seq(items.iter().map(Sorted)),
            other => other.serialize(serializer),
        }
    }
}

/// An object serialised as [`Sorted`] does.
struct SortedMap<'a>(&'a Map<String, Value>);

impl Serialize for SortedMap<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut entries: Vec<(&String, &Value)> = self.0.iter().collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut map = serializer.serialize_map(Some(entries.len()))?;
        for (k, v) in entries {
            map.serialize_entry(k, &Sorted(v))?;
        }
        map.end()
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
