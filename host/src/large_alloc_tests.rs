use super::*;

fn layout(size: usize) -> Layout {
    Layout::from_size_align(size, 8).unwrap()
}

/// Minor page faults of this thread so far.
fn faults() -> i64 {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut u) };
    u.ru_minflt
}

/// The mapping a block of `size` bytes gets when new: a header page and its pages.
fn mapped(size: usize) -> usize {
    os::page() + pages(size)
}

fn touch(p: *mut u8, len: usize, byte: u8) {
    unsafe { p.write_bytes(byte, len) };
}

#[test]
fn small_blocks_go_to_the_system_allocator() {
    let a = LargeAllocs::new();
    unsafe {
        let p = a.alloc(layout(1000));
        touch(p, 1000, 1);
        a.dealloc(p, layout(1000));
    }
    assert_eq!(a.cached(), (0, 0));
}

#[test]
fn a_freed_large_block_is_kept_and_reused_without_faulting_again() {
    let a = LargeAllocs::new();
    let size = 1 << 20;
    unsafe {
        let p = a.alloc(layout(size));
        assert_eq!(p as usize % os::page(), 0);
        touch(p, size, 7);
        a.dealloc(p, layout(size));
        assert_eq!(a.cached(), (1, mapped(size)));
        let before = faults();
        let q = a.alloc(layout(size));
        touch(q, size, 9);
        let after = faults();
        assert_eq!(q, p, "the kept mapping is handed out again");
        assert!(
            after - before < 8,
            "{} faults reusing a resident 1 MiB block",
            after - before
        );
        assert_eq!(a.cached(), (0, 0));
        a.dealloc(q, layout(size));
    }
    assert_eq!(a.release(), mapped(size));
    assert_eq!(a.cached(), (0, 0));
}

#[test]
fn a_reused_block_keeps_its_slack_grows_into_it_and_is_zeroed_when_asked() {
    let a = LargeAllocs::new();
    unsafe {
        let p = a.alloc(layout(600 << 10));
        touch(p, 600 << 10, 0xAB);
        a.dealloc(p, layout(600 << 10));
        // Smaller, within the slack: the whole mapping is handed out.
        let q = a.alloc_zeroed(layout(300 << 10));
        assert_eq!(q, p);
        assert!(std::slice::from_raw_parts(q, 300 << 10).iter().all(|&b| b == 0));
        // Growing within the mapping keeps the block where it is.
        let before = faults();
        let r = a.realloc(q, layout(300 << 10), 590 << 10);
        touch(r, 590 << 10, 3);
        assert_eq!(r, p);
        assert!(faults() - before < 8, "growing into resident slack faults");
        a.dealloc(r, layout(590 << 10));
        assert_eq!(a.cached(), (1, mapped(600 << 10)));
        // Far smaller: the excess goes back to the kernel.
        let s = a.alloc(layout(LARGE));
        a.dealloc(s, layout(LARGE));
        assert_eq!(a.cached(), (1, mapped(LARGE)));
        // Larger than any kept: grown (or moved) with its pages.
        let t = a.alloc(layout(900 << 10));
        touch(t, 900 << 10, 1);
        a.dealloc(t, layout(900 << 10));
        assert_eq!(a.cached(), (1, mapped(900 << 10)));
    }
    a.release();
}

#[test]
fn the_nearest_fitting_block_is_taken() {
    let a = LargeAllocs::new();
    unsafe {
        let sizes = [1 << 20, 256 << 10, 512 << 10];
        let ptrs: Vec<_> = sizes.iter().map(|&s| a.alloc(layout(s))).collect();
        for (&p, &s) in ptrs.iter().zip(&sizes) {
            a.dealloc(p, layout(s));
        }
        let q = a.alloc(layout(300 << 10));
        assert_eq!(q, ptrs[2], "the 512 KiB block, not the 1 MiB one");
        a.dealloc(q, layout(300 << 10));
    }
    a.release();
}

