//! What the cache occupies on disk, as the cap counts it: the keys and inline
//! values ([`super::compact::Tables::bytes`] less the located values) plus
//! every segment file's whole length, live and dead bytes alike. [`Room`]
//! follows one transaction's evictions: a located value evicted turns dead
//! in its segment, and a segment (other than the active one) whose last live
//! value goes is retired, so its whole length leaves the count.

use std::collections::BTreeMap;

/// Each segment's length and live bytes, and the dead bytes of them all.
pub struct Room {
    segs: BTreeMap<u32, (u64, u64)>,
    active: Option<u32>,
    dead: u64,
}

impl Room {
    /// `segs` are the segments on disk (not yet retired) as (id, length,
    /// live bytes); `active` takes appends and is never retired here.
    pub fn new(segs: impl IntoIterator<Item = (u32, u64, u64)>, active: Option<u32>) -> Room {
        let mut room = Room {
            segs: BTreeMap::new(),
            active,
            dead: 0,
        };
        for (id, len, live) in segs {
            room.dead += room.dead_of(id, len, live);
            room.segs.insert(id, (len, live));
        }
        room
    }

    /// Dead bytes of a segment: none once it holds nothing live and is not
    /// the active one (it is retired with this transaction).
    fn dead_of(&self, id: u32, len: u64, live: u64) -> u64 {
        if live == 0 && Some(id) != self.active {
            0
        } else {
            len.saturating_sub(live)
        }
    }

    /// Dead bytes over all segments.
    pub fn dead(&self) -> u64 {
        self.dead
    }

    /// Dead bytes of the active segment.
    pub fn active_dead(&self) -> u64 {
        self.active
            .and_then(|a| self.segs.get(&a))
            .map_or(0, |&(len, live)| len.saturating_sub(live))
    }

    /// The active segment was sealed: it can be retired from now on.
    pub fn sealed(&mut self) {
        if let Some(a) = self.active.take()
            && let Some(&(len, live)) = self.segs.get(&a)
        {
            self.dead = self.dead - len.saturating_sub(live) + self.dead_of(a, len, live);
        }
    }

    /// `len` live bytes of segment `id` went (evicted).
    pub fn release(&mut self, id: u32, len: u64) {
        let Some(&(seg_len, live)) = self.segs.get(&id) else {
            return;
        };
        let now = live.saturating_sub(len);
        self.dead = self.dead - self.dead_of(id, seg_len, live) + self.dead_of(id, seg_len, now);
        self.segs.insert(id, (seg_len, now));
    }
}

#[cfg(test)]
mod tests {
    use super::Room;

    #[test]
    fn dead_bytes_follow_evictions_and_retirement() {
        // Segment 1: 100 bytes, 60 live; 2: 50 bytes, none live (retired);
        // 3 (active): 80 bytes, 30 live.
        let mut r = Room::new([(1, 100, 60), (2, 50, 0), (3, 80, 30)], Some(3));
        assert_eq!(r.dead(), 40 + 50);
        assert_eq!(r.active_dead(), 50);
        r.release(1, 20);
        assert_eq!(r.dead(), 60 + 50);
        // The last live value of 1 goes: the whole file leaves the count.
        r.release(1, 40);
        assert_eq!(r.dead(), 50);
        // The active one emptied stays counted until it is sealed.
        r.release(3, 30);
        assert_eq!(r.dead(), 80);
        r.sealed();
        assert_eq!(r.dead(), 0);
        assert_eq!(r.active_dead(), 0);
        r.release(9, 10);
        assert_eq!(r.dead(), 0);
    }
}
