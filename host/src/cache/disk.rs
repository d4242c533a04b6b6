//! The embedded database under the hot tier: one redb file in the data
//! directory. Three tables: `entries` (key → encoded value, see
//! [`super::codec`]), `age` ((stored_at, key) → accounted bytes; the eviction
//! order) and `stats` (running totals). Every put is one write transaction
//! that also evicts the oldest entries once the total passes the cap, so the
//! totals can never drift from the data. redb's copy-on-write commits make a
//! kill -9 at any point leave a consistent earlier state (tested).
//!
//! Durability: an fsync per commit costs 5–7 ms on the measured disk (150–200
//! puts/s, docs/CACHE.md), so commits are non-durable and one durable commit
//! follows at most [`FLUSH_EVERY`] later (on the next write, or from the
//! flusher task [`super::embedded`] runs, or on close). A kill -9 or power
//! cut loses at most that last second of cache writes, never the file.
//! Durable commits save redb's allocator state ("quick repair"), so the
//! first open after a crash does not walk the whole file.
//! Synchronous: [`super::embedded`] calls it from blocking threads.

use super::codec;
use super::store::{StoreError, Usage};
use crate::reopen_db::ReopeningDb;
use redb::{
    Database, Durability, ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition,
    WriteTransaction,
};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

const ENTRIES: TableDefinition<&str, &[u8]> = TableDefinition::new("entries");
const AGE: TableDefinition<(i64, &str), u64> = TableDefinition::new("age");
const STATS: TableDefinition<&str, u64> = TableDefinition::new("stats");
const BYTES: &str = "bytes";
const COUNT: &str = "entries";

/// redb's own page cache; the moka tier in front holds the hot values, so
/// this serves the B-tree pages of lookups and the entries read back. redb
/// moves every page a commit wrote into it, so with writes on every fresh
/// scrape it filled with just-written entries (256 KiB pages for a 500 KB
/// page's) that the hot tier already held: was 32 MiB (filled under a
/// crawl, docs/ROBUSTNESS.md "Memory"), then 16 MiB, which a c=16 burst
/// filled (BENCHMARKS.md, "RSS under c=16").
const PAGE_CACHE_BYTES: usize = 4 << 20;
/// While the file's contents (keys + stored values) are under
/// `1 / RAW_WHILE_UNDER` of the cap, the writer stores values uncompressed
/// ([`Disk::has_room_for_raw`]): disk the operator gave the cache costs no
/// CPU to use, and past this share values are compressed again, so the
/// oldest-first eviction at the cap removes the uncompressed ones first and a
/// full cache holds as many entries as before (docs/CACHE.md, "Compression").
pub const RAW_WHILE_UNDER: u64 = 2;
/// Longest time a commit stays non-durable.
pub const FLUSH_EVERY: Duration = Duration::from_secs(1);

impl From<redb::Error> for StoreError {
    fn from(e: redb::Error) -> Self {
        StoreError::Backend(e.to_string())
    }
}

macro_rules! from_redb {
    ($($t:ty),*) => {$(
        impl From<$t> for StoreError {
            fn from(e: $t) -> Self {
                StoreError::Backend(e.to_string())
            }
        }
    )*};
}
from_redb!(
    redb::DatabaseError,
    redb::TransactionError,
    redb::TableError,
    redb::StorageError,
    redb::CommitError,
    redb::SetDurabilityError
);

/// The redb file with its size cap.
pub struct Disk {
    /// Reopened after an I/O error (a full or read-only disk), so the cache
    /// works again once the disk does.
    db: ReopeningDb,
    max_bytes: u64,
    /// Accounted bytes (the `stats` total) as of the last commit.
    contents: AtomicU64,
    /// Non-durable commits since the last durable one.
    dirty: AtomicBool,
    last_durable: Mutex<Instant>,
}

/// What a write removed besides its own key (the hot tier drops these too).
pub type Evicted = Vec<String>;

