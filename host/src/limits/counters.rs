//! Counters the limits are kept in: an integer per key with a time to live,
//! changed atomically. Three backends: in memory (concurrency slots of a
//! single server, which must not outlive the process), a durable file of
//! its own in the data directory ([`super::file_counters`]: credits and rate
//! windows survive a restart, or a crash) and Redis (the page cache's
//! backend; several servers then enforce one budget).

use crate::cache::store::now_ms;
use async_trait::async_trait;
use std::collections::HashMap;
use std::time::Duration;

/// A counter backend failure (the request is refused with 503).
#[derive(Debug, thiserror::Error)]
#[error("limits store: {0}")]
pub struct CounterError(pub String);

/// Moving a hold to `target`: see [`Counters::shift_hold`].
#[derive(Debug, Clone)]
pub struct HoldShift {
    /// The counter the hold is part of (a key's credits spent).
    pub main: String,
    /// The hold's own counter.
    pub hold: String,
    /// What the hold should hold; 0 removes it.
    pub target: i64,
    /// The most `main` may reach by taking more.
    pub limit: i64,
    /// `main`'s life when created here.
    pub ttl: Duration,
    /// The hold's life.
    pub hold_ttl: Duration,
}

/// Atomic counters.
#[async_trait]
pub trait Counters: Send + Sync + 'static {
    /// The counter's value (0 when absent or expired).
    async fn get(&self, key: &str) -> Result<i64, CounterError>;

    /// Adds `delta` when the result stays at most `limit` and returns the new
    /// value; `None` (nothing changed) otherwise. A counter created here
    /// expires after `ttl`; `refresh_ttl` restarts that clock on every add.
    async fn add_within(
        &self,
        key: &str,
        delta: i64,
        limit: i64,
        ttl: Duration,
        refresh_ttl: bool,
    ) -> Result<Option<i64>, CounterError>;

    /// Moves the amount held under `shift.hold` (0 when absent) to
    /// `shift.target`, changing `shift.main` by the difference in the same
    /// atomic step: taking more succeeds only when `main` stays at most
    /// `limit`; giving back always does. A `target` of 0 removes the hold.
    /// Returns `main`'s new value, or `None` (nothing changed). `main` lives
    /// `ttl` when created, the hold `hold_ttl`.
    async fn shift_hold(&self, shift: &HoldShift) -> Result<Option<i64>, CounterError>;

    /// Adds `delta` unconditionally and returns the new value.
    async fn add(&self, key: &str, delta: i64, ttl: Duration) -> Result<i64, CounterError> {
        Ok(self
            .add_within(key, delta, i64::MAX, ttl, false)
            .await?
            .unwrap_or_default())
    }
}

/// Counters in this process only.
#[derive(Default)]
pub struct MemoryCounters {
    values: tokio::sync::Mutex<HashMap<String, (i64, i64)>>,
}

#[async_trait]
impl Counters for MemoryCounters {
    async fn get(&self, key: &str) -> Result<i64, CounterError> {
        let values = self.values.lock().await;
        Ok(values
            .get(key)
            .filter(|(_, expires)| *expires > now_ms())
            .map_or(0, |(v, _)| *v))
    }

    async fn add_within(
        &self,
        key: &str,
        delta: i64,
        limit: i64,
        ttl: Duration,
        refresh_ttl: bool,
    ) -> Result<Option<i64>, CounterError> {
        let now = now_ms();
        let mut values = self.values.lock().await;
        if values.len() > 10_000 {
            values.retain(|_, (_, expires)| *expires > now);
        }
        let expires_new = now + ttl.as_millis() as i64;
        let (value, expires) = match values.get(key) {
            Some(&(v, e)) if e > now => (v, if refresh_ttl { expires_new } else { e }),
            _ => (0, expires_new),
        };
        let next = value.saturating_add(delta);
        if next > limit {
            return Ok(None);
        }
        values.insert(key.to_string(), (next, expires));
        Ok(Some(next))
    }

    async fn shift_hold(&self, shift: &HoldShift) -> Result<Option<i64>, CounterError> {
        let (main, hold, target, limit) = (
            shift.main.as_str(),
            shift.hold.as_str(),
            shift.target,
            shift.limit,
        );
        let (ttl, hold_ttl) = (shift.ttl, shift.hold_ttl);
        let now = now_ms();
        let mut values = self.values.lock().await;
        let live =
            |values: &HashMap<String, (i64, i64)>, k: &str| values.get(k).copied().filter(|(_, e)| *e > now);
        let expires_new = now + ttl.as_millis() as i64;
        let hold_expires = now + hold_ttl.as_millis() as i64;
        let held = live(&values, hold).map_or(0, |(v, _)| v);
        let (value, expires) = live(&values, main).unwrap_or((0, expires_new));
        let Some(next) = shifted(value, held, target, limit) else {
            return Ok(None);
        };
        values.insert(main.to_string(), (next, expires));
        if target == 0 {
            values.remove(hold);
        } else {
            values.insert(hold.to_string(), (target, hold_expires));
        }
        Ok(Some(next))
    }
}

/// `main`'s value after moving a hold of `held` to `target` (`None`: taking
/// more would pass `limit`). Shared by every backend but Redis (Lua).
pub fn shifted(main: i64, held: i64, target: i64, limit: i64) -> Option<i64> {
    let delta = target - held;
    let next = main.saturating_add(delta);
    (delta <= 0 || next <= limit).then_some(next)
}

#[cfg(test)]
pub mod tests {
    use super::*;

    #[tokio::test]
    async fn memory_counters_respect_limits_and_expiry() {
        let c = MemoryCounters::default();
        let ttl = Duration::from_millis(80);
        assert_eq!(c.add_within("k", 1, 2, ttl, false).await.unwrap(), Some(1));
        assert_eq!(c.add_within("k", 1, 2, ttl, false).await.unwrap(), Some(2));
        assert_eq!(c.add_within("k", 1, 2, ttl, false).await.unwrap(), None);
        assert_eq!(c.get("k").await.unwrap(), 2);
        assert_eq!(c.add("k", -1, ttl).await.unwrap(), 1);
        tokio::time::sleep(Duration::from_millis(120)).await;
        assert_eq!(c.get("k").await.unwrap(), 0);
    }

    /// `main` (limit 3, a minute)'s hold `hold` moved to `target`.
    pub fn to(main: &str, hold: &str, target: i64) -> HoldShift {
        let ttl = Duration::from_secs(60);
        HoldShift {
            main: main.into(),
            hold: hold.into(),
            target,
            limit: 3,
            ttl,
            hold_ttl: ttl,
        }
    }

    #[tokio::test]
    async fn holds_take_within_the_limit_and_give_back() {
        let c = MemoryCounters::default();
        assert_eq!(c.shift_hold(&to("m", "h1", 1)).await.unwrap(), Some(1));
        // Taking the same hold again (a worker retrying the page) costs nothing more.
        assert_eq!(c.shift_hold(&to("m", "h1", 1)).await.unwrap(), Some(1));
        assert_eq!(c.shift_hold(&to("m", "h2", 1)).await.unwrap(), Some(2));
        assert_eq!(c.shift_hold(&to("m", "h1", 3)).await.unwrap(), None, "over");
        assert_eq!(c.shift_hold(&to("m", "h1", 2)).await.unwrap(), Some(3));
        assert_eq!(c.shift_hold(&to("m", "h2", 0)).await.unwrap(), Some(2), "refund");
        assert_eq!(c.get("h1").await.unwrap(), 2, "a kept hold stays spent");
        assert_eq!(c.get("m").await.unwrap(), 2);
    }
}
