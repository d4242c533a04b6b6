use super::*;

fn layout(size: usize, align: usize) -> Layout {
    Layout::from_size_align(size, align).unwrap()
}

/// Runs `f` on a thread of its own (its own cache), one test at a time:
/// [`flush_all`] is the whole process's.
fn on_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let _one = serial();
    std::thread::spawn(f).join().unwrap()
}

/// Held by a test that fills a cache or flushes them.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn every_small_size_and_alignment_is_aligned_and_writable() {
    on_thread(|| {
        let mut held = Vec::new();
        for size in 1..=SMALL + 64 {
            for align in [1, 2, 4, 8, 16, 32] {
                let l = layout(size, align);
                let p = unsafe { SmallAllocs.alloc(l) };
                assert!(!p.is_null());
                assert_eq!(p as usize % align, 0, "size {size} align {align}");
                unsafe { p.write_bytes(0xAB, size) };
                held.push((p, l));
            }
            // Free half at once, so later sizes get cached blocks back.
            if size % 2 == 0 {
                for (p, l) in held.drain(..) {
                    unsafe { SmallAllocs.dealloc(p, l) };
                }
            }
        }
        for (p, l) in held {
            unsafe { SmallAllocs.dealloc(p, l) };
        }
    });
}

#[test]
fn a_freed_block_serves_any_size_of_its_class() {
    on_thread(|| unsafe {
        let p = SmallAllocs.alloc(layout(100, 8));
        SmallAllocs.dealloc(p, layout(100, 8));
        assert!(cached_here() >= 112);
        // 100 and 112 bytes are both the 112-byte class.
        let q = SmallAllocs.alloc(layout(112, 16));
        assert_eq!(q, p, "the cached block is handed out again");
        q.write_bytes(1, 112);
        SmallAllocs.dealloc(q, layout(112, 16));
        // A different class does not get it.
        let r = SmallAllocs.alloc(layout(200, 8));
        assert_ne!(r, p);
        SmallAllocs.dealloc(r, layout(200, 8));
    });
}

#[test]
fn zeroed_blocks_are_zero_even_when_cached() {
    on_thread(|| unsafe {
        for size in [1, 16, 17, 300, SMALL] {
            let l = layout(size, 8);
            let p = SmallAllocs.alloc(l);
            p.write_bytes(0xFF, size);
            SmallAllocs.dealloc(p, l);
            let q = SmallAllocs.alloc_zeroed(l);
            assert_eq!(q, p, "size {size}: the cached block comes back");
            assert!(
                std::slice::from_raw_parts(q, size).iter().all(|&b| b == 0),
                "size {size}"
            );
            SmallAllocs.dealloc(q, l);
        }
    });
}

#[test]
fn realloc_keeps_the_bytes_across_classes_and_out_of_them() {
    on_thread(|| unsafe {
        let pattern = |n: usize| (0..n).map(|i| (i * 7 + 3) as u8).collect::<Vec<u8>>();
        let mut size = 10;
        let mut p = SmallAllocs.alloc(layout(size, 8));
        p.copy_from_nonoverlapping(pattern(size).as_ptr(), size);
        // Within the class: the same block.
        let same = SmallAllocs.realloc(p, layout(size, 8), 16);
        assert_eq!(same, p);
        size = 16;
        p.copy_from_nonoverlapping(pattern(size).as_ptr(), size);
        for new in [40, 1000, 5000, 70_000, 900, 24, 3] {
            p = SmallAllocs.realloc(p, layout(size, 8), new);
            assert!(!p.is_null());
            assert_eq!(p as usize % 8, 0);
            let kept = size.min(new);
            assert_eq!(
                std::slice::from_raw_parts(p, kept),
                &pattern(size)[..kept],
                "{size} → {new}"
            );
            // Refill the whole block so the next step checks all of it.
            p.copy_from_nonoverlapping(pattern(new).as_ptr(), new);
            size = new;
        }
        SmallAllocs.dealloc(p, layout(size, 8));
        // The block freed after shrinking into a class serves that class whole.
        let q = SmallAllocs.alloc(layout(16, 8));
        q.write_bytes(9, 16);
        SmallAllocs.dealloc(q, layout(16, 8));
    });
}

#[test]
fn a_thread_keeps_at_most_its_cap() {
    on_thread(|| unsafe {
        let l = layout(SMALL, 8);
        let blocks: Vec<*mut u8> = (0..2 * DEFAULT_CAP / SMALL)
            .map(|_| SmallAllocs.alloc(l))
            .collect();
        for p in blocks {
            SmallAllocs.dealloc(p, l);
        }
        let kept = cached_here();
        assert!(kept > 0 && kept <= cap(), "kept {kept} of cap {}", cap());
    });
}

