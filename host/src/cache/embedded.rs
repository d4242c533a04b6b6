//! The default backend: [`super::disk::Disk`] (a redb file in the data
//! directory, capped, oldest evicted first) behind a moka hot tier capped in
//! bytes. Reads try the hot tier, then the file (on a blocking thread) and
//! warm the tier. A put goes into the hot tier at once and is queued for the
//! background [`super::writer`], which compresses it and commits it to the
//! file in batches off the request path; keys the file evicts leave the tier
//! too. The hot tier holds values uncompressed ([`Encoded`]: the header and
//! framing, then the body shared with the fetched page or the result
//! document, not copied) so a hit from memory costs no decompression; the
//! file holds them compressed (a page the origin gzipped: with the origin's
//! gzip bytes), or as they are while it has room.

use super::codec;
use super::disk::{Disk, FLUSH_EVERY};
use super::encoded::Encoded;
use super::store::{CacheStore, StoreError, Stored, Usage, expiry, now_ms};
use super::writer::{GzipTail, HotTier, Writer};
use async_trait::async_trait;
use moka::future::Cache;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Size caps of the two tiers.
#[derive(Debug, Clone, Copy)]
pub struct EmbeddedOptions {
    /// Cap on the file's contents (keys + encoded values).
    pub max_bytes: u64,
    /// Cap on the hot tier (keys + encoded values).
    pub hot_max_bytes: u64,
}

/// How often the flusher task also removes expired entries from the file.
pub const PURGE_EVERY: Duration = Duration::from_secs(3600);

/// The embedded store (one per data directory: redb locks its file).
pub struct EmbeddedStore {
    // Dropped first: drains the write queue into the file.
    writer: Writer,
    disk: Arc<Disk>,
    hot: HotTier,
}

impl EmbeddedStore {
    /// Opens or creates the file at `path`. Blocking (call from a blocking
    /// thread or at start-up).
    pub fn open(path: &Path, opts: EmbeddedOptions) -> Result<EmbeddedStore, StoreError> {
        let disk = Disk::open(path, opts.max_bytes)?;
        let hot = Cache::builder()
            .max_capacity(opts.hot_max_bytes)
            .weigher(|k: &String, v: &Encoded| u32::try_from(k.len() + v.len()).unwrap_or(u32::MAX))
            .build();
        let disk = Arc::new(disk);
        let writer = Writer::start(disk.clone(), hot.clone());
        Ok(EmbeddedStore { writer, disk, hot })
    }

    /// Writes everything queued to the file and makes it durable (also done
    /// once a second by [`EmbeddedStore::start_flusher`], and on close).
    pub async fn flush(&self) -> Result<bool, StoreError> {
        self.writer.sync().await?;
        let disk = self.disk.clone();
        blocking(move || disk.flush()).await
    }

    /// Spawns the task that makes writes durable within [`FLUSH_EVERY`] even
    /// when no further write comes, and purges expired entries every
    /// `purge_every`; it ends when the store is dropped. Needs a tokio
    /// runtime ([`super::factory::open`] calls it).
    pub fn start_flusher(self: &Arc<Self>, purge_every: Duration) {
        let store = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(FLUSH_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            let mut last_purge = tokio::time::Instant::now();
            loop {
                tick.tick().await;
                let Some(store) = store.upgrade() else {
                    break;
                };
                let disk = store.disk.clone();
                if let Ok(Err(e)) = tokio::task::spawn_blocking(move || disk.flush()).await {
                    tracing::warn!(error = %e, "cache: flush failed");
                }
                if last_purge.elapsed() >= purge_every {
                    last_purge = tokio::time::Instant::now();
                    match store.purge_expired().await {
                        Ok(n) => tracing::debug!(removed = n, "cache: expired entries purged"),
                        Err(e) => tracing::warn!(error = %e, "cache: purge failed"),
                    }
                }
            }
        });
    }

    /// File writes dropped because the write queue was full.
    pub fn dropped_writes(&self) -> u64 {
        self.writer.dropped()
    }

    /// Removes expired entries from the file (full scan; the flusher runs it
    /// every [`PURGE_EVERY`]).
    pub async fn purge_expired(&self) -> Result<usize, StoreError> {
        self.writer.sync().await?;
        let disk = self.disk.clone();
        let removed = blocking(move || disk.purge_expired(now_ms())).await?;
        for k in &removed {
            self.hot.invalidate(k).await;
        }
        Ok(removed.len())
    }

    /// A put: the value `head` then `body` make goes into the hot tier and
    /// is queued for the file (with the gzip stream its body came in, if
    /// any). Only the header and `head` are copied: the hot tier, the
    /// pending map and the writer share `body`.
    async fn put_value(
        &self,
        key: &str,
        head: &[u8],
        body: bytes::Bytes,
        tail: Option<GzipTail>,
        stored_at_ms: i64,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let expires = expiry(stored_at_ms, ttl);
        if expires <= now_ms() {
            return Ok(());
        }
        let raw = Encoded::new(head, body, stored_at_ms, expires);
        if self.disk.check_len(key, raw.len()).is_err() {
            // Only a value this large pays for compressing on the caller's side.
            self.disk.check_size(key, &codec::compact(&raw.to_vec())?)?;
        }
        self.hot.insert(key.to_string(), raw.clone()).await;
        self.writer.put_with(key, raw, tail);
        Ok(())
    }

    /// Entries currently in the hot tier (after pending maintenance).
    pub async fn hot_entries(&self) -> u64 {
        self.hot.run_pending_tasks().await;
        self.hot.entry_count()
    }
}

