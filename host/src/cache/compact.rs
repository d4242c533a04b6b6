//! The embedded store's tables inside one write transaction, with the
//! accounting every change needs: the totals (`stats`), the eviction order
//! (`age`) and each segment's live bytes (`segs`). When a transaction leaves
//! a segment (other than the one taking appends) empty, it is retired; when
//! under half of it is live, its live values are copied to the active
//! segment in one write and their locators moved in the same transaction
//! (compaction). Retired segments are deleted after the next durable commit
//! ([`super::segments::Segments::retire`]). Once what the cache holds on disk
//! (dead segment bytes too, [`super::room`]) passes the cap,
//! [`Tables::make_room`] evicts oldest-first.

use super::locator::{self, Locator};
use super::room::Room;
use super::segments::Segments;
use super::store::StoreError;
use redb::{ReadableTable, Table, TableDefinition, WriteTransaction};
use std::collections::BTreeMap;

pub(crate) const ENTRIES: TableDefinition<&str, &[u8]> = TableDefinition::new("entries");
pub(crate) const AGE: TableDefinition<(i64, &str), u64> = TableDefinition::new("age");
pub(crate) const STATS: TableDefinition<&str, u64> = TableDefinition::new("stats");
pub(crate) const SEGS: TableDefinition<u32, u64> = TableDefinition::new("segs");
pub(crate) const BYTES: &str = "bytes";
pub(crate) const COUNT: &str = "entries";

/// What a write removed besides its own key (the hot tier drops these too).
pub type Evicted = Vec<String>;

/// The four tables and the running totals of one transaction.
pub struct Tables<'t> {
    entries: Table<'t, &'static str, &'static [u8]>,
    age: Table<'t, (i64, &'static str), u64>,
    stats: Table<'t, &'static str, u64>,
    segs: Table<'t, u32, u64>,
    pub bytes: u64,
    pub count: u64,
    /// Live bytes added to (+) and released from (−) each segment.
    delta: BTreeMap<u32, i64>,
}

