//! Per-plugin call statistics for the operator view: call and error counts and
//! latency percentiles over a window of recent calls.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Recent calls kept for percentiles.
const WINDOW: usize = 4096;

/// Counters of one loaded plugin (one version: a swapped-in version starts at zero).
#[derive(Default)]
pub struct CallStats {
    calls: AtomicU64,
    errors: AtomicU64,
    recent_us: Mutex<Ring>,
}

#[derive(Default)]
struct Ring {
    values: Vec<u32>,
    next: usize,
}

/// A snapshot for display.
#[derive(Debug, Clone, Copy, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatsSnapshot {
    pub calls: u64,
    pub errors: u64,
    pub p50_ms: Option<f64>,
    pub p99_ms: Option<f64>,
}

impl CallStats {
    /// Records one call.
    pub fn record(&self, took: Duration, failed: bool) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        if failed {
            self.errors.fetch_add(1, Ordering::Relaxed);
        }
        let us = took.as_micros().min(u32::MAX as u128) as u32;
        let mut ring = self.recent_us.lock().unwrap_or_else(|p| p.into_inner());
        if ring.values.len() < WINDOW {
            ring.values.push(us);
        } else {
            let i = ring.next;
            ring.values[i] = us;
        }
        ring.next = (ring.next + 1) % WINDOW;
    }

    pub fn snapshot(&self) -> StatsSnapshot {
        let mut values = self
            .recent_us
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values
            .clone();
        values.sort_unstable();
        let pct = |p: f64| -> Option<f64> {
            if values.is_empty() {
                return None;
            }
            let idx = ((values.len() as f64 * p).ceil() as usize).clamp(1, values.len()) - 1;
            Some(values[idx] as f64 / 1000.0)
        };
        StatsSnapshot {
            calls: self.calls.load(Ordering::Relaxed),
            errors: self.errors.load(Ordering::Relaxed),
            p50_ms: pct(0.50),
            p99_ms: pct(0.99),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_and_counts() {
        let s = CallStats::default();
        assert_eq!(s.snapshot().p50_ms, None);
        for ms in 1..=100 {
            s.record(Duration::from_millis(ms), ms % 10 == 0);
        }
        let snap = s.snapshot();
        assert_eq!(snap.calls, 100);
        assert_eq!(snap.errors, 10);
        assert_eq!(snap.p50_ms, Some(50.0));
        assert_eq!(snap.p99_ms, Some(99.0));
    }

    #[test]
    fn window_wraps() {
        let s = CallStats::default();
        for _ in 0..WINDOW + 10 {
            s.record(Duration::from_micros(5), false);
        }
        assert_eq!(s.snapshot().calls as usize, WINDOW + 10);
        assert_eq!(s.recent_us.lock().unwrap().values.len(), WINDOW);
    }
}