#[test]
fn the_cache_is_bounded_in_bytes_and_slots() {
    let a = LargeAllocs::new();
    a.cap.store(2 * mapped(512 << 10), Ordering::Relaxed);
    unsafe {
        let ps: Vec<_> = (0..3).map(|_| a.alloc(layout(512 << 10))).collect();
        for p in ps {
            a.dealloc(p, layout(512 << 10));
        }
    }
    assert_eq!(a.cached(), (2, 2 * mapped(512 << 10)), "the third is unmapped");
    a.release();
    a.cap.store(usize::MAX, Ordering::Relaxed);
    unsafe {
        let ps: Vec<_> = (0..SLOTS + 4).map(|_| a.alloc(layout(LARGE))).collect();
        for p in ps {
            a.dealloc(p, layout(LARGE));
        }
    }
    assert_eq!(a.cached(), (SLOTS, SLOTS * mapped(LARGE)));
    assert_eq!(a.release(), SLOTS * mapped(LARGE));
}

#[test]
fn realloc_keeps_the_contents_across_both_kinds_of_block() {
    let a = LargeAllocs::new();
    unsafe {
        let mut p = a.alloc(layout(1000));
        for i in 0..1000 {
            *p.add(i) = i as u8;
        }
        let mut size = 1000;
        // Small → large → larger → smaller large → small.
        for next in [200 << 10, 700 << 10, 150 << 10, 500] {
            p = a.realloc(p, layout(size), next);
            assert!(!p.is_null());
            let kept = size.min(next).min(1000);
            assert!((0..kept).all(|i| *p.add(i) == i as u8), "{size} → {next}");
            touch(p.add(kept), next - kept, 0);
            size = next;
        }
        a.dealloc(p, layout(size));
    }
    a.release();
}

#[test]
fn a_large_shrink_gives_the_tail_back_and_a_small_one_keeps_it() {
    let a = LargeAllocs::new();
    let size = 1 << 20;
    unsafe {
        let p = a.alloc(layout(size));
        for i in 0..size {
            *p.add(i) = (i % 251) as u8;
        }
        // 1 MiB → 1 MiB less a page: the slack stays (a later growth reuses it).
        let q = a.realloc(p, layout(size), size - os::page());
        assert_eq!(q, p);
        assert_eq!(mapping_of(q).1, mapped(size));
        // → 300 KiB: the mapping is cut to what the block needs, in place.
        let small = 300 << 10;
        let r = a.realloc(q, layout(size - os::page()), small);
        assert_eq!(r, p, "shrunk in place");
        assert_eq!(mapping_of(r).1, mapped(small));
        assert!((0..small).all(|i| *r.add(i) == (i % 251) as u8));
        // Growing again past the cut maps anew (or remaps) and keeps the bytes.
        let g = a.realloc(r, layout(small), size);
        assert!(!g.is_null());
        assert!((0..small).all(|i| *g.add(i) == (i % 251) as u8));
        a.dealloc(g, layout(size));
    }
    a.release();
}

#[test]
fn over_aligned_blocks_go_to_the_system_allocator() {
    let a = LargeAllocs::new();
    let l = Layout::from_size_align(LARGE * 2, os::page() * 4).unwrap();
    unsafe {
        let p = a.alloc(l);
        assert_eq!(p as usize % (os::page() * 4), 0);
        a.dealloc(p, l);
    }
    assert_eq!(a.cached(), (0, 0));
}

#[test]
fn the_global_allocator_moves_blocks_between_small_medium_and_large() {
    let pattern = |n: usize| (0..n).map(|i| (i % 251) as u8).collect::<Vec<u8>>();
    let mut size = 24;
    unsafe {
        let mut p = Global.alloc(layout(size));
        p.copy_from_nonoverlapping(pattern(size).as_ptr(), size);
        for new in [600, 3000, LARGE + 5000, 4 * LARGE, 100, LARGE * 2, 8] {
            p = Global.realloc(p, layout(size), new);
            assert!(!p.is_null());
            let kept = size.min(new);
            assert_eq!(
                std::slice::from_raw_parts(p, kept),
                &pattern(size)[..kept],
                "{size} → {new}"
            );
            p.copy_from_nonoverlapping(pattern(new).as_ptr(), new);
            size = new;
        }
        Global.dealloc(p, layout(size));
        let z = Global.alloc_zeroed(layout(40));
        assert!(std::slice::from_raw_parts(z, 40).iter().all(|&b| b == 0));
        Global.dealloc(z, layout(40));
    }
}