impl<'t> Tables<'t> {
    pub fn open(w: &'t WriteTransaction) -> Result<Tables<'t>, StoreError> {
        let stats = w.open_table(STATS)?;
        let bytes = stats.get(BYTES)?.map(|g| g.value()).unwrap_or(0);
        let count = stats.get(COUNT)?.map(|g| g.value()).unwrap_or(0);
        Ok(Tables {
            entries: w.open_table(ENTRIES)?,
            age: w.open_table(AGE)?,
            stats,
            segs: w.open_table(SEGS)?,
            bytes,
            count,
            delta: BTreeMap::new(),
        })
    }

    /// Stores `stored` (the value inline, or its locator) for `key`, whose
    /// encoded value is `len` bytes stored at `stored_at`; replaces (and
    /// un-accounts) what the key held.
    pub fn put(
        &mut self,
        key: &str,
        stored: &[u8],
        len: usize,
        stored_at: i64,
        segment: Option<u32>,
    ) -> Result<(), StoreError> {
        let old = self.entries.insert(key, stored)?.map(|g| old_of(g.value()));
        if let Some(old) = old {
            self.unaccount(key, old)?;
        }
        let size = (key.len() + len) as u64;
        if evictable(key) {
            self.age.insert((stored_at, key), size)?;
        }
        if let Some(s) = segment {
            *self.delta.entry(s).or_default() += len as i64;
        }
        self.bytes += size;
        self.count += 1;
        Ok(())
    }

    /// Removes `key`; true when it was there.
    pub fn remove(&mut self, key: &str) -> Result<bool, StoreError> {
        let old = self.entries.remove(key)?.map(|g| old_of(g.value()));
        match old {
            Some(old) => self.unaccount(key, old).map(|()| true),
            None => Ok(false),
        }
    }

    fn unaccount(&mut self, key: &str, old: Old) -> Result<(), StoreError> {
        let (stored_at, len, segment) = old?;
        if let Some(s) = stored_at {
            self.age.remove((s, key))?;
        }
        if let Some(s) = segment {
            *self.delta.entry(s).or_default() -= len as i64;
        }
        self.bytes = self.bytes.saturating_sub((key.len() + len) as u64);
        self.count = self.count.saturating_sub(1);
        Ok(())
    }

    /// Keeps what the cache occupies on disk within `cap`: the keys and
    /// inline values plus the segment files' whole length, dead bytes too
    /// ([`Room`]). Once past the cap, evicts oldest-first down to 90 % of it;
    /// an active segment holding dead bytes is sealed first, so that it can
    /// be retired or compacted. Emptied segments are retired and those under
    /// half live compacted by [`Tables::finish`]. Returns the evicted keys.
    pub fn make_room(&mut self, cap: u64, segments: &Segments) -> Result<Evicted, StoreError> {
        if self.bytes.saturating_add(segments.total_len()) <= cap {
            return Ok(Vec::new()); // even counting every segment byte as dead
        }
        let mut room = self.room(segments)?;
        if self.bytes + room.dead() <= cap {
            return Ok(Vec::new());
        }
        if room.active_dead() > 0 {
            let io = |e: std::io::Error| StoreError::Backend(format!("cache segment: {e}"));
            segments.seal().map_err(io)?;
            room.sealed();
        }
        let target = cap - cap / 10;
        let mut evicted = Vec::new();
        while self.bytes + room.dead() > target {
            let Some((key, size)) = self
                .age
                .pop_first()?
                .map(|(k, v)| (k.value().1.to_string(), v.value()))
            else {
                break;
            };
            let old = self.entries.remove(key.as_str())?.map(|g| old_of(g.value()));
            if let Some(Ok((_, len, Some(s)))) = old {
                *self.delta.entry(s).or_default() -= len as i64;
                room.release(s, len as u64);
            }
            self.bytes = self.bytes.saturating_sub(size);
            self.count = self.count.saturating_sub(1);
            evicted.push(key);
        }
        Ok(evicted)
    }

    /// The segments on disk with their live bytes as of this transaction.
    fn room(&self, segments: &Segments) -> Result<Room, StoreError> {
        let mut segs = Vec::new();
        for (id, len) in segments.lens() {
            let stored = self.segs.get(id)?.map(|g| g.value()).unwrap_or(0);
            let d = self.delta.get(&id).copied().unwrap_or(0);
            segs.push((id, len, stored.saturating_add_signed(d)));
        }
        Ok(Room::new(segs, segments.active_id()))
    }

    /// Writes the totals and the segments' live bytes; retires emptied
    /// segments and compacts those under half live. Returns the segments to
    /// retire once this transaction commits.
    pub fn finish(mut self, segments: &Segments) -> Result<Vec<u32>, StoreError> {
        let delta = std::mem::take(&mut self.delta);
        let active = segments.active_id();
        let mut candidates = segments.take_deferred();
        for (&id, &d) in &delta {
            self.bump(id, d)?;
            if d < 0 {
                candidates.insert(id);
            }
        }
        let mut retire = Vec::new();
        for id in candidates {
            if Some(id) == active {
                segments.defer(id);
                continue;
            }
            let live = self.segs.get(id)?.map(|g| g.value()).unwrap_or(0);
            if live == 0 {
                self.segs.remove(id)?;
                retire.push(id);
            } else if live * 2 < segments.len_of(id) {
                self.compact(id, segments)?;
                retire.push(id);
            }
        }
        self.stats.insert(BYTES, self.bytes)?;
        self.stats.insert(COUNT, self.count)?;
        Ok(retire)
    }

    fn bump(&mut self, id: u32, d: i64) -> Result<(), StoreError> {
        let now = self.segs.get(id)?.map(|g| g.value()).unwrap_or(0);
        let next = now.saturating_add_signed(d);
        self.segs.insert(id, next)?;
        Ok(())
    }

    /// Copies segment `id`'s live values to the active segment in one write
    /// and points their keys there; drops `id`'s row.
    fn compact(&mut self, id: u32, segments: &Segments) -> Result<(), StoreError> {
        let mut moving: Vec<(String, Locator)> = Vec::new();
        for row in self.entries.iter()? {
            let (k, v) = row?;
            if let Ok(locator::Form::At(l)) = locator::parse(v.value())
                && l.segment == id
            {
                moving.push((k.value().to_string(), l));
            }
        }
        let io = |e: std::io::Error| StoreError::Backend(format!("cache segment: {e}"));
        let mut values = Vec::with_capacity(moving.len());
        for (_, l) in &moving {
            let bytes = segments.read(id, l.offset, l.len as usize).map_err(io)?;
            values.push(bytes.ok_or_else(|| StoreError::Corrupt(format!("segment {id} missing")))?);
        }
        let slices: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
        let (to, mut at) = segments.append(&slices).map_err(io)?;
        let mut moved = 0u64;
        for (key, l) in &moving {
            let new = Locator {
                segment: to,
                offset: at,
                ..*l
            };
            self.entries.insert(key.as_str(), &new.to_bytes()[..])?;
            at += u64::from(l.len);
            moved += u64::from(l.len);
        }
        self.segs.remove(id)?;
        self.bump(to, moved as i64)?;
        tracing::debug!(
            segment = id,
            values = moving.len(),
            bytes = moved,
            "cache: segment compacted"
        );
        Ok(())
    }
}

/// A replaced or removed stored value: its stored-at (if its header reads),
/// encoded length and segment.
type Old = Result<(Option<i64>, usize, Option<u32>), StoreError>;

fn old_of(stored: &[u8]) -> Old {
    let (len, segment) = locator::accounted(stored)?;
    Ok((locator::header(stored).ok().map(|h| h.stored_at_ms), len, segment))
}

/// Whether size eviction may remove `key` (change-tracking records,
/// [`super::store::PINNED_PREFIX`], only leave by their TTL).
pub fn evictable(key: &str) -> bool {
    !key.starts_with(super::store::PINNED_PREFIX)
}
