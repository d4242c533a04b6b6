//! The scrape pipeline's side of the page cache (docs/CACHE.md, "Wiring"):
//! the lookup before a scrape (without a cache, the answer a cache-less
//! server gives), the live fetch through the coalescer (its leader stores the
//! page before the waiters are released), and storing the response document.
//! Nothing here logs a URL or content.

use super::error::PipelineError;
use crate::api::ScrapeRequest;
use crate::cache::entry::{DocFacts, PageEntry, StoredResult};
use crate::cache::escaped::Escaped;
use crate::cache::key::{self, CacheKeys};
use crate::cache::policy::{self, Decision};
use crate::cache::store::now_ms;
use crate::cache::{Lookup, PageCache};
use crate::fetch::engine::Engine;
use crate::fetch::{FetchError, FetchedPage};
use crate::services::Services;
use serde_json::Value;
use std::sync::Arc;
use std::time::Instant;
use url::Url;

/// A cache hit's stored response document and the per-request metadata it
/// is served with (`scrapeId`, `sourceURL`, `cacheState: "hit"`, `cachedAt`,
/// and what the route adds, e.g. `creditsUsed`), spliced into the stored
/// JSON without parsing it.
#[derive(Debug)]
pub struct StoredHit {
    stored: StoredResult,
    fields: Vec<(&'static str, String)>,
}

impl StoredHit {
    /// The stored billing facts (`None` for an entry stored before them).
    pub fn facts(&self) -> Option<DocFacts> {
        self.stored.facts()
    }

    /// Adds a `metadata` field: `json` is the value already serialised.
    pub fn add_field(&mut self, name: &'static str, json: String) {
        self.fields.push((name, json));
    }

    /// The response's `data` bytes.
    pub fn into_bytes(self) -> Result<Vec<u8>, PipelineError> {
        let fields: Vec<(&str, &str)> = self.fields.iter().map(|(n, j)| (*n, j.as_str())).collect();
        self.stored
            .complete(&fields)
            .map_err(|_| PipelineError::internal("a stored response that is not JSON"))
    }

