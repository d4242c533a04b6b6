//! Counters in a redb file of their own in the data directory (the default
//! backend of a single server). Every change goes through the group
//! committer ([`super::group_commit`]): changes waiting at the same moment
//! share one write transaction, committed before any of their callers goes
//! on — a credit spent is on disk (fsync'd) when `add_within` returns, so a
//! crash or `kill -9` right after loses nothing, unlike the page cache's
//! store, whose writes are queued and may be dropped under back-pressure.
//! A batch whose changes all touch `volatile` prefixes (per-minute rate
//! windows) is committed without the fsync: a crash may forget the last
//! second of them, which only lets a client a few more requests in one
//! minute. One thread applies the changes in order, so read-modify-write is
//! atomic. Expired counters are purged every thousand changes.

use super::counters::{CounterError, Counters, HoldShift};
use super::group_commit::{COUNTERS, Change, Committer, decode, encode};
use crate::cache::store::now_ms;
use async_trait::async_trait;
use redb::{Database, ReadableDatabase, ReadableTable};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// redb's page cache for the counters file: a few small rows per key, so a
/// few MiB hold them all (redb's default, 1 GiB, is no bound for a server
/// meant to stay under 100 MiB).
const PAGE_CACHE_BYTES: usize = 4 << 20;

pub struct FileCounters {
    db: Arc<Database>,
    volatile: &'static [&'static str],
    committer: Committer,
}

fn err(e: impl std::fmt::Display) -> CounterError {
    CounterError(format!("limits file: {e}"))
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
        let db = Arc::new(db);
        Ok(FileCounters {
            committer: Committer::start(db.clone())?,
            db,
            volatile,
        })
    }

    fn is_volatile(&self, key: &str) -> bool {
        self.volatile.iter().any(|p| key.starts_with(p))
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
}

#[async_trait]
impl Counters for FileCounters {
    async fn get(&self, key: &str) -> Result<i64, CounterError> {
        let key = key.to_string();
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || {
            let r = db.begin_read().map_err(err)?;
            let table = r.open_table(COUNTERS).map_err(err)?;
            let found = table.get(key.as_str()).map_err(err)?.map(|g| decode(g.value()));
            Ok(found
                .filter(|(_, expires)| *expires > now_ms())
                .map_or(0, |(v, _)| v))
        })
        .await
        .map_err(err)?
    }

    async fn add_within(
        &self,
        key: &str,
        delta: i64,
        limit: i64,
        ttl: Duration,
        refresh_ttl: bool,
    ) -> Result<Option<i64>, CounterError> {
        let durable = !self.is_volatile(key);
        let change = Change::AddWithin {
            key: key.to_string(),
            delta,
            limit,
            ttl,
            refresh_ttl,
        };
        self.committer.submit(change, durable).await
    }

    async fn shift_hold(&self, shift: &HoldShift) -> Result<Option<i64>, CounterError> {
        let durable = !self.is_volatile(&shift.main);
        self.committer
            .submit(Change::ShiftHold(shift.clone()), durable)
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::counters::tests::to;

    /// A counters file in a fresh directory, removed with the directory.
    fn path(name: &str) -> (crate::test_dir::TestDir, std::path::PathBuf) {
        let dir = crate::test_dir::TestDir::new(&format!("file-counters-{name}"));
        let path = dir.join("limits.redb");
        (dir, path)
    }

    #[tokio::test]
    async fn limits_expiry_and_persistence() {
        let (_dir, p) = path("basic");
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
        let (_dir, p) = path("concurrent");
        let c = Arc::new(FileCounters::open(&p, &[]).unwrap());
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
        let (_dir, p) = path("holds");
        {
            let c = Arc::new(FileCounters::open(&p, &[]).unwrap());
            let tasks: Vec<_> = (0..12)
                .map(|i| {
                    let c = c.clone();
                    tokio::spawn(async move {
                        c.shift_hold(&HoldShift {
                            limit: 5,
                            ..to("credits:k", &format!("hold:{i}"), 1)
                        })
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
                c.shift_hold(&HoldShift {
                    limit: 5,
                    ..to("credits:k", &hold, 0)
                })
                .await
                .unwrap(),
                Some(4)
            );
            assert_eq!(c.get(&hold).await.unwrap(), 0);
        }
        let c = FileCounters::open(&p, &[]).unwrap();
        assert_eq!(c.get("credits:k").await.unwrap(), 4, "survives a reopen");
    }
}
