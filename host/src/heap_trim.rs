//! Giving freed heap memory back to the kernel. glibc's malloc keeps memory
//! that was freed inside its heaps (a busy minute's parsed pages, documents,
//! response buffers) resident until the top of a heap is free, which under
//! steady load is rarely: resident memory then ratchets up to the highest
//! concurrent demand seen so far and stays there. A background thread calls
//! `malloc_trim(0)` every [`DEFAULT_INTERVAL`] (`DISTILL_MALLOC_TRIM_SECS`,
//! 0 turns it off), which releases every free page in every arena with
//! `madvise` (measured in docs/ROBUSTNESS.md: 82 MiB of a soak's 339 MiB
//! anonymous memory was free heap). It also unmaps the freed large blocks
//! [`crate::large_alloc`] keeps, and asks every thread to empty its cache of
//! small blocks ([`crate::small_alloc`]). Other allocators (or musl) skip it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How often the heap is trimmed when `DISTILL_MALLOC_TRIM_SECS` is unset.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(10);

/// Trims done since start, and the microseconds they took (for `/metrics`).
static TRIMS: AtomicU64 = AtomicU64::new(0);
static TRIM_MICROS: AtomicU64 = AtomicU64::new(0);

/// The interval from `DISTILL_MALLOC_TRIM_SECS` (`None`: turned off with 0).
pub fn interval_from_env() -> Option<Duration> {
    match std::env::var("DISTILL_MALLOC_TRIM_SECS") {
        Ok(v) => match v.trim().parse::<u64>() {
            Ok(0) => None,
            Ok(secs) => Some(Duration::from_secs(secs)),
            Err(_) => {
                eprintln!("DISTILL_MALLOC_TRIM_SECS={v:?} is not a number of seconds; using the default");
                Some(DEFAULT_INTERVAL)
            }
        },
        Err(_) => Some(DEFAULT_INTERVAL),
    }
}

/// Returns free heap pages to the kernel now; false where the allocator
/// has no such call.
pub fn trim_now() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let started = std::time::Instant::now();
        // Threads hand their cached small blocks back at their next free
        // (crate::small_alloc); this trim or the next returns their pages.
        crate::small_alloc::flush_all();
        // Safety: malloc_trim only walks glibc's own arenas under their locks.
        unsafe {
            libc::malloc_trim(0);
        }
        // And the freed large blocks kept mapped (crate::large_alloc).
        crate::large_alloc::release();
        TRIMS.fetch_add(1, Ordering::Relaxed);
        TRIM_MICROS.fetch_add(started.elapsed().as_micros() as u64, Ordering::Relaxed);
        true
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}

/// Trims done so far and the total time they took.
pub fn stats() -> (u64, Duration) {
    (
        TRIMS.load(Ordering::Relaxed),
        Duration::from_micros(TRIM_MICROS.load(Ordering::Relaxed)),
    )
}

/// Starts the thread that trims every `interval` (for the process's life).
pub fn start(interval: Duration) {
    if !cfg!(all(target_os = "linux", target_env = "gnu")) {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("distill-heap-trim".into())
        .spawn(move || {
            loop {
                std::thread::sleep(interval);
                trim_now();
            }
        });
    if let Err(e) = spawned {
        eprintln!("could not start the heap trim thread: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Set in the child process that does the measuring.
    const CHILD: &str = "DISTILL_HEAP_TRIM_TEST_CHILD";

    /// Resident memory is the whole process's, and the other unit tests run
    /// on other threads of this one (allocating, freeing, faulting pages in
    /// while this test reads it). So the test runs itself again in a child
    /// process where it is the only test, and measures there.
    #[test]
    fn trimming_returns_freed_heap_to_the_kernel() {
        if !cfg!(all(target_os = "linux", target_env = "gnu")) {
            return;
        }
        if std::env::var_os(CHILD).is_some() {
            measure_a_trim();
            return;
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "heap_trim::tests::trimming_returns_freed_heap_to_the_kernel",
                "--test-threads=1",
                "--nocapture",
            ])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("1 passed"),
            "the measuring child failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn measure_a_trim() {
        // Many mid-sized blocks (below the mmap threshold, so they live in the
        // heap), every other one kept so the heap's top never frees.
        let blocks: Vec<Vec<u8>> = (0..2048).map(|i| vec![i as u8; 64 << 10]).collect();
        let kept: Vec<Vec<u8>> = blocks
            .into_iter()
            .enumerate()
            .filter_map(|(i, b)| (i % 2 == 1).then_some(b))
            .collect();
        let before = rss_kib();
        assert!(trim_now());
        let after = rss_kib();
        assert!(
            after + 32 * 1024 < before,
            "trimming released less than 32 MiB of 64 MiB freed: {before} KiB → {after} KiB"
        );
        assert_eq!(kept.len(), 1024);
        assert!(stats().0 >= 1);
    }

    fn rss_kib() -> u64 {
        std::fs::read_to_string("/proc/self/status")
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    }
}