    /// The response's `data` as a JSON value (parses the stored document).
    pub fn into_value(self) -> Result<Value, PipelineError> {
        let bytes = self.into_bytes()?;
        serde_json::from_slice(&bytes)
            .map_err(|_| PipelineError::internal("a stored response that is not JSON"))
    }
}

/// Where a request's content comes from.
pub enum Source {
    /// A stored response document.
    Document(StoredHit),
    /// A stored page to render (a hit: no fetch).
    Page(Box<FetchedPage>, Decision),
    /// Fetch live, then annotate with the decision.
    Fetch(Decision),
}

/// What the cache says about `req`, and the keys to store under (`None`
/// without a cache).
pub async fn lookup(
    services: &Services,
    req: &ScrapeRequest,
    scrape_id: &str,
) -> Result<(Source, Option<CacheKeys>), PipelineError> {
    let opts = &req.options;
    let Some(cache) = &services.cache else {
        // Nothing can be consulted: fetch without `cacheState`, or the cache-only 404.
        let plan = policy::Plan {
            consult: false,
            ..policy::plan(opts, &req.url)
        };
        return Ok((source(policy::decide(&plan, None, now_ms()))?, None));
    };
    // A stored response is served only while the plugins that made it are
    // the ones loaded (hot swap changes them).
    let registry = services.plugins.registry();
    let (found, keys) = cache
        .lookup_for(&req.url, opts, registry.renderers(), now_ms())
        .await;
    crate::telemetry::cache_lookup(match &found {
        Lookup::Document(..) | Lookup::Page(..) => "hit",
        _ => "miss",
    });
    let source = match found {
        Lookup::Document(stored, decision) => {
            let Decision::Serve { stored_at_ms } = decision else {
                return Err(PipelineError::internal(
                    "a stored document without a hit decision",
                ));
            };
            let [state, at] = policy::hit_fields(stored_at_ms);
            let id = serde_json::to_string(scrape_id).expect("strings serialise");
            let source_url = serde_json::to_string(&req.url_as_sent).expect("strings serialise");
            let fields = vec![state, at, ("scrapeId", id), ("sourceURL", source_url)];
            // A document stored without a splice point is checked now, so a
            // corrupt one is a miss rather than a failed request.
            if stored.has_splice() || stored.to_value().is_ok() {
                Source::Document(StoredHit { stored, fields })
            } else {
                source(policy::decide(&policy::plan(opts, &req.url), None, now_ms()))?
            }
        }
        // The branding snapshot is taken only by a browser fetch that asked
        // for it: a request for branding fetches again.
        Lookup::Page(_, _) if opts.wants("branding") => {
            source(policy::decide(&policy::plan(opts, &req.url), None, now_ms()))?
        }
        Lookup::Page(page, decision) => match Url::parse(&page.final_url) {
            Ok(final_url) => Source::Page(
                Box::new(FetchedPage {
                    final_url,
                    status: page.status_code,
                    content_type: page.content_type,
                    body: page.body,
                    wire_gzip: page.wire_gzip,
                    engine_data: page.engine_data,
                }),
                decision,
            ),
            // A stored URL that no longer parses: treat as a miss.
            Err(_) => source(policy::decide(&policy::plan(opts, &req.url), None, now_ms()))?,
        },
        Lookup::Fetch(decision) => Source::Fetch(decision),
        Lookup::NoCachedData => return Err(PipelineError::NoCachedData),
        Lookup::LockdownMiss => return Err(PipelineError::LockdownCacheMiss),
    };
    Ok((source, Some(keys)))
}

fn source(decision: Decision) -> Result<Source, PipelineError> {
    match decision {
        Decision::NoCachedData => Err(PipelineError::NoCachedData),
        Decision::LockdownMiss => Err(PipelineError::LockdownCacheMiss),
        other => Ok(Source::Fetch(other)),
    }
}

/// Fetches `req.url` live (with the browser fallback, [`super::fallback`]). When the page may be stored, concurrent identical
/// requests (same page key) share one fetch, and its leader stores the page
/// before the others get it, so later requests find it in the cache; a
/// request waits for another's fetch only until its own deadline. Returns
/// the page and when it was fetched (Unix ms).
pub async fn fetch(
    services: &Services,
    engine: &Arc<dyn Engine>,
    req: &ScrapeRequest,
    keys: Option<&CacheKeys>,
    deadline: Instant,
) -> Result<(Arc<FetchedPage>, i64), PipelineError> {
    let opts = &req.options;
    let live = || async {
        super::fallback::fetch(services, engine, req, deadline)
            .await
            .map(|page| (Arc::new(page), now_ms()))
    };
    let shared = match (&services.cache, keys) {
        (Some(cache), Some(keys)) if key::cacheable(&req.url, opts).page => {
            // A caller waiting on another's fetch waits no longer than its
            // own deadline (the other's may be much later).
            let shared = services.fetches.run(&keys.page, || async {
                let fetched = live().await;
                if let Ok((page, fetched_at)) = &fetched {
                    save_page(cache, req, keys, page, *fetched_at).await;
                }
                fetched
            });
            match tokio::time::timeout_at(deadline.into(), shared).await {
                Ok((fetched, _role)) => fetched,
                Err(_) => Err(FetchError::Timeout {
                    url: req.url.to_string(),
                }),
            }
        }
        _ => live().await,
    };
    shared.map_err(|error| PipelineError::Fetch {
        error,
        timeout_ms: opts.timeout_ms,
    })
}

async fn save_page(cache: &PageCache, req: &ScrapeRequest, keys: &CacheKeys, page: &FetchedPage, at_ms: i64) {
    let entry = PageEntry {
        final_url: page.final_url.to_string(),
        status_code: page.status,
        content_type: page.content_type.clone(),
        headers: Vec::new(),
        engine_data: page.engine_data.clone(),
        body: page.body.clone(),
        wire_gzip: page.wire_gzip.clone(),
    };
    cache
        .save(&req.url, &req.options, keys, Some(&entry), None, at_ms)
        .await;
}

/// Stores the response document (as far as the privacy rules allow), as of
/// `stored_at_ms`: the time its page was fetched, so that `cachedAt` and
/// `maxAge` keep measuring the page's age. When it is stored, its long
/// strings, escaped for the stored copy, come back for the response.
pub async fn save_result(
    services: &Services,
    req: &ScrapeRequest,
    keys: Option<&CacheKeys>,
    doc: &Value,
    stored_at_ms: i64,
) -> Option<Escaped> {
    // Signed media links expire: such a response is rendered afresh each
    // time (its page may still be stored and re-rendered).
    let registry = services.plugins.registry();
    if super::media_formats::media_format(&registry, &req.options).is_some() {
        return None;
    }
    let (Some(cache), Some(keys)) = (&services.cache, keys) else {
        return None;
    };
    cache
        .save_result(&req.url, &req.options, keys, doc, stored_at_ms)
        .await
}
