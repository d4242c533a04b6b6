//! The plugin's allocator inside wasm: a bump allocator. The host runs each
//! call in a fresh instance and throws its memory away afterwards, so nothing
//! needs to be handed back: an allocation takes the next bytes of a region
//! (first a zeroed static arena, then pages grown with `memory.grow`);
//! freeing or growing the newest block works in place (a `String` or `Vec`
//! being built is most often the newest block). Another freed block (a
//! vector's old buffer after it moved, the parsed tree once rendered)
//! becomes the *hole* when it is larger than the current one: later blocks
//! that fit are cut from the hole first, so they land on pages the call has
//! already written instead of new ones (each page the guest writes is a page
//! the host resets after the call).
//! When the host's memory cap refuses a grow the allocation fails as it does
//! with the default allocator (the host reports the call as out of memory).
//! Native builds keep the system allocator.
//!
//! The arena is part of the initial memory, so a call whose allocations fit
//! in it never grows the memory (each grow is a call into the host, and a
//! page-protection change there and again when the instance is reset), and
//! its untouched pages cost nothing. The allocator's own state sits right
//! before the arena, on the page its first blocks use; the arena's last
//! bytes, on the page of the statics every call writes after it, are the
//! first hole (`arena_tail`). The C library keeps
//! its own heap for what it allocates itself (the rest of the initial
//! memory, then grown pages).

#[cfg(target_arch = "wasm32")]
use core::alloc::{GlobalAlloc, Layout};
#[cfg(target_arch = "wasm32")]
use core::cell::UnsafeCell;

const PAGE: usize = 65536;

/// Bytes of the static arena: most pages' calls fit in it.
const ARENA: usize = 512 << 10;

/// Where a region's memory comes from: the arena, then `memory.grow`.
trait Memory {
    /// The arena's first byte (it is [`ARENA`] bytes long).
    fn arena(&mut self) -> usize;
    /// Grows the memory by `pages`: the old size in pages, `usize::MAX` if refused.
    fn grow(&mut self, pages: usize) -> usize;
}

/// The arena's tail, `tail..end`: the part of the arena on the host page
/// (4 KiB) that holds its end, empty when the arena ends on a page
/// boundary. The statics the linker places right after the arena (the
/// bindings' return area and wit-bindgen's `run_ctors_once` flag, written by
/// every call) are on that page, so the host resets it after every call
/// whether the allocator uses it or not: it is the first hole, and the blocks
/// cut from it cost no page of their own.
fn arena_tail(arena: usize) -> (usize, usize) {
    let end = arena + ARENA;
    ((end & !(HOST_PAGE - 1)).max(arena), end)
}

/// The host's page: the unit wasmtime resets after a call.
const HOST_PAGE: usize = 4096;

/// The free bytes: `next..end` (both 0 before the first allocation), and
/// the hole `hole..hole_end` (empty when both are equal).
struct Region<M> {
    next: usize,
    end: usize,
    hole: usize,
    hole_end: usize,
    memory: M,
}

/// A resized block: in place, or moved to a new address (the caller copies).
#[derive(Debug, PartialEq)]
enum Resized {
    InPlace,
    Moved(usize),
}

impl<M: Memory> Region<M> {
    /// Makes `need` more bytes (plus room to align them to `align`) available after
    /// `next`. The first time: the arena up to its tail, the tail as the
    /// hole; later, grown pages, continuing the
    /// region when it ends where the memory did (else a new region starts
    /// at the new pages).
    #[cold]
    fn grow(&mut self, need: usize, align: usize) -> bool {
        if self.end == 0 {
            let arena = self.memory.arena();
            let (tail, end) = arena_tail(arena);
            self.next = arena;
            self.end = tail;
            self.hole = tail;
            self.hole_end = end;
            return true;
        }
        let Some(bytes) = need.checked_add(align.saturating_sub(1)) else {
            return false;
        };
        let pages = bytes.div_ceil(PAGE);
        let old = self.memory.grow(pages);
        if old == usize::MAX {
            return false;
        }
        let Some(end) = old.checked_add(pages).and_then(|p| p.checked_mul(PAGE)) else {
            return false;
        };
        let start = old * PAGE;
        if start != self.end {
            self.next = start;
        }
        self.end = end;
        true
    }

    /// The start of `size` bytes aligned to `align`: from the hole when
    /// they fit there, else from the region.
    #[inline(always)]
    fn take(&mut self, size: usize, align: usize) -> Option<usize> {
        loop {
            if let Some(start) = self.hole.checked_add(align - 1).map(|s| s & !(align - 1))
                && let Some(end) = start.checked_add(size)
                && end <= self.hole_end
            {
                self.hole = end;
                return Some(start);
            }
            let start = self.next.checked_add(align - 1)? & !(align - 1);
            let end = start.checked_add(size)?;
            if end <= self.end {
                self.next = end;
                return Some(start);
            }
            let short = size.saturating_sub(self.end - self.next);
            if !self.grow(short, align) {
                return None;
            }
        }
    }

