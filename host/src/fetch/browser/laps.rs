//! Step timings of one browser scrape (open the page, watch it, set it up,
//! navigate, settle, act, serialise, close), logged at debug level under
//! `distill::fetch::browser::laps`: where a slow browser scrape spent its time.

use std::sync::Mutex;
use std::time::Instant;

/// The steps so far, each with its milliseconds.
pub struct Laps {
    inner: Mutex<(Instant, Vec<(&'static str, f64)>)>,
    start: Instant,
}

impl Default for Laps {
    fn default() -> Self {
        let now = Instant::now();
        Laps {
            inner: Mutex::new((now, Vec::new())),
            start: now,
        }
    }
}

impl Laps {
    /// Ends the step `name` now.
    pub fn lap(&self, name: &'static str) {
        let mut inner = self.inner.lock().unwrap();
        let now = Instant::now();
        let ms = (now - inner.0).as_secs_f64() * 1000.0;
        inner.0 = now;
        inner.1.push((name, ms));
    }

    /// Logs the steps and the total.
    pub fn log(&self, url: &str) {
        if !tracing::enabled!(tracing::Level::DEBUG) {
            return;
        }
        let inner = self.inner.lock().unwrap();
        let steps: Vec<String> = inner.1.iter().map(|(n, ms)| format!("{n}={ms:.1}")).collect();
        tracing::debug!(
            url,
            total_ms = format!("{:.1}", self.start.elapsed().as_secs_f64() * 1000.0),
            steps = steps.join(" "),
            "browser scrape timings"
        );
    }
}
