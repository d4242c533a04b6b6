//! What a request accepts from the cache, as pure functions: `maxAge` (serve
//! a copy at most that old, else fetch), `minAge` (only the cache, copies at
//! least that old, else [`Decision::NoCachedData`]), `lockdown` (only the
//! cache, never the target, else [`Decision::LockdownMiss`]), and the
//! `metadata.cacheState` / `cachedAt` a response carries. The pipeline maps
//! the decisions to HTTP (`ApiError::no_cached_data`, `ApiError::lockdown_miss`).

use super::key::is_private_header;
use crate::api::scrape_request::ScrapeOptions;
use serde_json::Value;

/// `metadata.cacheState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheState {
    Hit,
    Miss,
}

impl CacheState {
    pub fn as_str(self) -> &'static str {
        match self {
            CacheState::Hit => "hit",
            CacheState::Miss => "miss",
        }
    }
}

/// Whether the request may fall through to a live fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnlyCache {
    /// Fetch on a miss.
    No,
    /// `minAge` set: a miss is [`Decision::NoCachedData`].
    MinAge,
    /// `lockdown`: a miss is [`Decision::LockdownMiss`]; the target is never contacted.
    Lockdown,
}

/// How one request uses the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Look entries up at all (false: `maxAge: 0`, or options whose results
    /// are never served from a cache: actions, changeTracking, branding,
    /// profile, private headers, credentials in the URL).
    pub consult: bool,
    pub max_age_ms: i64,
    pub min_age_ms: i64,
    pub only_cache: OnlyCache,
}

/// The outcome of a lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Answer from the entry; `cacheState: "hit"`, `cachedAt` from `stored_at_ms`.
    Serve { stored_at_ms: i64 },
    /// Fetch live. `cache_state` is `Some(Miss)` when the cache was consulted,
    /// `None` when it was not (then the response has no `cacheState`).
    Fetch { cache_state: Option<CacheState> },
    /// 404 `SCRAPE_NO_CACHED_DATA`.
    NoCachedData,
    /// 404 `SCRAPE_LOCKDOWN_CACHE_MISS` (do not log the URL).
    LockdownMiss,
}

/// The plan for `opts` (maxAge already defaults to 2 days, 2 years under
/// lockdown, in [`ScrapeOptions`]).
pub fn plan(opts: &ScrapeOptions, url: &url::Url) -> Plan {
    let only_cache = if opts.lockdown {
        OnlyCache::Lockdown
    } else if opts.min_age_ms.is_some() {
        OnlyCache::MinAge
    } else {
        OnlyCache::No
    };
    let eligible = opts.actions.is_empty()
        && !opts.wants("changeTracking")
        && !opts.wants("branding")
        && opts.profile.is_none()
        && !opts.headers.iter().any(|(n, _)| is_private_header(n))
        && url.username().is_empty()
        && url.password().is_none();
    Plan {
        consult: eligible && (opts.max_age_ms > 0 || only_cache != OnlyCache::No),
        max_age_ms: opts.max_age_ms.max(0),
        min_age_ms: opts.min_age_ms.unwrap_or(0).max(0),
        only_cache,
    }
}

/// What to do before any lookup: `Some` when the answer is known without
/// reading the store (not consulted: fetch, or the cache-only error).
pub fn before_lookup(plan: &Plan) -> Option<Decision> {
    if plan.consult {
        return None;
    }
    Some(miss(plan, None))
}

/// The decision given the newest entry found (its `stored_at`), if any.
/// An entry is served when `minAge <= age <= maxAge`.
pub fn decide(plan: &Plan, stored_at_ms: Option<i64>, now_ms: i64) -> Decision {
    if let Some(d) = before_lookup(plan) {
        return d;
    }
    match stored_at_ms {
        Some(at) if (plan.min_age_ms..=plan.max_age_ms).contains(&now_ms.saturating_sub(at).max(0)) => {
            Decision::Serve { stored_at_ms: at }
        }
        _ => miss(plan, Some(CacheState::Miss)),
    }
}

fn miss(plan: &Plan, state: Option<CacheState>) -> Decision {
    match plan.only_cache {
        OnlyCache::Lockdown => Decision::LockdownMiss,
        OnlyCache::MinAge => Decision::NoCachedData,
        OnlyCache::No => Decision::Fetch { cache_state: state },
    }
}

/// Whether the URL and content of this request may appear in logs:
/// not under zero data retention, nor lockdown (which runs as it).
pub fn may_log_url(opts: &ScrapeOptions) -> bool {
    !(opts.zero_data_retention || opts.lockdown)
}

/// Sets `metadata.cacheState` and `metadata.cachedAt` on a response document
/// per the decision (hit: both; consulted miss: `cacheState` only; not
/// consulted: neither, as upstream).
pub fn annotate(doc: &mut Value, decision: &Decision) {
    let Some(meta) = doc.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    match decision {
        Decision::Serve { stored_at_ms } => {
            meta.insert("cacheState".into(), CacheState::Hit.as_str().into());
            meta.insert("cachedAt".into(), iso8601(*stored_at_ms).into());
        }
        Decision::Fetch {
            cache_state: Some(state),
        } => {
            meta.insert("cacheState".into(), state.as_str().into());
            meta.remove("cachedAt");
        }
        _ => {
            meta.remove("cacheState");
            meta.remove("cachedAt");
        }
    }
}

/// `cacheState` and `cachedAt` of a hit on an entry stored at
/// `stored_at_ms`, as serialised JSON values (spliced into a stored document).
pub fn hit_fields(stored_at_ms: i64) -> [(&'static str, String); 2] {
    [
        ("cacheState", format!("\"{}\"", CacheState::Hit.as_str())),
        ("cachedAt", format!("\"{}\"", iso8601(stored_at_ms))),
    ]
}

/// Unix ms as JavaScript's `toISOString()`: `2026-11-24T04:01:12.123Z`.
pub fn iso8601(ms: i64) -> String {
    crate::timestamp::iso8601_ms(ms)
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
