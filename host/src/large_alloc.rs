//! Large blocks (128 KiB and up) as their own mappings, with a small bounded
//! cache of freed ones. The server fixes glibc's mmap threshold at 128 KiB
//! (`main.rs`, docs/ROBUSTNESS.md "Allocator") so page-sized buffers never
//! fragment the heaps; but glibc unmaps such a block when it is freed, so
//! every scrape of a large page faults in and zeroes its buffers afresh
//! (~780 page faults, ~1.3 ms of kernel time per 500 KB page). This global
//! allocator maps those blocks itself and keeps up to [`DEFAULT_CAP`] of
//! freed ones (at most [`SLOTS`]) mapped for the next large block (their
//! pages stay resident), outside the heaps, so they cannot fragment them. A
//! mapping's first page holds its length, so a block can be handed a larger
//! kept mapping whole and a `realloc` grows into that slack with no system
//! call; past it, into a kept mapping that fits or by `mremap`; a `realloc`
//! that shrinks a block by much unmaps the tail. [`release`] unmaps them all; the
//! heap-trim thread calls it with every `malloc_trim`, so an idle server
//! holds none. Smaller blocks, every block when the operator set glibc's
//! `MALLOC_MMAP_THRESHOLD_`, and anywhere but Linux, go to
//! [`crate::small_alloc`] (a per-thread cache of small blocks in front of
//! the system allocator) from [`Global`], to the system allocator from a
//! bare [`LargeAllocs`].

