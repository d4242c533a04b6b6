//! The cache as the scrape pipeline uses it: one [`PageCache`] per server
//! (store, time to live, change tracker) with two calls around a scrape:
//! [`PageCache::lookup`] before fetching (a stored document, a stored page
//! to render, fetch, or a cache-only 404) and [`PageCache::save`] after a
//! live fetch (what [`key::cacheable`] allows). Store errors never fail a
//! scrape: a failed read is a miss, a failed write is logged (by key hash,
//! never by URL) and dropped.

use super::change_tracking::ChangeTracker;
use super::entry::{PageEntry, StoredResult, result_from_bytes, result_to_bytes_escaped};
use super::escaped::Escaped;
use super::key::{self, CacheKeys};
use super::policy::{self, Decision};
use super::store::{CacheSettings, CacheStore, StoreError};
use crate::api::scrape_request::ScrapeOptions;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use url::Url;

/// Longest an entry that holds a media URL (a screenshot the browser engine
/// saved, [`crate::media`]) stays usable: the media files live
/// [`crate::media::MEDIA_TTL`] from when they were written, which is a little
/// before the entry's time (the fetch goes on after the screenshot), so the
/// entry ends 10 minutes earlier and never points at a deleted file.
pub const MEDIA_ENTRY_TTL: Duration = Duration::from_secs(crate::media::MEDIA_TTL.as_secs() - 600);

/// Fields of a page's engine data or a response that point at media files.
const MEDIA_FIELDS: &[&str] = &["screenshot", "actions"];

/// What to do for a request, from the cache's side.
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup {
    /// A stored response document, with the hit decision: the pipeline
    /// splices in `cacheState`, `cachedAt` ([`policy::hit_fields`]),
    /// `scrapeId` and `sourceURL` ([`StoredResult::complete`]).
    Document(StoredResult, Decision),
    /// A stored page: render the requested formats from it (no fetch), then
    /// [`policy::annotate`] with the decision (a hit).
    Page(PageEntry, Decision),
    /// Fetch live (through a [`super::coalesce::Coalescer`] keyed by the page
    /// key), then annotate with the decision.
    Fetch(Decision),
    /// 404 `SCRAPE_NO_CACHED_DATA`.
    NoCachedData,
    /// 404 `SCRAPE_LOCKDOWN_CACHE_MISS` (log no URL).
    LockdownMiss,
}

/// What [`PageCache::save`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Saved {
    pub page: bool,
    pub result: bool,
}

/// The server's cache.
#[derive(Clone)]
pub struct PageCache {
    store: Arc<dyn CacheStore>,
    ttl: Duration,
    tracker: ChangeTracker,
}

impl PageCache {
    pub fn new(store: Arc<dyn CacheStore>, ttl: Duration, change_tracking_ttl: Duration) -> Self {
        let tracker = ChangeTracker::new(store.clone(), change_tracking_ttl);
        PageCache { store, ttl, tracker }
    }

    /// Opens the configured backend ([`super::factory::open`]).
    pub async fn open(settings: &CacheSettings, change_tracking_ttl: Duration) -> Result<Self, StoreError> {
        let store = super::factory::open(settings).await?;
        Ok(PageCache::new(store, settings.ttl, change_tracking_ttl))
    }

    pub fn store(&self) -> &Arc<dyn CacheStore> {
        &self.store
    }

    /// For the changeTracking format.
    pub fn tracker(&self) -> &ChangeTracker {
        &self.tracker
    }

    /// Decides how to answer `url` with `opts` at `now_ms`; returns the keys
    /// for [`PageCache::save`] and the coalescer.
    pub async fn lookup(&self, url: &Url, opts: &ScrapeOptions, now_ms: i64) -> (Lookup, CacheKeys) {
        self.lookup_for(url, opts, "", now_ms).await
    }