impl Disk {
    /// Opens (or creates) the database file; creates the parent directory.
    pub fn open(path: &Path, max_bytes: u64) -> Result<Disk, StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| StoreError::Backend(format!("creating {}: {e}", dir.display())))?;
        }
        let db = open_file(path)?;
        let w = db.begin_write()?;
        let contents;
        {
            w.open_table(ENTRIES)?;
            w.open_table(AGE)?;
            contents = w.open_table(STATS)?.get(BYTES)?.map(|g| g.value()).unwrap_or(0);
        }
        w.commit()?;
        Ok(Disk {
            db: ReopeningDb::new(path, open_file, db),
            max_bytes,
            contents: AtomicU64::new(contents),
            dirty: AtomicBool::new(false),
            last_durable: Mutex::new(Instant::now()),
        })
    }

    /// A write transaction: durable when the last durable commit is
    /// [`FLUSH_EVERY`] old, else non-durable. Returns whether it is durable.
    fn begin(&self) -> Result<(WriteTransaction, bool), StoreError> {
        let mut w = self.db.begin_write()?;
        let durable = self.last_durable.lock().expect("disk lock").elapsed() >= FLUSH_EVERY;
        if durable {
            // Saves the allocator state with the commit: reopening after a
            // crash takes ~70 ms instead of a full walk (~400 ms per GiB).
            w.set_quick_repair(true);
        } else {
            w.set_durability(Durability::None)?;
        }
        Ok((w, durable))
    }

    /// Commits `w` and records whether the file is now durable.
    fn commit(&self, w: WriteTransaction, durable: bool) -> Result<(), StoreError> {
        self.db.commit(w)?;
        if durable {
            *self.last_durable.lock().expect("disk lock") = Instant::now();
            self.dirty.store(false, Ordering::SeqCst);
        } else {
            self.dirty.store(true, Ordering::SeqCst);
        }
        Ok(())
    }

    /// Makes every commit so far durable (one fsync'd empty commit), if any
    /// is not. Returns whether it had to.
    pub fn flush(&self) -> Result<bool, StoreError> {
        if !self.dirty.load(Ordering::SeqCst) {
            return Ok(false);
        }
        let mut w = self.db.begin_write()?;
        w.set_quick_repair(true);
        self.commit(w, true)?;
        Ok(true)
    }

    /// Largest single entry accepted: a quarter of the cap.
    pub fn entry_limit(&self) -> usize {
        usize::try_from(self.max_bytes / 4).unwrap_or(usize::MAX)
    }

    /// Whether a value is now stored uncompressed: the contents are under
    /// `1 / RAW_WHILE_UNDER` of the cap ([`RAW_WHILE_UNDER`]).
    pub fn has_room_for_raw(&self) -> bool {
        self.contents.load(Ordering::Relaxed) < self.max_bytes / RAW_WHILE_UNDER
    }

    /// The encoded value under `key`.
    pub fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let r = self.db.begin_read()?;
        let t = self.db.check(r.open_table(ENTRIES))?;
        Ok(self.db.check(t.get(key))?.map(|g| g.value().to_vec()))
    }

    /// Stores an encoded value, then evicts oldest-first down to 90 % of the
    /// cap if the total passed it. Returns the evicted keys.
    pub fn put(&self, key: &str, encoded: &[u8]) -> Result<Evicted, StoreError> {
        self.check_size(key, encoded)?;
        self.put_many(&[(key, encoded)])
    }

    /// Refuses an entry over [`Disk::entry_limit`].
    pub fn check_size(&self, key: &str, encoded: &[u8]) -> Result<(), StoreError> {
        let size = key.len() + encoded.len();
        if size > self.entry_limit() {
            return Err(StoreError::TooLarge {
                size,
                limit: self.entry_limit(),
            });
        }
        Ok(())
    }

    /// Stores several encoded values in one transaction (the background
    /// writer's batches), in order, then evicts as [`Disk::put`] does.
    /// Entries over the limit are skipped.
    pub fn put_many(&self, items: &[(&str, &[u8])]) -> Result<Evicted, StoreError> {
        let (w, durable) = self.begin()?;
        let (evicted, total);
        {
            let mut entries = w.open_table(ENTRIES)?;
            let mut age = w.open_table(AGE)?;
            let mut stats = w.open_table(STATS)?;
            let mut bytes = stats.get(BYTES)?.map(|g| g.value()).unwrap_or(0);
            let mut count = stats.get(COUNT)?.map(|g| g.value()).unwrap_or(0);
            for &(key, encoded) in items {
                if self.check_size(key, encoded).is_err() {
                    continue;
                }
                let size = key.len() + encoded.len();
                let stored_at = codec::header(encoded)?.stored_at_ms;
                let old = entries
                    .insert(key, encoded)?
                    .map(|g| (codec::header(g.value()).map(|h| h.stored_at_ms), g.value().len()));
                if let Some((old_stored, old_len)) = old {
                    if let Ok(old_stored) = old_stored {
                        age.remove((old_stored, key))?;
                    }
                    bytes = bytes.saturating_sub((key.len() + old_len) as u64);
                    count = count.saturating_sub(1);
                }
                if evictable(key) {
                    age.insert((stored_at, key), size as u64)?;
                }
                bytes += size as u64;
                count += 1;
            }
            evicted = if bytes > self.max_bytes {
                let target = self.max_bytes - self.max_bytes / 10;
                evict_oldest(&mut entries, &mut age, &mut bytes, &mut count, target)?
            } else {
                Vec::new()
            };
            stats.insert(BYTES, bytes)?;
            stats.insert(COUNT, count)?;
            total = bytes;
        }
        self.commit(w, durable)?;
        self.contents.store(total, Ordering::Relaxed);
        Ok(evicted)
    }

    /// Removes `key`; true when it was there.
    pub fn delete(&self, key: &str) -> Result<bool, StoreError> {
        let (w, durable) = self.begin()?;
        let removed;
        let mut total = None;
        {
            let mut entries = w.open_table(ENTRIES)?;
            let mut age = w.open_table(AGE)?;
            let mut stats = w.open_table(STATS)?;
            let old = entries
                .remove(key)?
                .map(|g| (codec::header(g.value()).map(|h| h.stored_at_ms), g.value().len()));
            removed = old.is_some();
            if let Some((old_stored, old_len)) = old {
                if let Ok(s) = old_stored {
                    age.remove((s, key))?;
                }
                let bytes = stats.get(BYTES)?.map(|g| g.value()).unwrap_or(0);
                let count = stats.get(COUNT)?.map(|g| g.value()).unwrap_or(0);
                let bytes = bytes.saturating_sub((key.len() + old_len) as u64);
                stats.insert(BYTES, bytes)?;
                stats.insert(COUNT, count.saturating_sub(1))?;
                total = Some(bytes);
            }
        }
        self.commit(w, durable)?;
        if let Some(bytes) = total {
            self.contents.store(bytes, Ordering::Relaxed);
        }
        Ok(removed)
    }

    /// Removes every entry expired at `now_ms` (a full scan: run it now and
    /// then, not per request). Returns the removed keys.
    pub fn purge_expired(&self, now_ms: i64) -> Result<Evicted, StoreError> {
        let expired: Vec<String> = {
            let r = self.db.begin_read()?;
            let t = r.open_table(ENTRIES)?;
            let mut out = Vec::new();
            for item in t.iter()? {
                let (k, v) = item?;
                if codec::header(v.value()).is_ok_and(|h| h.expires_at_ms <= now_ms) {
                    out.push(k.value().to_string());
                }
            }
            out
        };
        for k in &expired {
            self.delete(k)?;
        }
        Ok(expired)
    }

    /// Entries and accounted bytes (keys + encoded values).
    pub fn usage(&self) -> Result<Usage, StoreError> {
        let r = self.db.begin_read()?;
        let stats = r.open_table(STATS)?;
        Ok(Usage {
            entries: stats.get(COUNT)?.map(|g| g.value()).unwrap_or(0),
            bytes: stats.get(BYTES)?.map(|g| g.value()).unwrap_or(0),
        })
    }

    /// Checks the file (redb's own check, then that every entry decodes and
    /// the totals match the tables). For tests and `distill` start-up checks.
    pub fn verify(path: &Path) -> Result<Usage, StoreError> {
        let mut db = Database::builder().set_cache_size(PAGE_CACHE_BYTES).open(path)?;
        if !db.check_integrity()? {
            return Err(StoreError::Corrupt(
                "redb integrity check repaired the file".into(),
            ));
        }
        let r = db.begin_read()?;
        let entries = r.open_table(ENTRIES)?;
        let age = r.open_table(AGE)?;
        let stats = r.open_table(STATS)?;
        let (mut bytes, mut count, mut aged) = (0u64, 0u64, 0u64);
        for item in entries.iter()? {
            let (k, v) = item?;
            let s = super::codec::decode(v.value())?;
            let accounted = age.get((s.stored_at_ms, k.value()))?.map(|g| g.value());
            let size = (k.value().len() + v.value().len()) as u64;
            let want_row = evictable(k.value()).then_some(size);
            if accounted != want_row {
                return Err(StoreError::Corrupt(format!("age row of {} wrong", k.value())));
            }
            bytes += size;
            count += 1;
            aged += u64::from(want_row.is_some());
        }
        let want = Usage {
            entries: stats.get(COUNT)?.map(|g| g.value()).unwrap_or(0),
            bytes: stats.get(BYTES)?.map(|g| g.value()).unwrap_or(0),
        };
        if want
            != (Usage {
                entries: count,
                bytes,
            })
            || age.len()? != aged
        {
            return Err(StoreError::Corrupt(format!(
                "totals {want:?} vs tables {count} entries, {bytes} bytes"
            )));
        }
        Ok(want)
    }
}

