//! Small statistics and formatting helpers shared by the benchmarks:
//! nearest-rank percentiles, means, and number formatting for the report.

use std::time::Duration;

/// Mean and percentiles of a set of samples (any unit).
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    pub mean: f64,
    pub p10: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
}

impl Summary {
    /// Summarises `samples` (sorted in place). Empty input gives all zeros.
    pub fn of(samples: &mut [f64]) -> Summary {
        if samples.is_empty() {
            return Summary::default();
        }
        samples.sort_by(|a, b| a.total_cmp(b));
        let n = samples.len();
        Summary {
            mean: samples.iter().sum::<f64>() / n as f64,
            p10: percentile_sorted(samples, 10.0),
            p50: percentile_sorted(samples, 50.0),
            p90: percentile_sorted(samples, 90.0),
            p99: percentile_sorted(samples, 99.0),
        }
    }

    /// Summarises durations in microseconds.
    pub fn of_micros(samples: &[Duration]) -> Summary {
        let mut us: Vec<f64> = samples.iter().map(|d| d.as_secs_f64() * 1e6).collect();
        Summary::of(&mut us)
    }
}

/// Nearest-rank percentile of sorted samples (`p` in 0..=100).
pub fn percentile_sorted(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Median of unsorted samples (copies them).
pub fn median(samples: &[f64]) -> f64 {
    let mut v = samples.to_vec();
    Summary::of(&mut v).p50
}

/// Formats with a fixed number of decimals.
pub fn f(x: f64, decimals: usize) -> String {
    format!("{x:.decimals$}")
}

/// Megabytes (10^6 bytes).
pub fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

/// "met" or "**not met**".
pub fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "**not met**" }
}