#[test]
fn flush_all_empties_this_thread_now_and_others_at_their_next_free() {
    let _one = serial();
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
    let other = std::thread::spawn(move || unsafe {
        let l = layout(64, 8);
        let blocks: Vec<*mut u8> = (0..100).map(|_| SmallAllocs.alloc(l)).collect();
        for p in blocks {
            SmallAllocs.dealloc(p, l);
        }
        ready_tx.send(cached_here()).unwrap();
        go_rx.recv().unwrap();
        let p = SmallAllocs.alloc(layout(500, 8));
        SmallAllocs.dealloc(p, layout(500, 8));
        cached_here()
    });
    assert!(ready_rx.recv().unwrap() > 0);
    std::thread::spawn(|| unsafe {
        let p = SmallAllocs.alloc(layout(32, 8));
        SmallAllocs.dealloc(p, layout(32, 8));
        assert!(cached_here() > 0);
        flush_all();
        assert_eq!(cached_here(), 0);
    })
    .join()
    .unwrap();
    go_tx.send(()).unwrap();
    assert_eq!(
        other.join().unwrap(),
        512,
        "only the block freed after the flush is kept"
    );
}

#[test]
fn an_exiting_thread_hands_its_blocks_back() {
    use std::sync::atomic::AtomicBool;
    static DROPPED: AtomicBool = AtomicBool::new(false);
    /// Frees blocks in its thread-local destructor, before the exit flush.
    struct FreesOnDrop(Vec<(*mut u8, Layout)>);
    impl Drop for FreesOnDrop {
        fn drop(&mut self) {
            for &(p, l) in &self.0 {
                unsafe { SmallAllocs.dealloc(p, l) };
            }
            DROPPED.store(true, Ordering::SeqCst);
        }
    }
    thread_local! {
        static LATE: std::cell::RefCell<FreesOnDrop> = const { std::cell::RefCell::new(FreesOnDrop(Vec::new())) };
    }
    let _one = serial();
    let before = flushed_bytes();
    let cached = std::thread::spawn(|| unsafe {
        let l = layout(48, 8);
        let blocks: Vec<*mut u8> = (0..50).map(|_| SmallAllocs.alloc(l)).collect();
        for p in blocks {
            SmallAllocs.dealloc(p, l);
        }
        LATE.with(|late| {
            let mut late = late.borrow_mut();
            late.0 = (0..10)
                .map(|_| (SmallAllocs.alloc(layout(700, 8)), layout(700, 8)))
                .collect();
        });
        cached_here()
    })
    .join()
    .unwrap();
    assert!(DROPPED.load(Ordering::SeqCst));
    // Other tests' threads exit (and flush) too, so at least this one's
    // blocks, including those its thread-local destructor freed (handed back
    // at its exit, or earlier if another test's flush intervened).
    assert!(
        flushed_bytes() - before >= cached + 10 * 704,
        "flushed {} of {} bytes",
        flushed_bytes() - before,
        cached + 10 * 704
    );
}

#[test]
fn every_size_has_a_class_at_most_a_quarter_larger() {
    let mut last = 0;
    for size in 1..=MEDIUM {
        let k = class(layout(size, 8)).unwrap();
        let have = class_size(k);
        assert!(
            have >= size && have.is_multiple_of(STEP),
            "size {size}: class {k} of {have}"
        );
        assert!(
            have <= (size + size / 4).max(size.next_multiple_of(STEP)),
            "size {size}: {have}"
        );
        assert!(k >= last && k < CLASSES, "classes rise with the size");
        last = k;
    }
    assert_eq!(class_size(last), MEDIUM);
    assert_eq!(class(layout(MEDIUM + 1, 8)), None);
    assert_eq!(
        class(layout(2000, 32)),
        None,
        "more aligned than glibc's malloc: not a class"
    );
}

#[test]
fn a_freed_medium_block_serves_any_size_of_its_class() {
    on_thread(|| unsafe {
        // 20,000 and 20,480 bytes are both the 20 KiB class; 3,000 is not.
        let p = SmallAllocs.alloc(layout(20_000, 8));
        p.write_bytes(3, 20_000);
        SmallAllocs.dealloc(p, layout(20_000, 8));
        assert!(cached_here() >= 20_480);
        let q = SmallAllocs.alloc_zeroed(layout(20_480, 16));
        assert_eq!(q, p, "the cached block is handed out again");
        assert!(std::slice::from_raw_parts(q, 20_480).iter().all(|&b| b == 0));
        SmallAllocs.dealloc(q, layout(20_480, 16));
        let r = SmallAllocs.alloc(layout(3_000, 8));
        assert_ne!(r, p);
        SmallAllocs.dealloc(r, layout(3_000, 8));
    });
}

#[test]
fn realloc_across_classes_takes_a_cached_block_and_caches_the_old_one() {
    on_thread(|| unsafe {
        for (from, to) in [(200, 590), (2_000, 6_100), (700, 40_000)] {
            let cached = SmallAllocs.alloc(layout(to, 8));
            SmallAllocs.dealloc(cached, layout(to, 8));
            let p = SmallAllocs.alloc(layout(from, 8));
            for i in 0..from {
                *p.add(i) = (i % 251) as u8;
            }
            let q = SmallAllocs.realloc(p, layout(from, 8), to);
            assert_eq!(q, cached, "{from} → {to}: the new class's cached block");
            assert!(
                (0..from).all(|i| *q.add(i) == (i % 251) as u8),
                "{from} → {to}: the bytes moved"
            );
            // The old block is cached in its class.
            let again = SmallAllocs.alloc(layout(from, 8));
            assert_eq!(again, p, "{from} → {to}: the old block cached");
            SmallAllocs.dealloc(again, layout(from, 8));
            SmallAllocs.dealloc(q, layout(to, 8));
        }
    });
}