    /// [`PageCache::lookup`] with the result key tied to `renderers` (see
    /// [`key::keys_for`]): after a plugin changes, stored responses are
    /// not served, stored pages are rendered again.
    pub async fn lookup_for(
        &self,
        url: &Url,
        opts: &ScrapeOptions,
        renderers: &str,
        now_ms: i64,
    ) -> (Lookup, CacheKeys) {
        let keys = key::keys_for(url, opts, renderers);
        let plan = policy::plan(opts, url);
        if let Some(d) = policy::before_lookup(&plan) {
            return (from_decision(d), keys);
        }
        if let Some((bytes, stored_at)) = self.read(&keys.result).await
            && let d @ Decision::Serve { .. } = policy::decide(&plan, Some(stored_at), now_ms)
        {
            match result_from_bytes(&bytes) {
                Ok(stored) => return (Lookup::Document(stored, d), keys),
                Err(e) => warn(&keys.result, &e),
            }
        }
        if let Some((bytes, stored_at)) = self.read(&keys.page).await
            && let d @ Decision::Serve { .. } = policy::decide(&plan, Some(stored_at), now_ms)
        {
            match PageEntry::from_vec(bytes) {
                Ok(page) => return (Lookup::Page(page, d), keys),
                Err(e) => warn(&keys.page, &e),
            }
        }
        (from_decision(policy::decide(&plan, None, now_ms)), keys)
    }

    /// Stores what a live fetch produced, as far as [`key::cacheable`]
    /// allows: the page under `keys.page`, the response document under
    /// `keys.result`, both as stored at `now_ms`.
    pub async fn save(
        &self,
        url: &Url,
        opts: &ScrapeOptions,
        keys: &CacheKeys,
        page: Option<&PageEntry>,
        doc: Option<&Value>,
        now_ms: i64,
    ) -> Saved {
        let allowed = key::cacheable(url, opts);
        let mut saved = Saved::default();
        if let (true, Some(page)) = (allowed.page, page) {
            let ttl = self.ttl_for(MEDIA_FIELDS.iter().any(|f| page.engine_data.contains_key(*f)));
            // The body is shared with the fetched page, not copied; the
            // gzip bytes it came in, if any, are what the store keeps.
            let (head, body, gz) = (page.head(), page.body.clone(), page.wire_gzip.clone());
            let put = self.store.put_shared(&keys.page, &head, body, gz, now_ms, ttl);
            saved.page = written(&keys.page, put.await);
        }
        if let (true, Some(doc)) = (allowed.result, doc) {
            saved.result = self.write_result(keys, doc, &Escaped::default(), now_ms).await;
        }
        saved
    }

    /// Stores a response document as [`PageCache::save`] does, when it may be
    /// stored ([`key::cacheable`]); then its long strings, escaped for it, are
    /// handed back for the response (`None`: not stored).
    pub async fn save_result(
        &self,
        url: &Url,
        opts: &ScrapeOptions,
        keys: &CacheKeys,
        doc: &Value,
        now_ms: i64,
    ) -> Option<Escaped> {
        if !key::cacheable(url, opts).result {
            return None;
        }
        let escaped = Escaped::of(doc);
        self.write_result(keys, doc, &escaped, now_ms).await;
        Some(escaped)
    }

    async fn write_result(&self, keys: &CacheKeys, doc: &Value, escaped: &Escaped, now_ms: i64) -> bool {
        let ttl = self.ttl_for(MEDIA_FIELDS.iter().any(|f| doc.get(*f).is_some()));
        // The entry's buffer becomes the stored value's body as it is.
        let bytes = bytes::Bytes::from(result_to_bytes_escaped(doc, escaped));
        let put = self.store.put_shared(&keys.result, &[], bytes, None, now_ms, ttl);
        written(&keys.result, put.await)
    }

    /// The store's time to live, capped for entries that point at media.
    fn ttl_for(&self, holds_media: bool) -> Duration {
        if holds_media {
            self.ttl.min(MEDIA_ENTRY_TTL)
        } else {
            self.ttl
        }
    }

    async fn read(&self, key: &str) -> Option<(Vec<u8>, i64)> {
        match self.store.get(key).await {
            Ok(found) => found.map(|s| (s.value, s.stored_at_ms)),
            Err(e) => {
                warn(key, &e);
                None
            }
        }
    }
}

fn from_decision(d: Decision) -> Lookup {
    match d {
        Decision::NoCachedData => Lookup::NoCachedData,
        Decision::LockdownMiss => Lookup::LockdownMiss,
        // `Serve` needs an entry; `decide` only returns it with one.
        other => Lookup::Fetch(other),
    }
}

/// Whether a put went through; a failure is logged.
fn written(key: &str, put: Result<(), StoreError>) -> bool {
    match put {
        Ok(()) => true,
        Err(e) => {
            warn(key, &e);
            false
        }
    }
}

/// Logs a store problem by key (a hash), never by URL.
fn warn(key: &str, e: &StoreError) {
    tracing::warn!(key, error = %e, "cache: entry skipped");
}

#[cfg(test)]
#[path = "page_cache_tests.rs"]
mod tests;
