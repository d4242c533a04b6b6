//! The bump allocator's bookkeeping against a simulated memory: where
//! blocks go, when the memory grows, what resizing and freeing do, and what
//! a refused grow leaves.

use super::{ARENA, Memory, PAGE, Region, Resized};

/// A memory of `pages` pages with the arena at 1 MiB, grown up to `cap`
/// pages; `others` pages are grown by someone else before each grow.
struct Fake {
    pages: usize,
    cap: usize,
    others: usize,
    grows: usize,
}

const ARENA_AT: usize = 1 << 20;

impl Memory for Fake {
    fn arena(&mut self) -> usize {
        ARENA_AT
    }
    fn grow(&mut self, pages: usize) -> usize {
        self.pages += self.others;
        if self.pages + pages > self.cap {
            return usize::MAX;
        }
        self.grows += 1;
        let old = self.pages;
        self.pages += pages;
        old
    }
}

fn region(cap: usize, others: usize) -> Region<Fake> {
    Region {
        next: 0,
        end: 0,
        memory: Fake {
            pages: 26,
            cap,
            others,
            grows: 0,
        },
    }
}

#[test]
fn blocks_come_from_the_arena_in_order_and_aligned_without_growing() {
    let mut r = region(100, 0);
    assert_eq!(r.take(10, 1), Some(ARENA_AT));
    assert_eq!(r.take(8, 8), Some(ARENA_AT + 16));
    assert_eq!(r.take(1, 1), Some(ARENA_AT + 24));
    assert_eq!(r.take(100, 64), Some(ARENA_AT + 64));
    assert_eq!(
        r.take(ARENA - 164, 1),
        Some(ARENA_AT + 164),
        "the arena to its last byte"
    );
    assert_eq!(r.memory.grows, 0);
}

#[test]
fn what_does_not_fit_grows_the_memory_and_later_grows_continue_there() {
    let mut r = region(100, 0);
    r.take(ARENA - 100, 1);
    // 200 bytes do not fit in the arena's last 100: a new region at the
    // memory's old end (26 pages).
    assert_eq!(r.take(200, 8), Some(26 * PAGE));
    assert_eq!(r.memory.grows, 1);
    assert_eq!(r.take(PAGE - 200, 1), Some(26 * PAGE + 200));
    // The region ends where the memory does: a grow continues it.
    assert_eq!(r.take(3 * PAGE, 1), Some(27 * PAGE));
    assert_eq!((r.memory.grows, r.memory.pages), (2, 30));
    assert_eq!(r.take(2 * PAGE, 4096), Some(30 * PAGE), "a page-aligned block");
}

#[test]
fn another_user_of_memory_grow_starts_a_new_region() {
    let mut r = region(100, 2);
    r.take(ARENA, 1);
    // Someone grew 2 pages first: the region starts after them.
    assert_eq!(r.take(10, 1), Some(28 * PAGE));
    r.take(PAGE - 10, 1);
    assert_eq!(r.take(10, 1), Some(31 * PAGE), "and again after the next 2");
}

#[test]
fn only_the_newest_block_is_freed() {
    let mut r = region(100, 0);
    let a = r.take(100, 1).unwrap();
    let b = r.take(50, 1).unwrap();
    r.free(a, 100);
    assert_eq!(r.take(1, 1), Some(b + 50), "an older block's bytes stay taken");
    r.free(b + 50, 1);
    r.free(b, 50);
    assert_eq!(r.take(20, 1), Some(b), "the newest block's bytes are taken again");
}

#[test]
fn the_newest_block_resizes_in_place_and_grows_the_memory_under_it() {
    let mut r = region(100, 0);
    let a = r.take(ARENA - PAGE, 1).unwrap();
    let b = r.take(100, 1).unwrap();
    assert_eq!(r.resize(b, 100, 1000, 1), Some(Resized::InPlace));
    assert_eq!(r.resize(b, 1000, 10, 1), Some(Resized::InPlace));
    assert_eq!(r.take(1, 1), Some(b + 10), "a shrink gives the bytes back");
    // Past the arena's end: the memory does not continue it, so it moves.
    let c = r.take(10, 1).unwrap();
    assert_eq!(r.resize(c, 10, PAGE, 1), Some(Resized::Moved(26 * PAGE)));
    // A block at the end of grown memory grows with it, in place.
    let d = 26 * PAGE;
    assert_eq!(r.resize(d, PAGE, 5 * PAGE, 1), Some(Resized::InPlace));
    assert_eq!((r.next, r.memory.pages), (31 * PAGE, 31));
    // An older block shrinks in place and moves to grow.
    assert_eq!(r.resize(a, ARENA - PAGE, 10, 1), Some(Resized::InPlace));
    assert_eq!(r.resize(a, 10, 20, 8), Some(Resized::Moved(31 * PAGE)));
}

#[test]
fn a_refused_grow_fails_the_allocation_and_leaves_the_region_usable() {
    let mut r = region(28, 0);
    r.take(ARENA - 100, 1);
    assert_eq!(r.take(3 * PAGE, 1), None, "26 + 3 pages is over the cap of 28");
    assert_eq!(
        r.take(50, 1),
        Some(ARENA_AT + ARENA - 100),
        "the arena's rest is still there"
    );
    assert_eq!(r.take(2 * PAGE, 1), Some(26 * PAGE));
    let last = 26 * PAGE;
    assert_eq!(r.resize(last, 2 * PAGE, 3 * PAGE, 1), None);
    assert_eq!(r.resize(last, 2 * PAGE, 2 * PAGE - 1, 1), Some(Resized::InPlace));
    assert_eq!(r.take(usize::MAX - 10, 1), None, "sizes that overflow fail");
}
