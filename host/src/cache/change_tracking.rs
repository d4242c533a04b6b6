//! The changeTracking format: the previous scrape of each (URL, tag) is kept
//! in the cache store (key `ct:<sha256>`, its own long TTL, never evicted
//! for size: [`super::store::PINNED_PREFIX`]), and each new
//! scrape is compared with it by upstream's rule: a 404 is `removed`; no
//! previous scrape is `new`; otherwise the markdowns are compared after
//! removing all whitespace and `[iframe](...)` links and sorting the
//! characters (so moved text counts as `same`). `git-diff` mode adds the
//! diff ([`super::diff`]) when the status is `changed`; `json` mode needs an
//! LLM: the pipeline extracts both versions and [`json_changes`] compares
//! them into [`ChangeTracking::json`].

use super::diff::git_diff;
use super::store::{CacheStore, StoreError};
use crate::api::FormatRequest;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::sync::Arc;
use std::time::Duration;

/// Upstream's warning when changeTracking meets zero data retention (then
/// nothing is read or recorded).
pub const ZDR_WARNING: &str = "Change tracking is not supported with zero data retention.";
/// Upstream's warning when the previous scrape cannot be read.
pub const COMPARE_FAILED_WARNING: &str = "Comparing failed, please try again later.";

/// The changeTracking format's options.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrackOptions {
    pub git_diff: bool,
    pub json: bool,
    pub tag: Option<String>,
    pub schema: Option<Value>,
    pub prompt: Option<String>,
}

impl TrackOptions {
    /// From the validated `{type: "changeTracking", modes, tag, schema, prompt}`.
    pub fn from_format(f: &FormatRequest) -> TrackOptions {
        let modes: Vec<&str> = f
            .options
            .get("modes")
            .and_then(Value::as_array)
            .map(|m| m.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        TrackOptions {
            git_diff: modes.contains(&"git-diff"),
            json: modes.contains(&"json"),
            tag: f.options.get("tag").and_then(Value::as_str).map(str::to_string),
            schema: f.options.get("schema").cloned().filter(|s| !s.is_null()),
            prompt: f
                .options
                .get("prompt")
                .and_then(Value::as_str)
                .map(str::to_string),
        }
    }
}

/// What is remembered of a scrape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreviousScrape {
    pub markdown: String,
    pub scraped_at_ms: i64,
    pub status_code: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeStatus {
    New,
    Same,
    Changed,
    Removed,
}

/// `visible`: found by links or a sitemap (every single scrape); `hidden`:
/// a crawl found it only from memory of earlier crawls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    Visible,
    Hidden,
}

/// `data.changeTracking`.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeTracking {
    pub previous_scrape_at_ms: Option<i64>,
    pub change_status: ChangeStatus,
    pub visibility: Visibility,
    /// git-diff mode and `changed` only.
    pub diff: Option<super::diff::GitDiff>,
    /// json mode and `changed` only: for the pipeline to fill with the LLM
    /// comparison (upstream: per schema key `{previous, current}`).
    pub json: Option<Value>,
    /// The previous markdown, for json mode's LLM comparison.
    pub previous_markdown: Option<String>,
}

impl ChangeTracking {
    /// The JSON upstream returns (`diff` / `json` only when present).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert(
            "previousScrapeAt".into(),
            self.previous_scrape_at_ms
                .map(|ms| Value::String(super::policy::iso8601(ms)))
                .unwrap_or(Value::Null),
        );
        m.insert(
            "changeStatus".into(),
            serde_json::to_value(self.change_status).expect("enum"),
        );
        m.insert(
            "visibility".into(),
            serde_json::to_value(self.visibility).expect("enum"),
        );
        if let Some(d) = &self.diff {
            m.insert("diff".into(), d.to_json());
        }
        if let Some(j) = &self.json {
            m.insert("json".into(), j.clone());
        }
        Value::Object(m)
    }
}

/// Store key of the record for (`url`, `tag`): pass the normalised URL
/// ([`super::key::normalize_url`]).
pub fn record_key(url: &str, tag: Option<&str>) -> String {
    let mut h = Sha256::new();
    h.update(url.as_bytes());
    h.update([0u8]);
    match tag {
        Some(t) => {
            h.update([1u8]);
            h.update(t.as_bytes());
        }
        None => h.update([0u8]),
    }
    format!("{}{}", super::store::PINNED_PREFIX, hex::encode(h.finalize()))
}

/// Upstream's equality: all whitespace (JavaScript's `\s`) removed, then
/// `[iframe](...)` links, then the characters compared as a sorted multiset.
pub fn same_content(previous: &str, current: &str) -> bool {
    fn normal(s: &str) -> Vec<char> {
        let squeezed: String = s.chars().filter(|c| !is_js_space(*c)).collect();
        let mut chars: Vec<char> = strip_iframes(&squeezed).chars().collect();
        chars.sort_unstable();
        chars
    }
    normal(previous) == normal(current)
}

