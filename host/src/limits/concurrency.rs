//! Scrapes of one key running at once: a slot counter per key (shared through
//! Redis when configured) and, per server, a bounded queue of scrapes waiting
//! for a slot. A waiter retries when a slot is given back on this server and
//! every 25 ms otherwise (a slot freed by another server), until its deadline.

use super::counters::{CounterError, Counters};
use super::keys::KeyRecord;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// Why no slot was given.
#[derive(Debug, thiserror::Error)]
pub enum SlotError {
    #[error("the concurrency queue of this key is full")]
    QueueFull,
    #[error("waited for a concurrency slot until the request's timeout")]
    Timeout,
    #[error(transparent)]
    Store(#[from] CounterError),
}

/// Concurrency slots and wait queues.
pub struct Slots {
    counters: Arc<dyn Counters>,
    queue_per_key: usize,
    ttl: Duration,
    waiting: Mutex<HashMap<String, usize>>,
    released: Arc<Notify>,
}

/// A held slot: given back when dropped.
pub struct Slot {
    counters: Arc<dyn Counters>,
    counter: Option<String>,
    ttl: Duration,
    released: Arc<Notify>,
    /// Time spent queued; `None` when a slot was free at once.
    pub queued: Option<Duration>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let Some(counter) = self.counter.take() else {
            return;
        };
        let (counters, ttl, released) = (self.counters.clone(), self.ttl, self.released.clone());
        let give_back = async move {
            if let Err(e) = counters.add(&counter, -1, ttl).await {
                tracing::error!("giving back a concurrency slot: {e}");
            }
            released.notify_waiters();
        };
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => {
                handle.spawn(give_back);
            }
            Err(_) => tracing::error!("a concurrency slot dropped outside the runtime"),
        }
    }
}

/// Removes a waiter from the queue count (and the `/metrics` gauge, through
/// the held [`crate::telemetry::key_waiting`] unit) when its wait ends, however it ends.
struct Waiting<'a> {
    slots: &'a Slots,
    key_id: &'a str,
    _gauge: crate::telemetry::Held,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let mut waiting = self.slots.waiting.lock().unwrap();
        if let Some(n) = waiting.get_mut(self.key_id) {
            *n -= 1;
            if *n == 0 {
                waiting.remove(self.key_id);
            }
        }
    }
}

impl Slots {
    pub fn new(counters: Arc<dyn Counters>, queue_per_key: usize, ttl: Duration) -> Slots {
        Slots {
            counters,
            queue_per_key,
            ttl,
            waiting: Mutex::new(HashMap::new()),
            released: Arc::new(Notify::new()),
        }
    }

    /// Scrapes of `key` waiting on this server.
    pub fn waiting(&self, key: &KeyRecord) -> usize {
        self.waiting.lock().unwrap().get(&key.id).copied().unwrap_or(0)
    }

    /// Slots of `key` held now (across the servers sharing the counters);
    /// 0 for a key without a concurrency limit, whose scrapes take no slot.
    pub async fn in_use(&self, key: &KeyRecord) -> Result<u64, CounterError> {
        if key.concurrency.is_none() {
            return Ok(0);
        }
        let held = self.counters.get(&format!("slots:{}", key.id)).await?;
        Ok(u64::try_from(held).unwrap_or(0))
    }

    /// A slot for `key`: at once, or after queueing until `deadline`.
    pub async fn acquire(&self, key: &KeyRecord, deadline: Instant) -> Result<Slot, SlotError> {
        let Some(limit) = key.concurrency else {
            return Ok(self.slot(None, None));
        };
        let counter = format!("slots:{}", key.id);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        if self.try_take(&counter, limit).await? {
            return Ok(self.slot(Some(counter), None));
        }
        {
            let mut waiting = self.waiting.lock().unwrap();
            let n = waiting.entry(key.id.clone()).or_insert(0);
            if *n >= self.queue_per_key {
                return Err(SlotError::QueueFull);
            }
            *n += 1;
        }
        let _waiting = Waiting {
            slots: self,
            key_id: &key.id,
            _gauge: crate::telemetry::key_waiting(&key.id, &key.name),
        };
        let started = Instant::now();
        loop {
            let notified = self.released.notified();
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(SlotError::Timeout);
            }
            let _ = tokio::time::timeout(left.min(Duration::from_millis(25)), notified).await;
            if self.try_take(&counter, limit).await? {
                return Ok(self.slot(Some(counter), Some(started.elapsed())));
            }
        }
    }

    async fn try_take(&self, counter: &str, limit: i64) -> Result<bool, CounterError> {
        Ok(self
            .counters
            .add_within(counter, 1, limit, self.ttl, true)
            .await?
            .is_some())
    }

    fn slot(&self, counter: Option<String>, queued: Option<Duration>) -> Slot {
        Slot {
            counters: self.counters.clone(),
            counter,
            ttl: self.ttl,
            released: self.released.clone(),
            queued,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::counters::MemoryCounters;

    fn key(concurrency: u64) -> KeyRecord {
        KeyRecord {
            id: "key_t".into(),
            name: "t".into(),
            hash: String::new(),
            prefix: String::new(),
            credits: None,
            rpm: None,
            concurrency: Some(concurrency),
            created_at: 0,
            revoked: false,
        }
    }

    #[tokio::test]
    async fn queue_waits_for_a_slot_and_is_bounded() {
        let slots = Arc::new(Slots::new(
            Arc::new(MemoryCounters::default()),
            1,
            Duration::from_secs(60),
        ));
        let k = key(1);
        let far = Instant::now() + Duration::from_secs(5);
        let first = slots.acquire(&k, far).await.unwrap();
        assert!(first.queued.is_none());
        let (s2, k2) = (slots.clone(), k.clone());
        let second = tokio::spawn(async move { s2.acquire(&k2, far).await.map(|s| s.queued) });
        tokio::time::sleep(Duration::from_millis(60)).await;
        assert_eq!(slots.waiting(&k), 1);
        assert!(matches!(slots.acquire(&k, far).await, Err(SlotError::QueueFull)));
        drop(first);
        let queued = second.await.unwrap().unwrap().expect("the second waited");
        assert!(queued >= Duration::from_millis(50), "{queued:?}");
        let soon = Instant::now() + Duration::from_millis(50);
        let _held = slots.acquire(&k, far).await.unwrap();
        assert!(matches!(slots.acquire(&k, soon).await, Err(SlotError::Timeout)));
    }
}
