//! Counters in a redb file of their own in the data directory (the default
//! backend of a single server). Every change is one write transaction,
//! committed before the caller goes on: a credit spent is on disk (fsync'd)
//! when `add_within` returns, so a crash or `kill -9` right after loses
//! nothing — unlike the page cache's store, whose writes are queued and may
//! be dropped under back-pressure. Counters whose key starts with one of the
//! `volatile` prefixes (per-minute rate windows) are committed without the
//! fsync: a crash may forget the last second of them, which only lets a
//! client a few more requests in one minute. redb serialises write
//! transactions, so read-modify-write is atomic. Expired counters are purged
//! every [`PURGE_EVERY`] writes.

use super::counters::{CounterError, Counters, shifted};
use crate::cache::store::now_ms;
use async_trait::async_trait;
use redb::{Database, Durability, ReadableDatabase, ReadableTable, TableDefinition};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// key → (value, expires at Unix ms) as 16 little-endian bytes.
const COUNTERS: TableDefinition<&str, [u8; 16]> = TableDefinition::new("counters");

/// Writes between two purges of expired counters.
const PURGE_EVERY: u64 = 1000;

/// redb's page cache for the counters file: a few small rows per key, so a
/// few MiB hold them all (redb's default, 1 GiB, is no bound for a server
/// meant to stay under 100 MiB).
const PAGE_CACHE_BYTES: usize = 4 << 20;

pub struct FileCounters {
    db: Arc<Database>,
    volatile: &'static [&'static str],
    writes: AtomicU64,
}

fn err(e: impl std::fmt::Display) -> CounterError {
    CounterError(format!("limits file: {e}"))
}

fn decode(bytes: [u8; 16]) -> (i64, i64) {
    let (v, e) = bytes.split_at(8);
    (
        i64::from_le_bytes(v.try_into().expect("8 bytes")),
        i64::from_le_bytes(e.try_into().expect("8 bytes")),
    )
}

fn encode(value: i64, expires: i64) -> [u8; 16] {
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&value.to_le_bytes());
    out[8..].copy_from_slice(&expires.to_le_bytes());
    out
}

impl FileCounters {
    /// Opens or creates the file (blocking: call at start-up).
    pub fn open(path: &Path, volatile: &'static [&'static str]) -> Result<FileCounters, CounterError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        let db = Database::builder()
            .set_cache_size(PAGE_CACHE_BYTES)
            .create(path)
            .map_err(err)?;
        let w = db.begin_write().map_err(err)?;
        w.open_table(COUNTERS).map_err(err)?;
        w.commit().map_err(err)?;
        Ok(FileCounters {
            db: Arc::new(db),
            volatile,
            writes: AtomicU64::new(0),
        })
    }

    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Database) -> Result<T, CounterError> + Send + 'static,
    ) -> Result<T, CounterError> {
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || f(&db)).await.map_err(err)?
    }

    /// Adds `entries` (key, value, expires at ms) to the counters in one
    /// durable transaction recording `marker`; false (nothing changed) when
    /// the marker is already there. Blocking.
    pub fn import_once(&self, marker: &str, entries: &[(String, i64, i64)]) -> Result<bool, CounterError> {
        let now = now_ms();
        let w = self.db.begin_write().map_err(err)?;
        {
            let mut table = w.open_table(COUNTERS).map_err(err)?;
            if table.get(marker).map_err(err)?.is_some() {
                return Ok(false);
            }
            for (key, value, expires) in entries {
                let current = table.get(key.as_str()).map_err(err)?.map(|g| decode(g.value()));
                let (sum, expires) = match current {
                    Some((v, e)) if e > now => (v.saturating_add(*value), e.max(*expires)),
                    _ => (*value, *expires),
                };
                table.insert(key.as_str(), encode(sum, expires)).map_err(err)?;
            }
            table.insert(marker, encode(1, i64::MAX)).map_err(err)?;
        }
        w.commit().map_err(err)?;
        Ok(true)
    }

    fn purge(db: &Database, now: i64) -> Result<(), CounterError> {
        let mut w = db.begin_write().map_err(err)?;
        w.set_durability(Durability::None).map_err(err)?;
        {
            let mut table = w.open_table(COUNTERS).map_err(err)?;
            table.retain(|_, bytes| decode(bytes).1 > now).map_err(err)?;
        }
        w.commit().map_err(err)
    }
}

