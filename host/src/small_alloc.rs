//! Small and medium blocks (up to [`MEDIUM`] bytes, alignment up to 16)
//! through a per-thread cache of freed blocks by size class, in front of
//! glibc's malloc. glibc's own per-thread cache keeps 7 blocks per size, and
//! none over 1 KiB; a parsed page's tree frees thousands of same-sized nodes
//! at once, so most frees (and the next scrape's allocations) went through the
//! arena instead (BENCHMARKS.md, "Small-block cache"), and every block between
//! 1 KiB and 128 KiB (a page's attribute lists, scratch buffers, the response)
//! through glibc's sorted bins. A block of class `k` is a glibc chunk of
//! [`class_size`]`(k)` bytes whatever the size asked for: 16-byte classes up
//! to [`SMALL`], four classes per doubling above (at most a quarter of the
//! block unused), so a freed block serves any later request of its class
//! (Rust's `dealloc` is told the size, so no header is needed), `realloc`
//! within a class is free and one across classes takes a cached block of the
//! new class when there is one.
//!
//! Bounded: a thread keeps at most [`cap`] bytes (`DISTILL_THREAD_CACHE_KIB`,
//! [`set_cap`]; 0 turns the cache off). Emptied into glibc when its thread
//! exits (a `pthread` key's destructor, which runs after the thread's own
//! `thread_local` destructors) and, after [`flush_all`] (the heap-trim
//! thread), by each thread at its next free: the blocks go back to glibc,
//! whose trim returns their pages. Cached blocks stay glibc chunks, so
//! `malloc_trim`, arenas and the rest of glibc's accounting are unchanged.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Largest block of the 16-byte classes.
pub const SMALL: usize = 1024;
/// Largest block served from the classes (four a doubling above [`SMALL`]).
pub const MEDIUM: usize = 64 << 10;
/// Class width up to [`SMALL`] (glibc's malloc alignment on 64-bit targets).
const STEP: usize = 16;
const SMALL_CLASSES: usize = SMALL / STEP;
/// log2 of [`SMALL`]: the first doubling of the medium classes.
const SMALL_LOG: usize = SMALL.trailing_zeros() as usize;
const CLASSES: usize = SMALL_CLASSES + 4 * (MEDIUM.trailing_zeros() as usize - SMALL_LOG);
/// Each class's block size.
static SIZES: [usize; CLASSES] = sizes();
/// Bytes a thread keeps unless set otherwise ([`set_cap`]): with 256 KiB, a
/// 500 KB page's blocks over 1 KiB crowded out its small ones (+3 % of the
/// serving thread's instructions; 1 MiB: −1.9 %).
pub const DEFAULT_CAP: usize = 1 << 20;

/// Per-thread byte cap; changed by [`set_cap`].
static CAP: AtomicUsize = AtomicUsize::new(DEFAULT_CAP);
/// Bumped by [`flush_all`]; a thread whose cache was filled in an older
/// epoch empties it at its next free.
static EPOCH: AtomicUsize = AtomicUsize::new(0);

/// Thread state: not yet registered for its exit flush, caching, exiting.
const NEW: u8 = 0;
const LIVE: u8 = 1;
const GONE: u8 = 2;

/// One thread's freed blocks: a list per class, linked through the blocks'
/// first word.
struct Cache {
    heads: [*mut u8; CLASSES],
    bytes: usize,
    epoch: usize,
    state: u8,
}

thread_local! {
    // const and without `Drop`: a plain thread-local, no lazy state to check
    // and no destructor registration (which may allocate) from inside the
    // allocator. The exit flush is a pthread key's destructor.
    static CACHE: UnsafeCell<Cache> = const {
        UnsafeCell::new(Cache { heads: [std::ptr::null_mut(); CLASSES], bytes: 0, epoch: 0, state: NEW })
    };
}

/// Sets how many bytes of freed small blocks each thread keeps (0: none; a
/// thread's cache over the new cap is emptied at its next free).
pub fn set_cap(bytes: usize) {
    CAP.store(bytes, Ordering::Relaxed);
    flush_all();
}

/// Bytes each thread may keep.
pub fn cap() -> usize {
    CAP.load(Ordering::Relaxed)
}

