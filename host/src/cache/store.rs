//! The storage contract every cache backend meets: get, put with a time to
//! live, delete, and size accounting, over opaque byte values. Two backends:
//! the embedded store (redb file in the data directory behind a moka hot tier;
//! the default, no server to run) and the Redis store (shared by several
//! Distill processes, chosen by `DISTILL_CACHE_URL=redis://...`). The
//! `factory` module picks one from the settings; this module imports neither.

use async_trait::async_trait;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Keys under this prefix (change-tracking records) count against the
/// embedded store's size cap but are never evicted for size: a page's last
/// scrape must not vanish because other pages were cached. Only their TTL
/// removes them. (Redis evicts by its own `maxmemory` policy.)
pub const PINNED_PREFIX: &str = "ct:";

/// Default retention of cached pages (`DISTILL_CACHE_TTL_DAYS`): two years,
/// so that lockdown's default `maxAge` of two years can reach what was
/// stored. The embedded store's size cap (oldest first) and Redis's
/// `maxmemory` policy bound the space long before that on a busy server.
pub const DEFAULT_RETENTION_DAYS: u64 = 730;

/// A value read back from the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub value: Vec<u8>,
    /// When it was stored (Unix ms); `cachedAt` is made from this.
    pub stored_at_ms: i64,
    /// When the store stops returning it (Unix ms).
    pub expires_at_ms: i64,
}

/// What a store holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Entries (for Redis: keys under the namespace, expired ones excluded).
    pub entries: u64,
    /// Bytes: the embedded store counts keys + encoded (compressed) values
    /// against its cap; Redis reports the server's `used_memory`.
    pub bytes: u64,
}

/// A store failure. The pipeline should treat any of these as a cache miss
/// (and not store), never as a failed scrape.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cache store: {0}")]
    Backend(String),
    #[error("cache entry corrupt: {0}")]
    Corrupt(String),
    #[error("cache value of {size} bytes exceeds the per-entry limit of {limit} bytes")]
    TooLarge { size: usize, limit: usize },
}

/// The cache storage interface (object safe: the pipeline holds an
/// `Arc<dyn CacheStore>`).
#[async_trait]
pub trait CacheStore: Send + Sync + 'static {
    /// "embedded" or "redis", for logs and `/admin`.
    fn backend(&self) -> &'static str;

    /// The value under `key`, unless absent or expired.
    async fn get(&self, key: &str) -> Result<Option<Stored>, StoreError>;

    /// Stores `value` under `key` as stored at `stored_at_ms`, expiring `ttl`
    /// after that. Replaces any previous value. A value already expired is not
    /// stored.
    async fn put(&self, key: &str, value: &[u8], stored_at_ms: i64, ttl: Duration) -> Result<(), StoreError>;

    /// [`CacheStore::put`] of the value `head` then `body` make (a page
    /// entry's framing and its body, or a document's bytes after no head),
    /// for a backend that can keep `body` where it is instead of joining the
    /// two. `gz`: the body as its origin gzipped it, which a backend that
    /// compresses what it stores may store instead of compressing the body
    /// again.
    async fn put_shared(
        &self,
        key: &str,
        head: &[u8],
        body: bytes::Bytes,
        _gz: Option<bytes::Bytes>,
        stored_at_ms: i64,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        self.put(key, &[head, &body].concat(), stored_at_ms, ttl).await
    }

    /// Removes `key`; true when something was removed.
    async fn delete(&self, key: &str) -> Result<bool, StoreError>;

    /// Entries and bytes held.
    async fn usage(&self) -> Result<Usage, StoreError>;

    /// Bytes the store holds in this process's memory (keys and values of an
    /// in-memory tier, after pending evictions), when it has such a tier.
    async fn memory_bytes(&self) -> Option<u64> {
        None
    }

    /// Writes out anything still queued and makes it durable (graceful
    /// shutdown). Nothing to do for a backend that writes synchronously.
    async fn close(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// Default cap on the embedded store's in-memory hot tier, in MiB
/// (`DISTILL_CACHE_HOT_MIB`). 4 MiB holds a few hundred article-sized
/// entries; entries beyond it are still hits, read from the file and
/// decompressed (60–150 µs, docs/CACHE.md). Was 64, then 16: every fresh
/// scrape puts its page and response here, so any load fills it, and at 16
/// MiB it was the largest part of the server's resident memory under c=16
/// (BENCHMARKS.md, "RSS under c=16").
pub const DEFAULT_HOT_MIB: u64 = 4;

/// Where the cache lives and how big it may grow (from [`crate::config::Config`]).
#[derive(Debug, Clone)]
pub struct CacheSettings {
    /// `redis://...` selects the Redis backend; `None` the embedded store.
    pub url: Option<String>,
    /// The embedded database file.
    pub path: PathBuf,
    /// Cap on the embedded store (keys + encoded values); oldest entries are
    /// evicted past it.
    pub max_bytes: u64,
    /// Cap on the in-memory hot tier in front of the embedded store.
    pub hot_max_bytes: u64,
    /// How long entries live (maxAge still decides what a request accepts).
    pub ttl: Duration,
}

/// Now, in Unix milliseconds.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// `stored_at + ttl`, saturating.
pub fn expiry(stored_at_ms: i64, ttl: Duration) -> i64 {
    stored_at_ms.saturating_add(i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX))
}
