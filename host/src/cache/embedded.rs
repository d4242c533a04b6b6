//! The default backend: [`super::disk::Disk`] (a redb file in the data
//! directory, capped, oldest evicted first) behind a moka hot tier capped in
//! bytes. Reads try the hot tier, then the file (on a blocking thread) and
//! warm the tier; writes go to the file first, then the tier, and keys the
//! file evicted leave the tier too. Values are kept encoded
//! ([`super::codec`]) in both tiers, so the hot tier holds compressed bytes.

use super::codec;
use super::disk::{Disk, FLUSH_EVERY};
use super::store::{CacheStore, StoreError, Stored, Usage, expiry, now_ms};
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

/// The embedded store (one per data directory: redb locks its file).
pub struct EmbeddedStore {
    disk: Arc<Disk>,
    hot: Cache<String, Arc<[u8]>>,
}

impl EmbeddedStore {
    /// Opens or creates the file at `path`. Blocking (call from a blocking
    /// thread or at start-up).
    pub fn open(path: &Path, opts: EmbeddedOptions) -> Result<EmbeddedStore, StoreError> {
        let disk = Disk::open(path, opts.max_bytes)?;
        let hot = Cache::builder()
            .max_capacity(opts.hot_max_bytes)
            .weigher(|k: &String, v: &Arc<[u8]>| u32::try_from(k.len() + v.len()).unwrap_or(u32::MAX))
            .build();
        Ok(EmbeddedStore {
            disk: Arc::new(disk),
            hot,
        })
    }

    /// Makes every write so far durable (also done once a second by
    /// [`EmbeddedStore::start_flusher`], and on close).
    pub async fn flush(&self) -> Result<bool, StoreError> {
        let disk = self.disk.clone();
        blocking(move || disk.flush()).await
    }

    /// Spawns the task that makes writes durable within [`FLUSH_EVERY`] even
    /// when no further write comes; it ends when the store is dropped.
    /// Needs a tokio runtime ([`super::factory::open`] calls it).
    pub fn start_flusher(&self) {
        let disk = Arc::downgrade(&self.disk);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(FLUSH_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                tick.tick().await;
                let Some(disk) = disk.upgrade() else {
                    break;
                };
                if let Ok(Err(e)) = tokio::task::spawn_blocking(move || disk.flush()).await {
                    tracing::warn!(error = %e, "cache: flush failed");
                }
            }
        });
    }

    /// Removes expired entries from the file (full scan; run periodically).
    pub async fn purge_expired(&self) -> Result<usize, StoreError> {
        let disk = self.disk.clone();
        let removed = blocking(move || disk.purge_expired(now_ms())).await?;
        for k in &removed {
            self.hot.invalidate(k).await;
        }
        Ok(removed.len())
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

/// Decodes an encoded value; `None` when it has expired.
fn live(encoded: &[u8]) -> Result<Option<Stored>, StoreError> {
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
        if let Some(encoded) = self.hot.get(key).await {
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
        let found = live(&encoded)?;
        if found.is_some() {
            // or_insert: a put that raced this read already put the newer value.
            self.hot
                .entry(key.to_string())
                .or_insert(Arc::from(encoded))
                .await;
        }
        Ok(found)
    }

    async fn put(&self, key: &str, value: &[u8], stored_at_ms: i64, ttl: Duration) -> Result<(), StoreError> {
        let expires = expiry(stored_at_ms, ttl);
        if expires <= now_ms() {
            return Ok(());
        }
        let encoded: Arc<[u8]> = Arc::from(codec::encode(value, stored_at_ms, expires));
        let disk = self.disk.clone();
        let (k, e) = (key.to_string(), encoded.clone());
        let evicted = blocking(move || disk.put(&k, &e)).await?;
        let mut self_evicted = false;
        for k in &evicted {
            self_evicted |= k == key;
            self.hot.invalidate(k).await;
        }
        if !self_evicted {
            self.hot.insert(key.to_string(), encoded).await;
        }
        Ok(())
    }

    async fn delete(&self, key: &str) -> Result<bool, StoreError> {
        let disk = self.disk.clone();
        let k = key.to_string();
        let removed = blocking(move || disk.delete(&k)).await;
        self.hot.invalidate(key).await;
        removed
    }

    async fn usage(&self) -> Result<Usage, StoreError> {
        let disk = self.disk.clone();
        blocking(move || disk.usage()).await
    }
}
