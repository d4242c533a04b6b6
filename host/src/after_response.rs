//! Drops a response does not wait for. A value a request no longer needs (its
//! parsed and cleaned document, a plugin call's store) handed to
//! [`drop_later`] on a serving thread ([`crate::serving`]) goes on that
//! thread's queue; a task spawned on the thread's runtime empties it once the
//! request's task yields. For HTTP/1 that is after hyper has written the
//! response (it writes in the same poll that finishes the handler), so the
//! drops run while the client reads and the thread waits for the next request
//! or an origin. Anywhere else (the shared multi-thread runtime with
//! `DISTILL_SERVING_THREADS=0`, a blocking thread, no runtime) the value is
//! dropped at once, as before. The queue holds at most [`LIMIT`] values: one
//! more empties it in place, so garbage never piles up under load.

use std::any::Any;
use std::cell::RefCell;

/// Values a thread's queue holds before it is emptied in place. A request
/// queues two or three; a drop task runs each time the thread's tasks yield.
pub const LIMIT: usize = 32;

thread_local! {
    static QUEUE: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// Drops `value` after the current request's response is written when this
/// is a serving thread, else now.
pub fn drop_later<T: 'static>(value: T) {
    // A serving thread drives one current-thread runtime, so the task spawned
    // below runs on this thread and finds this thread's queue.
    if crate::lane::current().is_none() || tokio::runtime::Handle::try_current().is_err() {
        return;
    }
    let value: Box<dyn Any> = Box::new(value);
    let (spawn, full) = QUEUE.with(|q| {
        let mut q = q.borrow_mut();
        if q.len() >= LIMIT {
            // Taken out, dropped below: a drop may queue again.
            return (false, Some(std::mem::replace(&mut *q, vec![value])));
        }
        q.push(value);
        (q.len() == 1, None)
    });
    drop(full);
    if spawn {
        tokio::spawn(async { flush() });
    }
}

/// Drops everything this thread has queued (the drop task; a serving thread
/// also calls it before its runtime ends).
pub fn flush() {
    // Taken out first: a value's drop may queue another.
    while let Some(queued) = QUEUE.with(|q| {
        let mut q = q.borrow_mut();
        (!q.is_empty()).then(|| std::mem::take(&mut *q))
    }) {
        drop(queued);
    }
}

/// Values this thread has queued.
#[cfg(test)]
pub(crate) fn queued() -> usize {
    QUEUE.with(|q| q.borrow().len())
}

#[cfg(test)]
#[path = "after_response_tests.rs"]
mod tests;
