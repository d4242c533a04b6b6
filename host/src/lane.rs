//! Which serving thread the current thread is, and the runtimes that serve:
//! set by the per-thread serving runtimes ([`crate::serving`]), read by what
//! keeps per-thread state so that a request's work stays on its thread (the
//! HTTP engine's connection pools) and by what counts over all runtimes (the
//! tasks-alive gauge).

use std::cell::Cell;
use std::sync::Mutex;
use tokio::runtime::Handle;

thread_local! {
    static LANE: Cell<Option<usize>> = const { Cell::new(None) };
}

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
}
