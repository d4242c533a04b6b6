//! Frees left until the response is on its way. On a serving thread
//! ([`crate::lane`]) with a request in flight, a value the request no longer
//! needs (the cleaned document, a finished plugin call's store) goes on the
//! thread's pile ([`drop_later`]); when a response leaves the request layer,
//! [`AfterResponse`] spawns a task on the thread's runtime that drops the pile.
//! A serving runtime runs one thread, so that task runs when the connection's
//! task yields: after hyper has written the response, while the client reads
//! it. The work is the same; only the wait for it moves off the response.
//! Elsewhere (blocking threads, background jobs, a thread with no request in
//! flight) a value is dropped at once, and so is the pile once it holds
//! [`MAX_PILE`] values, so what waits is bounded.

use std::any::Any;
use std::cell::{Cell, RefCell};

/// Values a thread keeps before it drops its pile at once.
pub const MAX_PILE: usize = 8;

thread_local! {
    static PILE: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
    static SCHEDULED: Cell<bool> = const { Cell::new(false) };
}

/// Drops `value` after the current response is written when this is a
/// serving thread with a request in flight; else now.
pub fn drop_later<T: 'static>(value: T) {
    if !crate::lane::busy() {
        return drop(value);
    }
    let full = PILE.with(|pile| {
        let mut pile = pile.borrow_mut();
        pile.push(Box::new(value));
        pile.len() >= MAX_PILE
    });
    if full {
        drop_now();
    }
}

/// How many values wait on this thread's pile.
pub fn waiting() -> usize {
    PILE.with(|pile| pile.borrow().len())
}

/// Drops this thread's pile now (also what a serving thread does once its
/// runtime has stopped, when no task is left to do it).
pub fn drop_now() {
    SCHEDULED.with(|s| s.set(false));
    // Taken out first: a value's drop may itself call `drop_later`.
    let pile = PILE.with(|pile| std::mem::take(&mut *pile.borrow_mut()));
    drop(pile);
}

/// Held by the request layer while it makes a response; when dropped (the
/// response made, or the request cancelled) it has this thread's pile
/// dropped by a task of the thread's runtime, after the current task yields.
pub struct AfterResponse;

impl Drop for AfterResponse {
    fn drop(&mut self) {
        if waiting() == 0 || SCHEDULED.with(|s| s.replace(true)) {
            return;
        }
        match tokio::runtime::Handle::try_current() {
            // Only a one-thread runtime runs the task where the pile is.
            Ok(rt) if rt.runtime_flavor() == tokio::runtime::RuntimeFlavor::CurrentThread => {
                rt.spawn(async { drop_now() });
            }
            _ => drop_now(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    /// Counts its drops.
    struct Counted(Rc<Cell<usize>>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }

    /// Runs `test` on a thread of its own marked as serving thread `lane`
    /// (lanes 50–53 are no other test's), with a drop counter.
    fn on_lane(lane: usize, test: impl FnOnce(&Rc<Cell<usize>>) + Send + 'static) {
        std::thread::spawn(move || {
            crate::lane::enter(lane);
            test(&Rc::new(Cell::new(0)));
        })
        .join()
        .unwrap();
    }

    #[test]
    fn off_a_busy_serving_thread_a_value_is_dropped_at_once() {
        std::thread::spawn(|| {
            let drops = Rc::new(Cell::new(0));
            drop_later(Counted(drops.clone()));
            assert_eq!(drops.get(), 1, "not a serving thread");
        })
        .join()
        .unwrap();
        on_lane(50, |drops| {
            drop_later(Counted(drops.clone()));
            assert_eq!(drops.get(), 1, "a serving thread with no request in flight");
            assert_eq!(waiting(), 0);
        });
    }

    #[test]
    fn the_pile_is_dropped_after_the_response_task_yields() {
        on_lane(51, |drops| {
            let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
            rt.block_on(async {
                let request = crate::lane::request();
                let response = AfterResponse;
                drop_later(Counted(drops.clone()));
                drop_later(Counted(drops.clone()));
                assert_eq!(drops.get(), 0, "kept while the request runs");
                assert_eq!(waiting(), 2);
                // The response leaves: still nothing dropped in this poll.
                drop(response);
                drop(request);
                assert_eq!(drops.get(), 0, "kept until the task yields");
                tokio::task::yield_now().await;
                assert_eq!(drops.get(), 2, "dropped once the task yielded");
                assert_eq!(waiting(), 0);
            });
        });
    }

    #[test]
    fn a_full_pile_is_dropped_at_once() {
        on_lane(52, |drops| {
            let _request = crate::lane::request();
            for _ in 0..MAX_PILE - 1 {
                drop_later(Counted(drops.clone()));
            }
            assert_eq!(drops.get(), 0);
            drop_later(Counted(drops.clone()));
            assert_eq!(drops.get(), MAX_PILE);
            assert_eq!(waiting(), 0);
        });
    }

    #[test]
    fn outside_a_one_thread_runtime_the_response_drops_the_pile_itself() {
        on_lane(53, |drops| {
            let request = crate::lane::request();
            drop_later(Counted(drops.clone()));
            // No runtime here: nothing could run a task later.
            drop(AfterResponse);
            assert_eq!(drops.get(), 1);
            drop(request);
        });
    }
}