#[async_trait]
impl Counters for FileCounters {
    async fn get(&self, key: &str) -> Result<i64, CounterError> {
        let key = key.to_string();
        self.blocking(move |db| {
            let r = db.begin_read().map_err(err)?;
            let table = r.open_table(COUNTERS).map_err(err)?;
            let found = table.get(key.as_str()).map_err(err)?.map(|g| decode(g.value()));
            Ok(found
                .filter(|(_, expires)| *expires > now_ms())
                .map_or(0, |(v, _)| v))
        })
        .await
    }

    async fn add_within(
        &self,
        key: &str,
        delta: i64,
        limit: i64,
        ttl: Duration,
        refresh_ttl: bool,
    ) -> Result<Option<i64>, CounterError> {
        let volatile = self.volatile.iter().any(|p| key.starts_with(p));
        let purge = self.writes.fetch_add(1, Ordering::Relaxed) % PURGE_EVERY == PURGE_EVERY - 1;
        let key = key.to_string();
        self.blocking(move |db| {
            let now = now_ms();
            let mut w = db.begin_write().map_err(err)?;
            if volatile {
                w.set_durability(Durability::None).map_err(err)?;
            }
            let next = {
                let mut table = w.open_table(COUNTERS).map_err(err)?;
                let current = table.get(key.as_str()).map_err(err)?.map(|g| decode(g.value()));
                let fresh_expiry = now.saturating_add(ttl.as_millis().min(i64::MAX as u128) as i64);
                let (value, expires) = match current {
                    Some((v, e)) if e > now => (v, if refresh_ttl { fresh_expiry } else { e }),
                    _ => (0, fresh_expiry),
                };
                let next = value.saturating_add(delta);
                if next > limit {
                    return Ok(None);
                }
                table.insert(key.as_str(), encode(next, expires)).map_err(err)?;
                next
            };
            w.commit().map_err(err)?;
            if purge {
                Self::purge(db, now)?;
            }
            Ok(Some(next))
        })
        .await
    }

    async fn shift_hold(
        &self,
        main: &str,
        hold: &str,
        target: i64,
        limit: i64,
        ttl: Duration,
        hold_ttl: Duration,
    ) -> Result<Option<i64>, CounterError> {
        let (main, hold) = (main.to_string(), hold.to_string());
        self.blocking(move |db| {
            let now = now_ms();
            let expiry = |ttl: Duration| now.saturating_add(ttl.as_millis().min(i64::MAX as u128) as i64);
            let (fresh_expiry, hold_expiry) = (expiry(ttl), expiry(hold_ttl));
            let w = db.begin_write().map_err(err)?;
            let next = {
                let mut table = w.open_table(COUNTERS).map_err(err)?;
                let live = |k: &str| -> Result<Option<(i64, i64)>, CounterError> {
                    let found = table.get(k).map_err(err)?.map(|g| decode(g.value()));
                    Ok(found.filter(|(_, e)| *e > now))
                };
                let held = live(&hold)?.map_or(0, |(v, _)| v);
                let (value, expires) = live(&main)?.unwrap_or((0, fresh_expiry));
                let Some(next) = shifted(value, held, target, limit) else {
                    return Ok(None);
                };
                table.insert(main.as_str(), encode(next, expires)).map_err(err)?;
                if target == 0 {
                    table.remove(hold.as_str()).map_err(err)?;
                } else {
                    table
                        .insert(hold.as_str(), encode(target, hold_expiry))
                        .map_err(err)?;
                }
                next
            };
            w.commit().map_err(err)?;
            Ok(Some(next))
        })
        .await
    }

