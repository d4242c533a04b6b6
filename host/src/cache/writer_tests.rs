//! The writer's queue bound in bytes: a burst of large values beyond
//! [`QUEUE_BYTES`] keeps them in memory only, and the bound frees again once
//! the thread has committed what it took.

use super::*;
use crate::cache::codec;
use crate::cache::store::now_ms;
use crate::cache::tests::temp_dir;

fn writer(name: &str) -> (Writer, Arc<Disk>, std::path::PathBuf) {
    let dir = temp_dir(name);
    let disk = Arc::new(Disk::open(&dir.join("cache.redb"), 1 << 30).expect("open the file"));
    let hot: HotTier = Cache::builder().max_capacity(1 << 20).build();
    (Writer::start(disk.clone(), hot), disk, dir)
}

fn value(len: usize) -> Arc<[u8]> {
    let now = now_ms();
    codec::encode_raw_shared(&[&vec![b'x'; len]], now, now + 86_400_000)
}

#[tokio::test]
async fn queued_bytes_are_bounded_and_freed_after_the_commit() {
    let (w, disk, dir) = writer("writer-bytes");
    let big = value(1 << 20);
    // The thread lingers before it takes a batch, and once half the bound waits it
    // still compresses and commits before any byte is freed: a burst this fast
    // arrives while the first values wait, so the bound drops what does not fit
    // (more fit only if this thread stalls for a whole commit; the exact
    // admission is `admission_takes_one_oversized_value_alone…` below).
    let kept = (0..40).filter(|i| w.put(&format!("k{i}"), big.clone())).count();
    assert!(
        ((QUEUE_BYTES >> 20) - 1..40).contains(&kept),
        "{kept} MiB values queued under a {} MiB bound",
        QUEUE_BYTES >> 20
    );
    assert_eq!(w.dropped(), 40 - kept as u64);
    w.sync().await.expect("the writes reach the file");
    assert_eq!(
        w.queued.0.load(Ordering::Acquire),
        0,
        "committed values no longer count"
    );
    assert!(disk.get("k0").expect("read").is_some());
    // The bound freed: a new burst is queued again.
    assert!(w.put("again", big.clone()));
    drop(w);
    assert!(disk.get("again").expect("read").is_some());
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_value_larger_than_the_bound_is_written_when_nothing_waits() {
    let (w, disk, dir) = writer("writer-oversize");
    let huge = value(QUEUE_BYTES + 1);
    assert!(w.put("huge", huge));
    // (Whether a second one would be dropped depends on whether the thread, hurried by
    // the bytes waiting, has committed the first yet: see the admission test below.)
    w.sync().await.expect("the write reaches the file");
    assert!(disk.get("huge").expect("read").is_some());
    assert_eq!(w.queued.0.load(Ordering::Acquire), 0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn admission_takes_one_oversized_value_alone_and_nothing_beside_it() {
    let q = Queued::default();
    assert!(!q.heavy());
    assert!(q.admit(QUEUE_BYTES + 1), "alone, a value over the bound is taken");
    assert!(q.heavy(), "it hurries the thread");
    assert!(!q.admit(1), "nothing is taken beside it");
    q.done(QUEUE_BYTES + 1);
    assert!(q.admit(QUEUE_BYTES / 2), "freed, the bound takes values again");
    assert!(q.heavy());
    assert!(q.admit(QUEUE_BYTES / 2));
    assert!(!q.admit(1), "full");
}
