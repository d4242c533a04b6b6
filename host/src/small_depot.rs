//! The shared depot of [`crate::small_alloc`]: blocks a thread freed when its
//! own cache was full, for any thread to take at a miss. A block often dies on
//! another thread than the one that made it (a scrape's cache entry is
//! allocated by the serving thread and freed by the cache writer): the
//! freeing thread's cache fills with classes it never allocates and then
//! frees to glibc, while the allocating thread misses and mallocs afresh.
//! Through the depot such a block goes back to a thread that wants its class
//! with one lock instead of a glibc `free` and `malloc`.
//!
//! Bounded: at most the per-thread cap ([`super::cap`]) of bytes in all;
//! [`flush`] (with [`super::flush_all`], the heap-trim thread) hands them all
//! back to glibc.

use super::{CLASSES, class_size};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Freed blocks by class, linked through their first word as in a thread's cache.
struct Lists {
    heads: [*mut u8; CLASSES],
    bytes: usize,
}

/// The lists, behind a lock.
struct Depot(Mutex<Lists>);

// Safety: the blocks are glibc chunks no thread refers to until one takes
// them out under the lock.
unsafe impl Sync for Depot {}

static DEPOT: Depot = Depot(Mutex::new(Lists {
    heads: [std::ptr::null_mut(); CLASSES],
    bytes: 0,
}));

/// Bytes the depot holds (read without the lock: a miss skips an empty depot).
static HELD: AtomicUsize = AtomicUsize::new(0);

fn lock() -> std::sync::MutexGuard<'static, Lists> {
    DEPOT.0.lock().unwrap_or_else(|e| e.into_inner())
}

/// Keeps a freed block of class `k`, at most `cap` bytes in all; false when
/// the caller must free it.
pub(super) fn give(p: *mut u8, k: usize, cap: usize) -> bool {
    let size = class_size(k);
    if HELD.load(Ordering::Relaxed) + size > cap {
        return false;
    }
    let mut d = lock();
    if d.bytes + size > cap {
        return false;
    }
    // Safety: the block is at least 16 bytes and the caller's to give.
    unsafe { *(p as *mut *mut u8) = d.heads[k] };
    d.heads[k] = p;
    d.bytes += size;
    HELD.store(d.bytes, Ordering::Relaxed);
    true
}

/// A block of class `k`, if the depot has one.
#[inline]
pub(super) fn take(k: usize) -> Option<*mut u8> {
    if HELD.load(Ordering::Relaxed) == 0 {
        return None;
    }
    take_locked(k)
}

#[cold]
fn take_locked(k: usize) -> Option<*mut u8> {
    let mut d = lock();
    let head = d.heads[k];
    if head.is_null() {
        return None;
    }
    // Safety: a kept block holds the next one's address.
    d.heads[k] = unsafe { *(head as *mut *mut u8) };
    d.bytes -= class_size(k);
    HELD.store(d.bytes, Ordering::Relaxed);
    Some(head)
}

/// Returns every kept block to glibc; the bytes returned.
pub(super) fn flush() -> usize {
    let (heads, bytes) = {
        let mut d = lock();
        let heads = std::mem::replace(&mut d.heads, [std::ptr::null_mut(); CLASSES]);
        let bytes = std::mem::take(&mut d.bytes);
        HELD.store(0, Ordering::Relaxed);
        (heads, bytes)
    };
    for mut p in heads {
        while !p.is_null() {
            // Safety: as in `take`; the lists are ours now.
            let next = unsafe { *(p as *mut *mut u8) };
            unsafe { libc::free(p.cast()) };
            p = next;
        }
    }
    bytes
}

/// Bytes the depot holds.
pub fn held() -> usize {
    HELD.load(Ordering::Relaxed)
}