/// Opens (or creates) the file with the cache's page-cache size.
fn open_file(path: &Path) -> Result<Database, redb::DatabaseError> {
    Database::builder().set_cache_size(PAGE_CACHE_BYTES).create(path)
}

impl Drop for Disk {
    /// A clean close leaves nothing non-durable.
    fn drop(&mut self) {
        if let Err(e) = self.flush() {
            tracing::warn!(error = %e, "cache: final flush failed");
        }
    }
}

/// Whether size eviction may remove `key` (change-tracking records,
/// [`super::store::PINNED_PREFIX`], only leave by their TTL).
fn evictable(key: &str) -> bool {
    !key.starts_with(super::store::PINNED_PREFIX)
}

/// Pops the oldest rows of `age` (and their entries) until `bytes <= target`.
fn evict_oldest(
    entries: &mut redb::Table<&str, &[u8]>,
    age: &mut redb::Table<(i64, &str), u64>,
    bytes: &mut u64,
    count: &mut u64,
    target: u64,
) -> Result<Evicted, StoreError> {
    let mut evicted = Vec::new();
    while *bytes > target {
        let Some((key, size)) = age
            .pop_first()?
            .map(|(k, v)| (k.value().1.to_string(), v.value()))
        else {
            break;
        };
        entries.remove(key.as_str())?;
        *bytes = bytes.saturating_sub(size);
        *count = count.saturating_sub(1);
        evicted.push(key);
    }
    Ok(evicted)
}