/// Asks every thread to hand its cached blocks back to glibc (each does at
/// its next free; this thread now).
pub fn flush_all() {
    EPOCH.fetch_add(1, Ordering::Relaxed);
    let _ = CACHE.try_with(|c| {
        // Safety: this thread's cache; nothing else borrows it now.
        unsafe { flush(&mut *c.get()) }
    });
}

/// Bytes handed back to glibc by flushes so far (thread exits, [`flush_all`]).
static FLUSHED: AtomicUsize = AtomicUsize::new(0);

/// Bytes of cached blocks handed back to glibc so far, by exiting threads
/// and after [`flush_all`].
pub fn flushed_bytes() -> usize {
    FLUSHED.load(Ordering::Relaxed)
}

/// Bytes this thread's cache holds.
pub fn cached_here() -> usize {
    CACHE.try_with(|c| unsafe { (*c.get()).bytes }).unwrap_or(0)
}

/// The class of a block, when it is small enough and no more aligned than
/// glibc's malloc guarantees.
#[inline]
fn class(layout: Layout) -> Option<usize> {
    let size = layout.size();
    if layout.align() > STEP {
        return None;
    }
    if size <= SMALL {
        return Some(size.saturating_sub(1) / STEP);
    }
    (size <= MEDIUM).then(|| medium_class(size))
}

/// The class of a block of `SMALL < size <= MEDIUM` bytes: its doubling
/// (`2^e < size <= 2^(e+1)`) and which quarter of it.
#[inline]
fn medium_class(size: usize) -> usize {
    let m = size - 1;
    let e = (usize::BITS - 1 - m.leading_zeros()) as usize;
    SMALL_CLASSES + (e - SMALL_LOG) * 4 + ((m >> (e - 2)) & 3)
}

/// The bytes of a class's blocks.
#[inline]
pub fn class_size(k: usize) -> usize {
    SIZES[k]
}

const fn sizes() -> [usize; CLASSES] {
    let mut t = [0; CLASSES];
    let mut k = 0;
    while k < CLASSES {
        t[k] = if k < SMALL_CLASSES {
            (k + 1) * STEP
        } else {
            let i = k - SMALL_CLASSES;
            (4 + i % 4 + 1) << (SMALL_LOG + i / 4 - 2)
        };
        k += 1;
    }
    t
}

/// Returns every block of `c` to glibc.
///
/// # Safety
/// `c` is the calling thread's cache.
unsafe fn flush(c: &mut Cache) {
    for head in &mut c.heads {
        let mut p = std::mem::replace(head, std::ptr::null_mut());
        while !p.is_null() {
            // Safety: a cached block holds the next one's address.
            let next = unsafe { *(p as *mut *mut u8) };
            unsafe { libc::free(p.cast()) };
            p = next;
        }
    }
    FLUSHED.fetch_add(c.bytes, Ordering::Relaxed);
    c.bytes = 0;
}

/// A block of class `k` from this thread's cache, if it has one.
#[inline]
fn pop(k: usize) -> Option<*mut u8> {
    CACHE
        .try_with(|c| {
            // Safety: this thread's cache; the allocator never re-enters it.
            let c = unsafe { &mut *c.get() };
            let head = c.heads[k];
            if head.is_null() {
                return None;
            }
            // Safety: a cached block holds the next one's address.
            c.heads[k] = unsafe { *(head as *mut *mut u8) };
            c.bytes -= class_size(k);
            Some(head)
        })
        .ok()
        .flatten()
}

/// Keeps a freed block of class `k`; false when the caller must free it.
#[inline]
fn push(p: *mut u8, k: usize) -> bool {
    CACHE
        .try_with(|c| {
            // Safety: as in `pop`.
            let c = unsafe { &mut *c.get() };
            if c.state != LIVE && !register(c) {
                return false;
            }
            let epoch = EPOCH.load(Ordering::Relaxed);
            if c.epoch != epoch {
                unsafe { flush(c) };
                c.epoch = epoch;
            }
            let size = class_size(k);
            if c.bytes + size > CAP.load(Ordering::Relaxed) {
                return false;
            }
            // Safety: the block is at least 16 bytes and ours now.
            unsafe { *(p as *mut *mut u8) = c.heads[k] };
            c.heads[k] = p;
            c.bytes += size;
            true
        })
        .unwrap_or(false)
}