    async fn drop_hold(&self, hold: &str) -> Result<(), CounterError> {
        let hold = hold.to_string();
        self.blocking(move |db| {
            let w = db.begin_write().map_err(err)?;
            w.open_table(COUNTERS)
                .map_err(err)?
                .remove(hold.as_str())
                .map_err(err)?;
            w.commit().map_err(err)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("distill-file-counters-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir.join("limits.redb")
    }

    #[tokio::test]
    async fn limits_expiry_and_persistence() {
        let p = path("basic");
        let ttl = Duration::from_secs(3600);
        {
            let c = FileCounters::open(&p, &["rate:"]).unwrap();
            assert_eq!(
                c.add_within("credits:k", 3, 5, ttl, false).await.unwrap(),
                Some(3)
            );
            assert_eq!(c.add_within("credits:k", 3, 5, ttl, false).await.unwrap(), None);
            assert_eq!(c.add("credits:k", 2, ttl).await.unwrap(), 5);
            assert_eq!(c.add("credits:k", -1, ttl).await.unwrap(), 4);
            let short = Duration::from_millis(50);
            assert_eq!(c.add_within("rate:k", 1, 9, short, false).await.unwrap(), Some(1));
            tokio::time::sleep(Duration::from_millis(80)).await;
            assert_eq!(c.get("rate:k").await.unwrap(), 0, "expired");
            assert_eq!(c.add_within("rate:k", 1, 9, short, false).await.unwrap(), Some(1));
        }
        let c = FileCounters::open(&p, &["rate:"]).unwrap();
        assert_eq!(c.get("credits:k").await.unwrap(), 4);
    }

    #[tokio::test]
    async fn concurrent_adds_are_never_lost() {
        let c = Arc::new(FileCounters::open(&path("concurrent"), &[]).unwrap());
        let ttl = Duration::from_secs(3600);
        let tasks: Vec<_> = (0..40)
            .map(|_| {
                let c = c.clone();
                tokio::spawn(async move { c.add_within("credits:k", 1, 30, ttl, false).await.unwrap() })
            })
            .collect();
        let mut taken = 0;
        for t in tasks {
            taken += t.await.unwrap().is_some() as i64;
        }
        assert_eq!((taken, c.get("credits:k").await.unwrap()), (30, 30));
    }

    #[tokio::test]
    async fn holds_are_atomic_and_durable() {
        let p = path("holds");
        let ttl = Duration::from_secs(3600);
        {
            let c = Arc::new(FileCounters::open(&p, &[]).unwrap());
            let tasks: Vec<_> = (0..12)
                .map(|i| {
                    let c = c.clone();
                    tokio::spawn(async move {
                        c.shift_hold("credits:k", &format!("hold:{i}"), 1, 5, ttl, ttl)
                            .await
                            .unwrap()
                    })
                })
                .collect();
            let mut taken = 0;
            for t in tasks {
                taken += t.await.unwrap().is_some() as i64;
            }
            assert_eq!((taken, c.get("credits:k").await.unwrap()), (5, 5));
            // A refund, then a hold kept as spent.
            let held: Vec<i64> = {
                let mut v = Vec::new();
                for i in 0..12 {
                    v.push(c.get(&format!("hold:{i}")).await.unwrap());
                }
                v
            };
            let first = held.iter().position(|h| *h == 1).unwrap();
            let hold = format!("hold:{first}");
            assert_eq!(
                c.shift_hold("credits:k", &hold, 0, 5, ttl, ttl).await.unwrap(),
                Some(4)
            );
            assert_eq!(c.get(&hold).await.unwrap(), 0);
        }
        let c = FileCounters::open(&p, &[]).unwrap();
        assert_eq!(c.get("credits:k").await.unwrap(), 4, "survives a reopen");
    }
}