    /// Frees the block at `at`: the newest block's bytes go back to the
    /// region (with the hole, when that ends where they start); another
    /// block joins the hole when it touches it, or becomes the hole when it
    /// is the larger. Any other freed bytes stay unused.
    #[inline(always)]
    fn free(&mut self, at: usize, size: usize) {
        let end = at + size;
        if end == self.next {
            self.next = at;
            if self.hole_end == at && self.hole != at {
                self.next = self.hole;
                self.hole = 0;
                self.hole_end = 0;
            }
        } else if end == self.hole {
            self.hole = at;
        } else if at == self.hole_end {
            self.hole_end = end;
        } else if size > self.hole_end - self.hole {
            self.hole = at;
            self.hole_end = end;
        }
    }

    /// Resizes the block at `at` from `old` to `new` bytes. The newest block
    /// grows or shrinks where it is (growing the memory if the region ends
    /// with it), and so does the last block cut from the hole within the
    /// hole; another one shrinks in place or moves (the caller then frees
    /// the old block).
    #[inline(always)]
    fn resize(&mut self, at: usize, old: usize, new: usize, align: usize) -> Option<Resized> {
        if at + old == self.hole
            && let Some(end) = at.checked_add(new)
            && end <= self.hole_end
        {
            self.hole = end;
            return Some(Resized::InPlace);
        }
        if at + old == self.next {
            let end = at.checked_add(new)?;
            // A grow that continues the region leaves `next` where it was
            // and ends the region past `end`.
            let fits = end <= self.end || (self.grow(end - self.end, 0) && self.next == at + old);
            if fits {
                self.next = end;
                return Some(Resized::InPlace);
            }
        } else if new <= old {
            return Some(Resized::InPlace);
        }
        self.take(new, align).map(Resized::Moved)
    }
}

/// The wasm instance's memory.
#[cfg(target_arch = "wasm32")]
struct Linear;

#[cfg(target_arch = "wasm32")]
impl Memory for Linear {
    fn arena(&mut self) -> usize {
        crate::ALLOCATOR.arena.get() as usize
    }
    fn grow(&mut self, pages: usize) -> usize {
        core::arch::wasm32::memory_grow(0, pages)
    }
}

/// The global allocator of the wasm build: its state, then the arena (zero
/// bytes in the initial memory, no data segment, touched only as far as
/// allocations reach). One static, so the state is on the arena's first page
/// rather than on a page of its own after the arena.
#[cfg(target_arch = "wasm32")]
#[repr(C)]
pub(crate) struct Bump {
    region: UnsafeCell<Region<Linear>>,
    arena: UnsafeCell<[u8; ARENA]>,
}

// SAFETY: the wasm32-wasip2 build has one thread; nothing shares the region.
#[cfg(target_arch = "wasm32")]
unsafe impl Sync for Bump {}

#[cfg(target_arch = "wasm32")]
impl Bump {
    pub(crate) const fn new() -> Self {
        Bump {
            region: UnsafeCell::new(Region {
                next: 0,
                end: 0,
                hole: 0,
                hole_end: 0,
                memory: Linear,
            }),
            arena: UnsafeCell::new([0; ARENA]),
        }
    }
}

#[cfg(target_arch = "wasm32")]
unsafe impl GlobalAlloc for Bump {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: one thread, and no allocator call re-enters another.
        let r = unsafe { &mut *self.region.get() };
        match r.take(layout.size(), layout.align()) {
            Some(at) => at as *mut u8,
            None => core::ptr::null_mut(),
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as in `alloc`.
        let r = unsafe { &mut *self.region.get() };
        r.free(ptr as usize, layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as in `alloc`.
        let r = unsafe { &mut *self.region.get() };
        match r.resize(ptr as usize, layout.size(), new_size, layout.align()) {
            Some(Resized::InPlace) => ptr,
            Some(Resized::Moved(new)) => {
                // SAFETY: both blocks are live, `new` is fresh so they do
                // not overlap, and the old one is the smaller (a shrink
                // stays in place).
                unsafe { core::ptr::copy_nonoverlapping(ptr, new as *mut u8, layout.size()) };
                r.free(ptr as usize, layout.size());
                new as *mut u8
            }
            None => core::ptr::null_mut(),
        }
    }
}

#[cfg(test)]
#[path = "bump_tests.rs"]
mod tests;
