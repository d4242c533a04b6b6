//! Which serving thread the current thread is, and the runtimes that serve:
//! set by the per-thread serving runtimes ([`crate::serving`]), read by what
//! keeps per-thread state so that a request's work stays on its thread (the
//! HTTP engine's connection pools) and by what counts over all runtimes (the
//! tasks-alive gauge). Each serving thread also counts its HTTP requests in
//! flight ([`request`]), so work that would otherwise leave the thread to
//! keep its other requests moving can stay when there are none ([`alone`]).

use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::runtime::Handle;

thread_local! {
    static LANE: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Requests in flight per serving thread, by index modulo the length (lanes
/// beyond it share a count, which only makes [`alone`] answer false more often).
static IN_FLIGHT: [AtomicUsize; 64] = [const { AtomicUsize::new(0) }; 64];

/// Runtimes registered by [`register`]: the main one and each serving thread's.
static RUNTIMES: Mutex<Vec<Handle>> = Mutex::new(Vec::new());

/// Marks the current thread as serving thread `index` (of [`crate::serving`]).
pub fn enter(index: usize) {
    LANE.with(|l| l.set(Some(index)));
}

/// The serving thread this is, if it is one.
pub fn current() -> Option<usize> {
    LANE.with(|l| l.get())
}

/// One request in flight on the serving thread it began on (none off the
/// serving threads); counted until dropped, wherever that happens.
pub struct InFlight(Option<usize>);

/// Counts a request in flight on the current serving thread until the
/// returned guard is dropped.
pub fn request() -> InFlight {
    let lane = current().map(|i| i % IN_FLIGHT.len());
    if let Some(i) = lane {
        IN_FLIGHT[i].fetch_add(1, Ordering::Relaxed);
    }
    InFlight(lane)
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Some(i) = self.0 {
            IN_FLIGHT[i].fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// Whether this is a serving thread with at most one request in flight (the
/// caller's own): blocking it for a while then holds up no other request.
/// False off the serving threads.
pub fn alone() -> bool {
    current().is_some_and(|i| IN_FLIGHT[i % IN_FLIGHT.len()].load(Ordering::Relaxed) <= 1)
}

/// Whether this is a serving thread with a request in flight.
pub fn busy() -> bool {
    current().is_some_and(|i| IN_FLIGHT[i % IN_FLIGHT.len()].load(Ordering::Relaxed) > 0)
}

/// Registers a runtime that runs the server's tasks.
pub fn register(runtime: Handle) {
    RUNTIMES.lock().unwrap().push(runtime);
}

/// Tasks alive on every registered runtime, or on the current one when none
/// is registered (`None` outside a runtime).
pub fn tasks_alive() -> Option<usize> {
    let runtimes = RUNTIMES.lock().unwrap();
    if runtimes.is_empty() {
        return Handle::try_current().ok().map(|r| r.metrics().num_alive_tasks());
    }
    Some(runtimes.iter().map(|r| r.metrics().num_alive_tasks()).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_is_no_lane_until_it_enters_one() {
        std::thread::spawn(|| {
            assert_eq!(current(), None);
            enter(1);
            assert_eq!(current(), Some(1));
        })
        .join()
        .unwrap();
        // Another thread is not marked by the first.
        std::thread::spawn(|| assert_eq!(current(), None)).join().unwrap();
    }

    #[test]
    fn a_serving_thread_is_alone_with_at_most_its_own_request() {
        std::thread::spawn(|| {
            // Off the serving threads: never alone, and nothing is counted.
            let off = request();
            assert!(!alone());
            assert_eq!(off.0, None);
            drop(off);
            // Lane 40 is used by no other test.
            enter(40);
            assert!(alone(), "no request in flight");
            let first = request();
            assert!(alone(), "only the caller's own");
            let second = request();
            assert!(!alone(), "another request waits on this thread");
            // A guard dropped elsewhere still counts down its own lane.
            std::thread::spawn(move || drop(second)).join().unwrap();
            assert!(alone());
            // Lanes beyond the counters share one: 40 + 64 sees lane 40's.
            enter(40 + 64);
            let other = request();
            enter(40);
            assert!(!alone());
            drop((first, other));
            assert!(alone());
        })
        .join()
        .unwrap();
    }
}
