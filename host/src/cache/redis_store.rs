//! The shared backend: one Redis for several Distill processes
//! (`DISTILL_CACHE_URL=redis://host:port/db`). Keys live under
//! `distill:cache:`; values are the same encoded bytes as the embedded store
//! ([`super::codec`]), set with `EX` so Redis drops them at expiry. Size is
//! bounded by the server (`maxmemory` with an `allkeys-lru` or
//! `volatile-ttl` policy), not by Distill. One multiplexed
//! `ConnectionManager` (reconnects by itself); a 2 s response timeout so a
//! stalled Redis degrades to cache misses instead of hanging scrapes.

use super::codec;
use super::store::{CacheStore, StoreError, Stored, Usage, expiry, now_ms};
use async_trait::async_trait;
use redis::AsyncCommands;
use redis::aio::ConnectionManager;
use std::time::Duration;

/// Prefix of every key Distill writes.
pub const NAMESPACE: &str = "distill:cache:";

impl From<redis::RedisError> for StoreError {
    fn from(e: redis::RedisError) -> Self {
        StoreError::Backend(format!("redis: {e}"))
    }
}

/// A Redis-backed [`CacheStore`].
#[derive(Clone)]
pub struct RedisStore {
    conn: ConnectionManager,
    namespace: String,
}

impl RedisStore {
    /// Connects to `url` (`redis://[user:pass@]host:port[/db]`).
    pub async fn connect(url: &str) -> Result<RedisStore, StoreError> {
        RedisStore::connect_with_namespace(url, NAMESPACE).await
    }

    /// As [`RedisStore::connect`] with another key prefix (tests, or two
    /// deployments sharing one Redis).
    pub async fn connect_with_namespace(url: &str, namespace: &str) -> Result<RedisStore, StoreError> {
        let conn = crate::redis_conn::connect(url, Duration::from_secs(2)).await?;
        Ok(RedisStore {
            conn,
            namespace: namespace.to_string(),
        })
    }

    fn key(&self, key: &str) -> String {
        format!("{}{key}", self.namespace)
    }
}

#[async_trait]
impl CacheStore for RedisStore {
    fn backend(&self) -> &'static str {
        "redis"
    }

    async fn get(&self, key: &str) -> Result<Option<Stored>, StoreError> {
        let mut c = self.conn.clone();
        let bytes: Option<Vec<u8>> = c.get(self.key(key)).await?;
        let Some(bytes) = bytes else {
            return Ok(None);
        };
        if codec::header(&bytes)?.expires_at_ms <= now_ms() {
            return Ok(None);
        }
        codec::decode(&bytes).map(Some)
    }

    async fn put(&self, key: &str, value: &[u8], stored_at_ms: i64, ttl: Duration) -> Result<(), StoreError> {
        let expires = expiry(stored_at_ms, ttl);
        let left_ms = expires.saturating_sub(now_ms());
        if left_ms <= 0 {
            return Ok(());
        }
        let seconds = (left_ms as u64).div_ceil(1000);
        let encoded = codec::encode(value, stored_at_ms, expires);
        let mut c = self.conn.clone();
        let () = c.set_ex(self.key(key), encoded, seconds).await?;
        Ok(())
    }

    async fn delete(&self, key: &str) -> Result<bool, StoreError> {
        let mut c = self.conn.clone();
        let n: u64 = c.del(self.key(key)).await?;
        Ok(n > 0)
    }

    /// Keys under the namespace (a SCAN: O(keys), for admin use) and the
    /// server's `used_memory`.
    async fn usage(&self) -> Result<Usage, StoreError> {
        let mut c = self.conn.clone();
        let pattern = format!("{}*", self.namespace);
        let mut cursor: u64 = 0;
        let mut entries = 0u64;
        loop {
            let (next, keys): (u64, Vec<String>) = redis::cmd("SCAN")
                .arg(cursor)
                .arg("MATCH")
                .arg(&pattern)
                .arg("COUNT")
                .arg(1000)
                .query_async(&mut c)
                .await?;
            entries += keys.len() as u64;
            cursor = next;
            if cursor == 0 {
                break;
            }
        }
        let info: String = redis::cmd("INFO").arg("memory").query_async(&mut c).await?;
        let bytes = info
            .lines()
            .find_map(|l| l.strip_prefix("used_memory:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        Ok(Usage { entries, bytes })
    }
}
