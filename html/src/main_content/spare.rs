//! A few empty vectors kept for reuse, shared by every thread: a large page's
//! arena takes one instead of a fresh page-sized allocation, and gives it back
//! when it drops. Shared rather than one per thread, so what stays resident is
//! bounded by [`Spares`]' count, not by how many threads ever built a large
//! arena (a server's blocking pool runs dozens; one kept vector each held
//! ~0.4 MiB per thread after a burst of 500 KB pages).

use std::sync::Mutex;

/// At most `N` vectors, each of at most `max_bytes` capacity, kept empty.
pub(super) struct Spares<T, const N: usize> {
    kept: Mutex<Vec<Vec<T>>>,
    max_bytes: usize,
}

impl<T, const N: usize> Spares<T, N> {
    pub const fn new(max_bytes: usize) -> Self {
        Spares {
            kept: Mutex::new(Vec::new()),
            max_bytes,
        }
    }

    /// An empty vector with room for at least `n` items: the largest kept
    /// one if any (grown when short), else a new one.
    pub fn take(&self, n: usize) -> Vec<T> {
        let kept = self.kept.lock().ok().and_then(|mut kept| kept.pop());
        let mut v = kept.unwrap_or_default();
        v.reserve(n);
        v
    }

    /// Keeps `v` (emptied) for a later [`Spares::take`] unless it is larger
    /// than the cap; past `N` kept, the smallest is freed.
    pub fn give(&self, mut v: Vec<T>) {
        let bytes = v.capacity() * std::mem::size_of::<T>();
        if bytes == 0 || bytes > self.max_bytes {
            return;
        }
        v.clear();
        let freed = self.kept.lock().ok().and_then(|mut kept| {
            // Largest last: the next take gets the one most likely to fit.
            let at = kept.partition_point(|k| k.capacity() <= v.capacity());
            kept.insert(at, v);
            (kept.len() > N).then(|| kept.remove(0))
        });
        drop(freed);
    }

    /// Bytes of capacity kept now.
    #[cfg(test)]
    pub fn kept_bytes(&self) -> usize {
        let kept = self.kept.lock().unwrap();
        kept.iter().map(|v| v.capacity() * std::mem::size_of::<T>()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_vector_serves_the_next_take_empty() {
        let spares: Spares<u64, 2> = Spares::new(1 << 20);
        let mut v = spares.take(1000);
        v.extend(0..1000);
        let storage = v.as_ptr();
        spares.give(v);
        let again = spares.take(10);
        assert_eq!(again.as_ptr(), storage, "the same storage");
        assert!(again.is_empty(), "nothing of the last use");
    }

    #[test]
    fn at_most_n_are_kept_the_largest_ones_and_the_largest_goes_first() {
        let spares: Spares<u8, 2> = Spares::new(1 << 20);
        for cap in [100, 300, 200] {
            spares.give(Vec::with_capacity(cap));
        }
        assert_eq!(spares.kept_bytes(), 300 + 200, "the smallest was freed");
        assert!(spares.take(1).capacity() >= 300);
        assert!(spares.take(1).capacity() >= 200);
        assert_eq!(spares.kept_bytes(), 0);
    }

    #[test]
    fn a_vector_beyond_the_cap_is_freed() {
        let spares: Spares<u32, 2> = Spares::new(4096);
        spares.give(Vec::with_capacity(2000));
        assert_eq!(spares.kept_bytes(), 0);
        spares.give(Vec::with_capacity(1000));
        assert_eq!(spares.kept_bytes(), 4000);
    }

    #[test]
    fn threads_share_the_kept_vectors() {
        let spares: Spares<u8, 1> = Spares::new(1 << 20);
        std::thread::scope(|s| {
            s.spawn(|| spares.give(Vec::with_capacity(5000)));
        });
        let v = std::thread::scope(|s| s.spawn(|| spares.take(1)).join().unwrap());
        assert!(v.capacity() >= 5000, "another thread's vector");
    }
}
