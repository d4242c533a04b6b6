//! The bump allocator's bookkeeping against a simulated memory: where
//! blocks go, when the memory grows, what resizing and freeing do, and what
//! a refused grow leaves, and how freed blocks are reused.

use super::{ARENA, HOST_PAGE, Memory, PAGE, Region, Resized};

/// A memory of `pages` pages with the arena at `at` (1 MiB unless a test
/// moves it), grown up to `cap` pages; `others` pages are grown by someone
/// else before each grow.
struct Fake {
    at: usize,
    pages: usize,
    cap: usize,
    others: usize,
    grows: usize,
}

const ARENA_AT: usize = 1 << 20;

impl Memory for Fake {
    fn arena(&mut self) -> usize {
        self.at
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
        hole: 0,
        hole_end: 0,
        memory: Fake {
            at: ARENA_AT,
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
fn only_the_newest_block_goes_back_to_the_region() {
    let mut r = region(100, 0);
    let a = r.take(100, 1).unwrap();
    let b = r.take(50, 1).unwrap();
    r.free(a, 100);
    assert_eq!(r.next, b + 50, "an older block's bytes stay out of the region");
    assert_eq!(r.take(101, 1), Some(b + 50));
    r.free(b + 50, 101);
    r.free(b, 50);
    assert_eq!(
        r.take(20, 1),
        Some(a),
        "the newest block's bytes are taken again, and the hole that ends there"
    );
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

#[test]
fn a_freed_older_block_is_the_hole_later_blocks_are_cut_from() {
    let mut r = region(100, 0);
    let a = r.take(100, 1).unwrap();
    let b = r.take(50, 1).unwrap();
    r.free(a, 100);
    assert_eq!(r.take(30, 1), Some(a), "cut from the hole's start");
    assert_eq!(r.take(8, 8), Some(a + 32), "aligned inside the hole");
    assert_eq!(
        r.take(61, 1),
        Some(b + 50),
        "too large for the hole's 60 bytes left"
    );
    assert_eq!(r.take(60, 1), Some(a + 40), "the hole to its last byte");
    assert_eq!(r.take(1, 1), Some(b + 111), "an empty hole: the region");
}

#[test]
fn freed_blocks_join_the_hole_or_replace_a_smaller_one() {
    let mut r = region(100, 0);
    let blocks: Vec<usize> = (0..6).map(|_| r.take(100, 1).unwrap()).collect();
    r.free(blocks[1], 100);
    r.free(blocks[2], 100); // starts where the hole ends
    r.free(blocks[0], 100); // ends where the hole starts
    assert_eq!((r.hole, r.hole_end), (blocks[0], blocks[0] + 300));
    let smaller = r.take(250, 1).unwrap();
    assert_eq!(smaller, blocks[0]);
    r.free(blocks[4], 100);
    assert_eq!(
        (r.hole, r.hole_end),
        (blocks[4], blocks[4] + 100),
        "larger than the 50 left"
    );
    r.free(smaller, 250);
    assert_eq!(
        (r.hole, r.hole_end),
        (blocks[0], blocks[0] + 250),
        "larger than 100"
    );
    r.free(blocks[3], 100);
    assert_eq!(
        (r.hole, r.hole_end),
        (blocks[0], blocks[0] + 250),
        "not larger: unused"
    );
}

#[test]
fn freeing_the_newest_block_takes_a_hole_that_ends_there_back_into_the_region() {
    let mut r = region(100, 0);
    let a = r.take(100, 1).unwrap();
    let b = r.take(100, 1).unwrap();
    let c = r.take(100, 1).unwrap();
    r.free(b, 100);
    r.free(c, 100);
    assert_eq!((r.next, r.hole, r.hole_end), (b, 0, 0));
    assert_eq!(r.take(150, 1), Some(b), "the region continues after `a`");
    assert_eq!(a + 100, b);
}

#[test]
fn the_last_block_cut_from_the_hole_resizes_within_it() {
    let mut r = region(100, 0);
    let a = r.take(1000, 1).unwrap();
    let _b = r.take(10, 1).unwrap();
    r.free(a, 1000);
    let s = r.take(100, 1).unwrap();
    assert_eq!(s, a);
    assert_eq!(r.resize(s, 100, 800, 1), Some(Resized::InPlace));
    assert_eq!(r.hole, a + 800);
    assert_eq!(r.resize(s, 800, 300, 1), Some(Resized::InPlace));
    assert_eq!(r.hole, a + 300, "a shrink gives the bytes back to the hole");
    let t = r.take(100, 1).unwrap();
    assert_eq!(t, a + 300);
    assert_eq!(
        r.resize(s, 300, 400, 1),
        Some(Resized::Moved(a + 400)),
        "not the last: it moves"
    );
    assert_eq!(
        r.resize(t, 100, 1000, 1),
        Some(Resized::Moved(a + 1010)),
        "past the hole's end"
    );
}

/// Random allocations, frees and resizes (freeing the old block after a
/// move, as `realloc` does): live blocks never overlap, are aligned, and lie
/// in the arena or grown memory.
#[test]
fn live_blocks_never_overlap_under_random_use() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..40 {
        let mut r = region(1 << 20, 0);
        // Every other round the arena ends 0..4 KiB past a page boundary,
        // so it has a tail (the first hole).
        let at = ARENA_AT + (round % 2) * rand(HOST_PAGE);
        r.memory.at = at;
        let mut live: Vec<(usize, usize)> = Vec::new();
        for _ in 0..3000 {
            let size = [1, 7, 16, 100, 900, 5000, 70_000][rand(7)] + rand(64);
            let align = 1 << rand(5);
            match rand(4) {
                0 | 1 => {
                    let at = r.take(size, align).expect("within the cap");
                    assert_eq!(at % align, 0);
                    live.push((at, size));
                }
                2 if !live.is_empty() => {
                    let (at, old) = live.swap_remove(rand(live.len()));
                    r.free(at, old);
                }
                _ if !live.is_empty() => {
                    let i = rand(live.len());
                    let (at, old) = live[i];
                    live[i] = match r.resize(at, old, size, 1).expect("within the cap") {
                        Resized::InPlace => (at, size),
                        Resized::Moved(new) => {
                            r.free(at, old);
                            (new, size)
                        }
                    };
                }
                _ => {}
            }
            let mut sorted = live.clone();
            sorted.sort_unstable();
            for w in sorted.windows(2) {
                assert!(w[0].0 + w[0].1 <= w[1].0, "{w:?} overlap");
            }
            for &(at, size) in &live {
                let in_arena = at >= r.memory.at && at + size <= r.memory.at + ARENA;
                let in_grown = at >= 26 * PAGE && at + size <= r.memory.pages * PAGE;
                assert!(in_arena || in_grown, "{at}+{size} outside the memory");
            }
        }
    }
}

/// An arena that ends 3 KiB into a host page: that page is written anyway
/// (the statics after the arena), so blocks are cut from its 3 KiB first,
/// and the arena's start takes what does not fit.
#[test]
fn the_arena_tail_on_the_page_after_it_is_the_first_hole() {
    let mut r = region(100, 0);
    let at = ARENA_AT + HOST_PAGE - 1024;
    r.memory.at = at;
    let tail = ARENA_AT + ARENA;
    assert_eq!(r.take(100, 8), Some(tail), "a small block: the tail");
    assert_eq!(r.take(4000, 1), Some(at), "too large for the tail's rest");
    assert_eq!(r.take(8, 8), Some(tail + 104), "the tail again");
    assert_eq!(
        r.take(3072 - 112, 1),
        Some(tail + 112),
        "the tail to its last byte"
    );
    assert_eq!(r.take(1, 1), Some(at + 4000), "the tail used up: the arena");
    // The region ends where the tail starts: the arena's bytes before it
    // are all there, and then the memory grows.
    assert_eq!(r.take(tail - at - 4001, 1), Some(at + 4001));
    assert_eq!(r.take(1, 1), Some(26 * PAGE));
    assert_eq!(r.memory.grows, 1);
}

#[test]
fn an_arena_ending_on_a_page_boundary_has_no_tail() {
    let mut r = region(100, 0);
    assert_eq!(r.take(1, 1), Some(ARENA_AT));
    assert_eq!((r.hole, r.hole_end), (ARENA_AT + ARENA, ARENA_AT + ARENA));
}
