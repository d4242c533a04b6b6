//! The embedded database under the hot tier: one redb file in the data
//! directory and its segment files ([`super::segments`]). Four tables:
//! `entries` (key → the encoded value inline when small, else a locator of it
//! in a segment, see [`super::locator`]), `age` ((stored_at, key) → accounted
//! bytes; the eviction order), `stats` (running totals) and `segs` (segment →
//! bytes of live values in it; [`super::compact`]). Every put is one write transaction
//! that also evicts the oldest entries once the total passes the cap (keys and
//! inline values plus the segment files whole, dead bytes too), so the
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
pub use super::compact::Evicted;
use super::compact::{AGE, BYTES, COUNT, ENTRIES, SEGS, STATS, Tables};
use super::locator::{self, INLINE_MAX, Locator};
use super::segments::{self, Segments};
use super::store::{StoreError, Usage};
use crate::reopen_db::ReopeningDb;
use redb::{Database, Durability, ReadableTable, WriteTransaction};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

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
/// A segment holds up to a sixteenth of the cap, between these bounds (the
/// lower one at most an eighth of the cap: the cap counts whole segments).
const SEGMENT_MIN: u64 = 256 << 10;
const SEGMENT_MAX: u64 = 64 << 20;

/// How long a segment grows before the next one starts, for a cap.
pub fn segment_target(max_bytes: u64) -> u64 {
    (max_bytes / 16).clamp(SEGMENT_MIN.min(max_bytes / 8), SEGMENT_MAX)
}

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
    segments: Segments,
    max_bytes: u64,
    /// Accounted bytes (the `stats` total) as of the last commit.
    contents: AtomicU64,
    /// Non-durable commits since the last durable one.
    dirty: AtomicBool,
    last_durable: Mutex<Instant>,
}

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
        let mut live = std::collections::HashSet::new();
        {
            w.open_table(ENTRIES)?;
            w.open_table(AGE)?;
            contents = w.open_table(STATS)?.get(BYTES)?.map(|g| g.value()).unwrap_or(0);
            for row in w.open_table(SEGS)?.iter()? {
                let (id, bytes) = row?;
                if bytes.value() > 0 {
                    live.insert(id.value());
                }
            }
        }
        w.commit()?;
        // Segment files the (durable) file does not point into are what a
        // crash left of non-durable commits: deleted.
        let segments = Segments::open(&segments::dir_for(path), segment_target(max_bytes), |id| {
            live.contains(&id)
        })
        .map_err(|e| StoreError::Backend(format!("cache segments: {e}")))?;
        Ok(Disk {
            db: ReopeningDb::new(path, open_file, db),
            segments,
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

    /// Commits `w` and records whether the file is now durable. A durable
    /// commit first syncs the segments (so the durable state points only at
    /// synced bytes) and afterwards deletes the segments retired so far;
    /// `retire` are the segments `w` stopped pointing into.
    fn commit(&self, w: WriteTransaction, durable: bool, retire: &[u32]) -> Result<(), StoreError> {
        if durable && let Err(e) = self.segments.sync() {
            self.segments.keep_retired();
            return Err(StoreError::Backend(format!("cache segments: {e}")));
        }
        if let Err(e) = self.db.commit(w) {
            self.segments.keep_retired();
            return Err(e.into());
        }
        for &id in retire {
            self.segments.retire(id);
        }
        if durable {
            *self.last_durable.lock().expect("disk lock") = Instant::now();
            self.dirty.store(false, Ordering::SeqCst);
            self.segments.delete_retired();
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
        self.commit(w, true, &[])?;
        Ok(true)
    }

    /// Checks the file and its segments ([`super::disk_verify`]).
    pub fn verify(path: &Path) -> Result<Usage, StoreError> {
        super::disk_verify::verify(path)
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
        // A segment deleted after a compaction moved the value: the second
        // look finds its new locator.
        for _ in 0..3 {
            let at = {
                let r = self.db.begin_read()?;
                let t = self.db.check(r.open_table(ENTRIES))?;
                let Some(g) = self.db.check(t.get(key))? else {
                    return Ok(None);
                };
                match locator::parse(g.value())? {
                    locator::Form::Inline(v) => return Ok(Some(v.to_vec())),
                    locator::Form::At(l) => l,
                }
            };
            let read = self.segments.read(at.segment, at.offset, at.len as usize);
            match read.map_err(|e| StoreError::Backend(format!("cache segment: {e}")))? {
                Some(bytes) => {
                    at.check(&bytes)?;
                    return Ok(Some(bytes));
                }
                None => continue,
            }
        }
        Err(StoreError::Corrupt(format!("{key}: its segment is missing")))
    }

    /// Stores an encoded value, then evicts oldest-first down to 90 % of the
    /// cap if what the cache holds on disk passed it
    /// ([`super::compact::Tables::make_room`]). Returns the evicted keys.
    pub fn put(&self, key: &str, encoded: &[u8]) -> Result<Evicted, StoreError> {
        self.check_size(key, encoded)?;
        self.put_many(&[(key, encoded)])
    }

    /// Refuses an entry over [`Disk::entry_limit`].
    pub fn check_size(&self, key: &str, encoded: &[u8]) -> Result<(), StoreError> {
        self.check_len(key, encoded.len())
    }

    /// [`Disk::check_size`] of an encoded value `len` bytes long.
    pub fn check_len(&self, key: &str, len: usize) -> Result<(), StoreError> {
        let size = key.len() + len;
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
    /// Entries over the limit are skipped. Values over [`INLINE_MAX`] are
    /// appended to the active segment first, all in one write; the
    /// transaction stores their locators.
    pub fn put_many(&self, items: &[(&str, &[u8])]) -> Result<Evicted, StoreError> {
        let items: Vec<(&str, [&[u8]; 2])> = items.iter().map(|&(k, v)| (k, [v, &[][..]])).collect();
        self.put_many_parts(&items)
    }

    /// [`Disk::put_many`] of values each in two pieces laid end to end (the
    /// first holding the codec header): they are written from where they
    /// are, not joined first ([`super::encoded::Encoded`]).
    pub fn put_many_parts(&self, items: &[(&str, [&[u8]; 2])]) -> Result<Evicted, StoreError> {
        let len = |v: &[&[u8]; 2]| v[0].len() + v[1].len();
        let items: Vec<(&str, [&[u8]; 2])> = items
            .iter()
            .copied()
            .filter(|(k, v)| self.check_len(k, len(v)).is_ok())
            .collect();
        let outside: Vec<&[u8]> = items
            .iter()
            .filter(|(_, v)| len(v) > INLINE_MAX)
            .flat_map(|(_, v)| v.iter().copied().filter(|p| !p.is_empty()))
            .collect();
        let mut placed = if outside.is_empty() {
            None
        } else {
            let at = self.segments.append(&outside);
            Some(at.map_err(|e| StoreError::Backend(format!("cache segment: {e}")))?)
        };
        let (w, durable) = self.begin()?;
        let (evicted, total, retire);
        {
            let mut t = Tables::open(&w)?;
            for &(key, parts) in &items {
                let n = len(&parts);
                let stored_at = codec::header(parts[0])?.stored_at_ms;
                match placed.as_mut().filter(|_| n > INLINE_MAX) {
                    Some((segment, offset)) => {
                        let l = Locator::of_parts(parts, *segment, *offset).to_bytes();
                        *offset += n as u64;
                        t.put(key, &l, n, stored_at, Some(*segment))?;
                    }
                    None if parts[1].is_empty() => t.put(key, parts[0], n, stored_at, None)?,
                    None => t.put(key, &parts.concat(), n, stored_at, None)?,
                }
            }
            evicted = t.make_room(self.max_bytes, &self.segments)?;
            total = t.bytes;
            retire = t.finish(&self.segments)?;
        }
        self.commit(w, durable, &retire)?;
        self.contents.store(total, Ordering::Relaxed);
        Ok(evicted)
    }

    /// Removes `key`; true when it was there.
    pub fn delete(&self, key: &str) -> Result<bool, StoreError> {
        let (w, durable) = self.begin()?;
        let (removed, total, retire);
        {
            let mut t = Tables::open(&w)?;
            removed = t.remove(key)?;
            total = t.bytes;
            retire = t.finish(&self.segments)?;
        }
        self.commit(w, durable, &retire)?;
        self.contents.store(total, Ordering::Relaxed);
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
                if locator::header(v.value()).is_ok_and(|h| h.expires_at_ms <= now_ms) {
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