/// Runs a disk operation on tokio's blocking pool.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| StoreError::Backend(format!("cache task: {e}")))?
}

/// Decodes an encoded value held in memory; `None` when it has expired.
fn live(encoded: &Encoded) -> Result<Option<Stored>, StoreError> {
    if encoded.header()?.expires_at_ms <= now_ms() {
        return Ok(None);
    }
    encoded.decode().map(Some)
}

/// [`live`] of a value read from the file.
fn live_stored(encoded: &[u8]) -> Result<Option<Stored>, StoreError> {
    if codec::header(encoded)?.expires_at_ms <= now_ms() {
        return Ok(None);
    }
    codec::decode(encoded).map(Some)
}

#[async_trait]
impl CacheStore for EmbeddedStore {
    fn backend(&self) -> &'static str {
        "embedded"
    }

    async fn get(&self, key: &str) -> Result<Option<Stored>, StoreError> {
        let in_memory = match self.hot.get(key).await {
            Some(v) => Some(v),
            None => self.writer.pending().get(key),
        };
        if let Some(encoded) = in_memory {
            let found = live(&encoded)?;
            if found.is_none() {
                self.hot.invalidate(key).await;
            }
            return Ok(found);
        }
        let disk = self.disk.clone();
        let k = key.to_string();
        let Some(encoded) = blocking(move || disk.get(&k)).await? else {
            return Ok(None);
        };
        let found = live_stored(&encoded)?;
        if let Some(s) = &found {
            let body = bytes::Bytes::copy_from_slice(&s.value);
            let raw = Encoded::new(&[], body, s.stored_at_ms, s.expires_at_ms);
            // or_insert: a put that raced this read already put the newer value.
            self.hot.entry(key.to_string()).or_insert(raw).await;
        }
        Ok(found)
    }

    async fn put(&self, key: &str, value: &[u8], stored_at_ms: i64, ttl: Duration) -> Result<(), StoreError> {
        self.put_value(key, value, bytes::Bytes::new(), None, stored_at_ms, ttl)
            .await
    }

    async fn put_shared(
        &self,
        key: &str,
        head: &[u8],
        body: bytes::Bytes,
        gz: Option<bytes::Bytes>,
        stored_at_ms: i64,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let tail = gz.map(|gz| GzipTail {
            plain: head.len(),
            gz,
        });
        self.put_value(key, head, body, tail, stored_at_ms, ttl).await
    }

    async fn delete(&self, key: &str) -> Result<bool, StoreError> {
        self.hot.invalidate(key).await;
        self.writer.pending().remove(key);
        let removed = self.writer.delete(key).await;
        self.hot.invalidate(key).await;
        removed
    }

    async fn close(&self) -> Result<(), StoreError> {
        self.flush().await.map(|_| ())
    }

    async fn memory_bytes(&self) -> Option<u64> {
        self.hot.run_pending_tasks().await;
        Some(self.hot.weighted_size())
    }

    async fn usage(&self) -> Result<Usage, StoreError> {
        self.writer.sync().await?;
        let disk = self.disk.clone();
        blocking(move || disk.usage()).await
    }
}
