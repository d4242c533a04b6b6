//! Large blocks (128 KiB and up) as their own mappings, with a small bounded
//! cache of freed ones. The server fixes glibc's mmap threshold at 128 KiB
//! (`main.rs`, docs/ROBUSTNESS.md "Allocator") so page-sized buffers never
//! fragment the heaps; but glibc unmaps such a block when it is freed, so
//! every scrape of a large page faults in and zeroes its buffers afresh
//! (~780 page faults, ~1.3 ms of kernel time per 500 KB page). This global
//! allocator maps those blocks itself and keeps up to [`DEFAULT_CAP`] of
//! freed ones (at most [`SLOTS`]) mapped for the next large block, resized
//! in place or moved by `mremap` (their pages stay resident), outside the
//! heaps, so they cannot fragment them. [`release`] unmaps them all; the
//! heap-trim thread calls it with every `malloc_trim`, so an idle server
//! holds none. Smaller blocks, every block when the operator set glibc's
//! `MALLOC_MMAP_THRESHOLD_`, and anywhere but Linux, go to the system
//! allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Blocks of at least this many bytes are mapped (glibc's threshold as the
/// server sets it).
pub const LARGE: usize = 128 << 10;
/// Most freed mappings kept.
pub const SLOTS: usize = 32;
/// Most bytes of freed mappings kept, unless set otherwise ([`set_cap`]).
pub const DEFAULT_CAP: usize = 16 << 20;

/// The allocator the `distill` binary installs (`#[global_allocator]`).
pub struct Global;

/// The one cache [`Global`] uses.
static SHARED: LargeAllocs = LargeAllocs::new();

// Safety: delegates to `LargeAllocs`, whose contract is the same.
unsafe impl GlobalAlloc for Global {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { SHARED.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe { SHARED.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { SHARED.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe { SHARED.realloc(ptr, layout, new_size) }
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
    /// holds it, else the largest), taken out of the cache.
    fn take(&self, len: usize) -> Option<(usize, usize)> {
        let mut c = self.lock();
        let n = c.n;
        let best = (0..n).min_by_key(|&i| {
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

    /// A mapping of `len` bytes: a kept one resized, else a new one. The
    /// flag says whether it was kept (its bytes are not zero).
    fn map(&self, len: usize) -> Option<(*mut u8, bool)> {
        if let Some((addr, have)) = self.take(len) {
            match os::resize(addr, have, len) {
                Some(p) => return Some((p, true)),
                None => os::unmap(addr, have),
            }
        }
        os::map(len).map(|p| (p, false))
    }
}

/// `size` rounded up to whole pages.
fn pages(size: usize) -> usize {
    let page = os::page();
    size.div_ceil(page) * page
}

// Safety: large blocks are page-aligned private anonymous mappings of
// `pages(size)` bytes, only handed out once and only returned by `dealloc` or
// `realloc` with the same layout; everything else is the system allocator's.
unsafe impl GlobalAlloc for LargeAllocs {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !self.large(layout) {
            return unsafe { System.alloc(layout) };
        }
        self.map(pages(layout.size()))
            .map_or(std::ptr::null_mut(), |(p, _)| p)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !self.large(layout) {
            return unsafe { System.alloc_zeroed(layout) };
        }
        match self.map(pages(layout.size())) {
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
        let len = pages(layout.size());
        if !self.keep(ptr as usize, len) {
            os::unmap(ptr as usize, len);
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Safety: the caller guarantees a valid layout for `new_size`.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (self.large(layout), self.large(new_layout)) {
            (false, false) => unsafe { System.realloc(ptr, layout, new_size) },
            (true, true) => os::resize(ptr as usize, pages(layout.size()), pages(new_size))
                .unwrap_or(std::ptr::null_mut()),
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