/// `/\[iframe\]\(.+?\)/g` (at least one character inside the parentheses).
fn strip_iframes(s: &str) -> String {
    const OPEN: &str = "[iframe](";
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find(OPEN) {
        let after = &rest[at + OPEN.len()..];
        // `.+?`: the first ')' after at least one character.
        let close = after
            .char_indices()
            .skip(1)
            .find(|(_, c)| *c == ')')
            .map(|(i, _)| i);
        match close {
            Some(i) => {
                out.push_str(&rest[..at]);
                rest = &after[i + 1..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// JavaScript's `\s`.
fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

/// Compares the current scrape with the previous one (pure).
pub fn compare(
    previous: Option<&PreviousScrape>,
    markdown: &str,
    status_code: u16,
    visibility: Visibility,
    opts: &TrackOptions,
) -> ChangeTracking {
    let change_status = match previous {
        _ if status_code == 404 => ChangeStatus::Removed,
        None => ChangeStatus::New,
        Some(p) if same_content(&p.markdown, markdown) => ChangeStatus::Same,
        Some(_) => ChangeStatus::Changed,
    };
    let changed = change_status == ChangeStatus::Changed;
    let prev_md = previous.map(|p| p.markdown.as_str());
    ChangeTracking {
        previous_scrape_at_ms: previous.map(|p| p.scraped_at_ms),
        change_status,
        visibility,
        diff: prev_md
            .filter(|_| changed && opts.git_diff)
            .and_then(|old| git_diff(old, markdown)),
        json: None,
        previous_markdown: prev_md.filter(|_| changed && opts.json).map(str::to_string),
    }
}

/// json mode with a schema: given what the LLM extracted from the previous
/// and the current markdown, upstream's `{key: {previous, current}}` for every
/// top-level key whose JSON differs (keys of the previous object first; a side
/// without the key has no field, as JavaScript drops `undefined`).
pub fn json_changes(previous: &Value, current: &Value) -> Value {
    let empty = Map::new();
    let prev = previous.as_object().unwrap_or(&empty);
    let cur = current.as_object().unwrap_or(&empty);
    let mut out = Map::new();
    for k in prev.keys().chain(cur.keys().filter(|k| !prev.contains_key(*k))) {
        let (p, c) = (prev.get(k), cur.get(k));
        // serde_json keeps key order here, so this compares as JSON.stringify does.
        if p.map(Value::to_string) != c.map(Value::to_string) {
            let mut change = Map::new();
            if let Some(p) = p {
                change.insert("previous".into(), p.clone());
            }
            if let Some(c) = c {
                change.insert("current".into(), c.clone());
            }
            out.insert(k.clone(), Value::Object(change));
        }
    }
    Value::Object(out)
}

/// Reads and writes the previous-scrape records.
#[derive(Clone)]
pub struct ChangeTracker {
    store: Arc<dyn CacheStore>,
    ttl: Duration,
}

impl ChangeTracker {
    /// Records live `ttl` (they are the memory of the page: make it long).
    pub fn new(store: Arc<dyn CacheStore>, ttl: Duration) -> Self {
        ChangeTracker { store, ttl }
    }

    /// The record for (`url`, `tag`).
    pub async fn previous(&self, url: &str, tag: Option<&str>) -> Result<Option<PreviousScrape>, StoreError> {
        let Some(stored) = self.store.get(&record_key(url, tag)).await? else {
            return Ok(None);
        };
        serde_json::from_slice(&stored.value)
            .map(Some)
            .map_err(|e| StoreError::Corrupt(format!("change-tracking record: {e}")))
    }

    /// Remembers `scrape` as the latest for (`url`, `tag`).
    pub async fn record(
        &self,
        url: &str,
        tag: Option<&str>,
        scrape: &PreviousScrape,
    ) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec(scrape).expect("record serialises");
        self.store
            .put(&record_key(url, tag), &bytes, scrape.scraped_at_ms, self.ttl)
            .await
    }

    /// Compares with the previous scrape, then records this one (the tests'
    /// shorthand: the pipeline records only once its response is complete).
    /// On a store error nothing is recorded.
    #[cfg(test)]
    pub async fn track(
        &self,
        url: &str,
        opts: &TrackOptions,
        current: &PreviousScrape,
        visibility: Visibility,
    ) -> Result<ChangeTracking, StoreError> {
        let result = self.compare_with_previous(url, opts, current, visibility).await?;
        self.record(url, opts.tag.as_deref(), current).await?;
        Ok(result)
    }

    /// The comparison with the previous scrape, without recording this one:
    /// the caller records it ([`ChangeTracker::record`]) once its response is
    /// complete, so a request that ends before that (its timeout) leaves the
    /// previous scrape in place. On a store error the caller adds
    /// [`COMPARE_FAILED_WARNING`].
    pub async fn compare_with_previous(
        &self,
        url: &str,
        opts: &TrackOptions,
        current: &PreviousScrape,
        visibility: Visibility,
    ) -> Result<ChangeTracking, StoreError> {
        let previous = self.previous(url, opts.tag.as_deref()).await?;
        Ok(compare(
            previous.as_ref(),
            &current.markdown,
            current.status_code,
            visibility,
            opts,
        ))
    }
}

#[cfg(test)]
#[path = "change_tracking_tests.rs"]
mod tests;