use crate::small_alloc::{MEDIUM, SmallAllocs};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Blocks of at least this many bytes are mapped (glibc's threshold as the
/// server sets it).
pub const LARGE: usize = 128 << 10;
// A block the small-block classes serve is never large: [`Global`] tests the
// size against [`MEDIUM`] before asking [`LargeAllocs::large`].
const _: () = assert!(MEDIUM < LARGE);

/// Most freed mappings kept.
pub const SLOTS: usize = 32;
/// Most bytes of freed mappings kept, unless set otherwise ([`set_cap`]).
pub const DEFAULT_CAP: usize = 16 << 20;

/// The allocator the `distill` binary installs (`#[global_allocator]`):
/// large blocks here, smaller ones through [`crate::small_alloc`].
pub struct Global;

/// The one cache [`Global`] uses.
static SHARED: LargeAllocs = LargeAllocs::new();

// Safety: large blocks are `LargeAllocs`', every other one `SmallAllocs`'
// (both contracts are the caller's); a block changes hands only through a
// fresh allocation and a copy.
unsafe impl GlobalAlloc for Global {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() <= MEDIUM || !SHARED.large(layout) {
            return unsafe { SmallAllocs.alloc(layout) };
        }
        unsafe { SHARED.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() <= MEDIUM || !SHARED.large(layout) {
            return unsafe { SmallAllocs.alloc_zeroed(layout) };
        }
        unsafe { SHARED.alloc_zeroed(layout) }
    }
    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.size() <= MEDIUM || !SHARED.large(layout) {
            return unsafe { SmallAllocs.dealloc(ptr, layout) };
        }
        unsafe { SHARED.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.size() <= MEDIUM && new_size <= MEDIUM {
            return unsafe { SmallAllocs.realloc(ptr, layout, new_size) };
        }
        // Safety: the caller guarantees a valid layout for `new_size`.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (SHARED.large(layout), SHARED.large(new_layout)) {
            (false, false) => unsafe { SmallAllocs.realloc(ptr, layout, new_size) },
            (true, true) => unsafe { SHARED.realloc(ptr, layout, new_size) },
            _ => {
                let new = unsafe { self.alloc(new_layout) };
                if !new.is_null() {
                    unsafe {
                        std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                }
                new
            }
        }
    }
}

/// Sets how many bytes of freed mappings [`Global`] keeps (0: none).
pub fn set_cap(bytes: usize) {
    SHARED.cap.store(bytes, Ordering::Relaxed);
    if bytes == 0 {
        SHARED.release();
    }
}

/// Unmaps every freed mapping [`Global`] keeps; returns the bytes released.
pub fn release() -> usize {
    SHARED.release()
}

/// Bytes of freed mappings [`Global`] keeps now.
pub fn cached_bytes() -> usize {
    SHARED.cached().1
}

/// A large-block allocator with its cache of freed mappings.
pub struct LargeAllocs {
    cache: Mutex<Cache>,
    cap: AtomicUsize,
    /// Smallest block mapped here; 0 until the first allocation decides it
    /// ([`LargeAllocs::threshold`]), then fixed, so a block is always freed
    /// by the allocator that made it.
    threshold: AtomicUsize,
}

/// Freed mappings: (address, length) in `slots[..n]`, most recent last.
struct Cache {
    slots: [(usize, usize); SLOTS],
    n: usize,
    bytes: usize,
}

impl Default for LargeAllocs {
    fn default() -> Self {
        Self::new()
    }
}

impl LargeAllocs {
    pub const fn new() -> LargeAllocs {
        LargeAllocs {
            cache: Mutex::new(Cache {
                slots: [(0, 0); SLOTS],
                n: 0,
                bytes: 0,
            }),
            cap: AtomicUsize::new(DEFAULT_CAP),
            threshold: AtomicUsize::new(0),
        }
    }

    /// [`LARGE`], or never (`usize::MAX`) when `MALLOC_MMAP_THRESHOLD_` is
    /// set: the operator chose glibc's own handling of large blocks. Read
    /// once, with `getenv` (no allocation inside the allocator).
    fn threshold(&self) -> usize {
        match self.threshold.load(Ordering::Relaxed) {
            0 => {
                let t = if os::glibc_threshold_set() {
                    usize::MAX
                } else {
                    LARGE
                };
                self.threshold.store(t, Ordering::Relaxed);
                t
            }
            t => t,
        }
    }

    /// Whether `layout` is mapped here rather than by the system allocator.
    fn large(&self, layout: Layout) -> bool {
        cfg!(target_os = "linux") && layout.size() >= self.threshold() && layout.align() <= os::page()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Freed mappings kept and their bytes.
    pub fn cached(&self) -> (usize, usize) {
        let c = self.lock();
        (c.n, c.bytes)
    }

    /// Unmaps every kept mapping; returns the bytes released.
    pub fn release(&self) -> usize {
        let mut taken = [(0usize, 0usize); SLOTS];
        let (n, bytes) = {
            let mut c = self.lock();
            let n = c.n;
            taken[..n].copy_from_slice(&c.slots[..n]);
            let bytes = c.bytes;
            (c.n, c.bytes) = (0, 0);
            (n, bytes)
        };
        for &(addr, len) in &taken[..n] {
            os::unmap(addr, len);
        }
        bytes
    }

    /// The kept mapping whose length is nearest `len` (the smallest that
    /// holds it, else, unless `fitting`, the largest), taken out of the cache.
    fn take(&self, len: usize, fitting: bool) -> Option<(usize, usize)> {
        let mut c = self.lock();
        let n = c.n;
        let best = (0..n)
            .filter(|&i| !fitting || c.slots[i].1 >= len)
            .min_by_key(|&i| {
                let have = c.slots[i].1;
                if have >= len {
                    (0, have)
                } else {
                    (1, usize::MAX - have)
                }
            })?;
        let found = c.slots[best];
        c.slots.copy_within(best + 1..n, best);
        c.n -= 1;
        c.bytes -= found.1;
        Some(found)
    }

    /// Keeps a freed mapping if there is room; false when the caller must
    /// unmap it.
    fn keep(&self, addr: usize, len: usize) -> bool {
        let cap = self.cap.load(Ordering::Relaxed);
        let mut c = self.lock();
        if c.n == SLOTS || c.bytes + len > cap {
            return false;
        }
        let n = c.n;
        c.slots[n] = (addr, len);
        c.n += 1;
        c.bytes += len;
        true
    }

    /// A block of at least `size` bytes: a kept mapping (whole, so a later
    /// `realloc` grows into its slack, unless it is over [`SLACK`] times the
    /// need), one grown with its pages, or a new one. The flag says whether
    /// it was kept (its bytes are not zero).
    fn block(&self, size: usize) -> Option<(*mut u8, bool)> {
        let need = os::page() + pages(size);
        let kept = self.take(need, false).and_then(|(base, have)| {
            if have >= need {
                if have > SLACK * need {
                    os::unmap(base + need, have - need);
                    return Some((base, need));
                }
                return Some((base, have));
            }
            let grown = os::resize(base, have, need).map(|p| (p as usize, need));
            if grown.is_none() {
                os::unmap(base, have);
            }
            grown
        });
        let (base, len, reused) = match kept {
            Some((base, len)) => (base, len, true),
            None => (os::map(need)? as usize, need, false),
        };
        Some((with_header(base, len), reused))
    }
}

/// A `realloc` to a smaller size unmaps the mapping's tail when that frees
/// at least 1/`SHRINK_AT` of it (a smaller shrink keeps the slack, as a
/// growth into it would).
const SHRINK_AT: usize = 8;

/// A kept mapping may serve a block needing down to 1/`SLACK` of it (4
/// held ~5 MiB more after a c=16 burst than 2, for no fewer faults).
const SLACK: usize = 2;

/// Writes the mapping's length into its first page; returns the block's
/// start (the next page).
fn with_header(base: usize, len: usize) -> *mut u8 {
    // Safety: `base` starts a mapping of `len` > one page bytes this module owns.
    unsafe { (base as *mut usize).write(len) };
    (base + os::page()) as *mut u8
}

/// The mapping (start, length) under a block [`LargeAllocs::block`] made.
fn mapping_of(ptr: *mut u8) -> (usize, usize) {
    let base = ptr as usize - os::page();
    // Safety: the block's mapping starts one page before it with its length.
    (base, unsafe { (base as *const usize).read() })
}

/// `size` rounded up to whole pages.
fn pages(size: usize) -> usize {
    let page = os::page();
    size.div_ceil(page) * page
}

// Safety: a large block is the second page on of a private anonymous mapping
// whose first page holds its length, only handed out once and only returned
// by `dealloc` or `realloc` with the same layout; everything else is the
// system allocator's.
unsafe impl GlobalAlloc for LargeAllocs {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !self.large(layout) {
            return unsafe { System.alloc(layout) };
        }
        self.block(layout.size()).map_or(std::ptr::null_mut(), |(p, _)| p)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !self.large(layout) {
            return unsafe { System.alloc_zeroed(layout) };
        }
        match self.block(layout.size()) {
            Some((p, reused)) => {
                if reused {
                    unsafe { p.write_bytes(0, layout.size()) };
                }
                p
            }
            None => std::ptr::null_mut(),
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if !self.large(layout) {
            return unsafe { System.dealloc(ptr, layout) };
        }
        let (base, len) = mapping_of(ptr);
        if !self.keep(base, len) {
            os::unmap(base, len);
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Safety: the caller guarantees a valid layout for `new_size`.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (self.large(layout), self.large(new_layout)) {
            (false, false) => unsafe { System.realloc(ptr, layout, new_size) },
            (true, true) => {
                let (base, len) = mapping_of(ptr);
                let need = os::page() + pages(new_size);
                if need <= len {
                    // A shrink that leaves much of the mapping unused gives
                    // its tail back (a buffer kept long, e.g. a page in the
                    // cache's hot tier, then holds only what it uses).
                    if new_size < layout.size() && len - need >= len / SHRINK_AT {
                        os::resize(base, len, need);
                        return with_header(base, need);
                    }
                    return ptr; // within the mapping's slack
                }
                // A kept mapping that holds it already has its pages resident.
                if let Some((kept, have)) = self.take(need, true) {
                    let new = with_header(kept, have);
                    unsafe {
                        std::ptr::copy_nonoverlapping(ptr, new, layout.size());
                        self.dealloc(ptr, layout);
                    }
                    return new;
                }
                os::resize(base, len, need).map_or(std::ptr::null_mut(), |p| with_header(p as usize, need))
            }
            _ => {
                let new = unsafe { self.alloc(new_layout) };
                if !new.is_null() {
                    unsafe {
                        std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                }
                new
            }
        }
    }
}

/// The system calls (Linux; elsewhere nothing is ever large).
#[cfg(target_os = "linux")]
mod os {
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The page size, read once.
    pub(super) fn page() -> usize {
        static PAGE: AtomicUsize = AtomicUsize::new(0);
        match PAGE.load(Ordering::Relaxed) {
            0 => {
                // Safety: sysconf only reads a system setting.
                let p = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
                    .ok()
                    .filter(|p| p.is_power_of_two())
                    .unwrap_or(4096);
                PAGE.store(p, Ordering::Relaxed);
                p
            }
            p => p,
        }
    }

    /// A new private anonymous read-write mapping of `len` bytes.
    pub(super) fn map(len: usize) -> Option<*mut u8> {
        // Safety: a fresh anonymous mapping touches no existing memory.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        (p != libc::MAP_FAILED).then_some(p.cast())
    }

    /// The mapping at `addr` (`len` bytes) made `new_len` bytes long: its
    /// tail unmapped, or grown in place or moved with its pages.
    pub(super) fn resize(addr: usize, len: usize, new_len: usize) -> Option<*mut u8> {
        if new_len == len {
            return Some(addr as *mut u8);
        }
        if new_len < len {
            unmap(addr + new_len, len - new_len);
            return Some(addr as *mut u8);
        }
        // Safety: `addr..addr + len` is a mapping this module made and owns.
        let p = unsafe { libc::mremap(addr as *mut libc::c_void, len, new_len, libc::MREMAP_MAYMOVE) };
        (p != libc::MAP_FAILED).then_some(p.cast())
    }

    /// Whether `MALLOC_MMAP_THRESHOLD_` is in the environment (`getenv`:
    /// no allocation).
    pub(super) fn glibc_threshold_set() -> bool {
        // Safety: a NUL-terminated name; the value is only tested for presence.
        !unsafe { libc::getenv(c"MALLOC_MMAP_THRESHOLD_".as_ptr()) }.is_null()
    }

    pub(super) fn unmap(addr: usize, len: usize) {
        // Safety: as in `resize`; nothing refers to the range any more.
        unsafe {
            libc::munmap(addr as *mut libc::c_void, len);
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod os {
    pub(super) fn page() -> usize {
        4096
    }
    pub(super) fn glibc_threshold_set() -> bool {
        true
    }
    pub(super) fn map(_: usize) -> Option<*mut u8> {
        None
    }
    pub(super) fn resize(_: usize, _: usize, _: usize) -> Option<*mut u8> {
        None
    }
    pub(super) fn unmap(_: usize, _: usize) {}
}

#[cfg(all(test, target_os = "linux"))]
#[path = "large_alloc_tests.rs"]
mod tests;
