//! The epoch ticker: a thread that advances the engine's epoch every tick
//! while plugin calls are in flight (each call checks its deadline, and
//! yields to the async executor, at every tick) and sleeps while none is, so
//! an idle server has no 100 Hz wake-up. It keeps ticking for a linger after
//! the last call ends: a steady stream of short calls never pays for waking
//! it, and a call that starts while it ticks costs one atomic add.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::Thread;
use std::time::Duration;

/// The ticker thread's handle; dropping it stops the thread.
pub(crate) struct Ticker {
    shared: Arc<Shared>,
    thread: Thread,
}

struct Shared {
    /// Calls in flight.
    calls: AtomicUsize,
    stop: AtomicBool,
}

/// One call in flight: the ticker ticks until every such guard is dropped
/// (and a linger after).
pub(crate) struct InFlight {
    shared: Arc<Shared>,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.shared.calls.fetch_sub(1, Ordering::Release);
    }
}

impl Ticker {
    /// Starts a thread named `name` that calls `tick` every `period` while a
    /// call is in flight or ended less than `linger` ago. The thread ends when
    /// the ticker is dropped or `tick` returns false.
    pub(crate) fn start(
        name: &str,
        period: Duration,
        linger: Duration,
        mut tick: impl FnMut() -> bool + Send + 'static,
    ) -> Ticker {
        let shared = Arc::new(Shared {
            calls: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let state = shared.clone();
        let linger_ticks = linger.as_nanos().div_ceil(period.as_nanos().max(1));
        let handle = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let mut quiet = 0u128;
                while !state.stop.load(Ordering::Acquire) {
                    if state.calls.load(Ordering::Acquire) > 0 {
                        quiet = 0;
                    } else if quiet >= linger_ticks {
                        // Until a call enters (its unpark is kept if it
                        // came between the check and the park) or the
                        // ticker is dropped.
                        std::thread::park();
                        quiet = 0;
                        continue;
                    } else {
                        quiet += 1;
                    }
                    std::thread::sleep(period);
                    if !tick() {
                        break;
                    }
                }
            })
            .expect("spawning the epoch ticker thread");
        Ticker {
            shared,
            thread: handle.thread().clone(),
        }
    }

    /// Marks a call in flight until the guard is dropped, waking the thread
    /// if it sleeps (an atomic swap, no system call, when it is ticking).
    pub(crate) fn enter(&self) -> InFlight {
        self.shared.calls.fetch_add(1, Ordering::AcqRel);
        self.thread.unpark();
        InFlight {
            shared: self.shared.clone(),
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        self.thread.unpark();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;
    use std::time::Instant;

    const PERIOD: Duration = Duration::from_millis(2);
    const LINGER: Duration = Duration::from_millis(20);

    fn counting() -> (Ticker, Arc<AtomicU64>) {
        let ticks = Arc::new(AtomicU64::new(0));
        let t = ticks.clone();
        let ticker = Ticker::start("test-ticker", PERIOD, LINGER, move || {
            t.fetch_add(1, Ordering::SeqCst);
            true
        });
        (ticker, ticks)
    }

    /// Ticks counted over `d`.
    fn ticks_during(ticks: &AtomicU64, d: Duration) -> u64 {
        let before = ticks.load(Ordering::SeqCst);
        std::thread::sleep(d);
        ticks.load(Ordering::SeqCst) - before
    }

    /// Whether the ticks stop (none for 100 ms) within 5 s: a loaded
    /// machine may stretch the linger, never make it endless.
    fn goes_quiet(ticks: &AtomicU64) -> bool {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(5) {
            if ticks_during(ticks, Duration::from_millis(100)) == 0 {
                // And stays so.
                return ticks_during(ticks, Duration::from_millis(200)) == 0;
            }
        }
        false
    }

    /// Whether a tick comes within 5 s.
    fn ticks_again(ticks: &AtomicU64) -> bool {
        let (before, started) = (ticks.load(Ordering::SeqCst), Instant::now());
        while started.elapsed() < Duration::from_secs(5) {
            if ticks.load(Ordering::SeqCst) > before {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        false
    }

    #[test]
    fn it_sleeps_without_calls_and_ticks_while_one_is_in_flight() {
        let (ticker, ticks) = counting();
        assert!(goes_quiet(&ticks), "ticking with no call in flight");

        let call = ticker.enter();
        assert!(ticks_again(&ticks), "a call did not wake the ticker");
        // Well past the linger, still ticking: the call is in flight.
        std::thread::sleep(LINGER * 3);
        assert!(ticks_again(&ticks) && ticks_again(&ticks));

        drop(call);
        assert!(goes_quiet(&ticks), "still ticking after the last call");
        // And it wakes again for the next call.
        let _call = ticker.enter();
        assert!(ticks_again(&ticks));
    }

    #[test]
    fn calls_entering_and_leaving_from_many_threads_are_all_counted() {
        let (ticker, ticks) = counting();
        let ticker = Arc::new(ticker);
        let held = ticker.enter();
        std::thread::scope(|s| {
            for _ in 0..8 {
                let ticker = ticker.clone();
                s.spawn(move || {
                    for _ in 0..1000 {
                        drop(ticker.enter());
                    }
                });
            }
        });
        // One call is still in flight: it keeps ticking past the linger.
        std::thread::sleep(LINGER * 3);
        assert!(ticks_again(&ticks) && ticks_again(&ticks));
        drop(held);
        assert!(goes_quiet(&ticks));
    }

    #[test]
    fn dropping_the_ticker_ends_its_thread() {
        let (ticker, ticks) = counting();
        let _call = ticker.enter();
        assert!(ticks_again(&ticks));
        drop(ticker);
        assert!(
            goes_quiet(&ticks),
            "a dropped ticker with a call in flight still ticks"
        );
    }
}