/// Keeps a freed block of class `k` in this thread's cache, else hands it
/// back to glibc.
#[inline]
fn release(p: *mut u8, k: usize) {
    if !push(p, k) {
        unsafe { libc::free(p.cast()) }
    }
}

/// Arranges this thread's cache to be emptied when it exits; false when it
/// cannot be (the thread is exiting, or no key could be made), and then the
/// thread caches nothing.
#[cold]
fn register(c: &mut Cache) -> bool {
    if c.state == GONE {
        return false;
    }
    let Some(key) = exit_key() else {
        c.state = GONE;
        return false;
    };
    // Safety: a valid key; the value only marks the thread (never read).
    if unsafe { libc::pthread_setspecific(key, std::ptr::dangling::<libc::c_void>()) } != 0 {
        c.state = GONE;
        return false;
    }
    c.state = LIVE;
    c.epoch = EPOCH.load(Ordering::Relaxed);
    true
}

/// The process's one pthread key whose destructor empties an exiting
/// thread's cache.
fn exit_key() -> Option<libc::pthread_key_t> {
    /// The key + 1 (0: not made yet).
    static KEY: AtomicUsize = AtomicUsize::new(0);
    match KEY.load(Ordering::Acquire) {
        0 => {}
        k => return Some((k - 1) as libc::pthread_key_t),
    }
    let mut key: libc::pthread_key_t = 0;
    // Safety: creates a key; `on_exit` only touches the exiting thread's cache.
    if unsafe { libc::pthread_key_create(&mut key, Some(on_exit)) } != 0 {
        return None;
    }
    match KEY.compare_exchange(0, key as usize + 1, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => Some(key),
        Err(theirs) => {
            // Another thread made one first: use it.
            unsafe { libc::pthread_key_delete(key) };
            Some((theirs - 1) as libc::pthread_key_t)
        }
    }
}

/// The key's destructor: empties the exiting thread's cache and turns it off
/// (frees later in the thread's exit go straight to glibc).
extern "C" fn on_exit(_: *mut libc::c_void) {
    let _ = CACHE.try_with(|c| {
        // Safety: the exiting thread's own cache.
        let c = unsafe { &mut *c.get() };
        unsafe { flush(c) };
        c.state = GONE;
    });
}

/// The small-block allocator: classes through the cache, other blocks
/// straight to the system allocator.
pub struct SmallAllocs;

// Safety: a class block is a glibc chunk of at least its class's size (16-byte
// aligned, as glibc's malloc returns on 64-bit targets), handed out once and
// cached only after the caller freed it; every other block is the system
// allocator's.
unsafe impl GlobalAlloc for SmallAllocs {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match class(layout) {
            Some(k) => pop(k).unwrap_or_else(|| unsafe { libc::malloc(class_size(k)).cast() }),
            None => unsafe { System.alloc(layout) },
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match class(layout) {
            Some(k) => match pop(k) {
                Some(p) => {
                    unsafe { p.write_bytes(0, layout.size()) };
                    p
                }
                None => unsafe { libc::calloc(1, class_size(k)).cast() },
            },
            None => unsafe { System.alloc_zeroed(layout) },
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match class(layout) {
            Some(k) => release(ptr, k),
            None => unsafe { System.dealloc(ptr, layout) },
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Safety: the caller guarantees a valid layout for `new_size`.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (class(layout), class(new_layout)) {
            (Some(k), Some(j)) if k == j => ptr,
            // Into a class with a cached block: the bytes copied into it, the
            // old block cached in turn (glibc's realloc would copy too, after
            // its own search of its bins, unless it can grow the chunk in
            // place). Growing through glibc's realloc instead left the blocks
            // cached in the larger classes unused (a buffer doubled to 64 KiB
            // is freed into the cache each scrape and never taken out): they
            // filled a 256 KiB cache, and then every free and malloc went to
            // glibc (+3 % of the serving thread's instructions).
            (Some(k), Some(j)) if let Some(new) = pop(j) => unsafe {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                release(ptr, k);
                new
            },
            // Both glibc chunks (a class block is one of its class's size):
            // glibc's realloc, asked for the whole class when the new block
            // is one.
            (_, Some(j)) => unsafe { System.realloc(ptr, layout, class_size(j)) },
            _ => unsafe { System.realloc(ptr, layout, new_size) },
        }
    }
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
#[path = "small_alloc_tests.rs"]
mod tests;
