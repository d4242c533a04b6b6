//! How many job watchers (the SDKs' WebSockets on a job's status route) each
//! API key has open: at most [`PER_KEY`], so one key cannot hold an unbounded
//! number of sockets, each reading the job store twice a second. With
//! authentication off every caller shares one count.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Watchers one key may have open at once on this server.
pub const PER_KEY: u32 = 32;

/// The open watchers per key.
#[derive(Debug, Default)]
pub struct WatchSlots {
    open: Mutex<HashMap<String, u32>>,
}

/// One open watcher's place; given back when dropped.
#[derive(Debug)]
pub struct WatchSlot {
    slots: Arc<WatchSlots>,
    key: String,
}

impl WatchSlots {
    /// A place for a watcher of the key `key_id` (`None`: authentication
    /// off), or `None` when the key has [`PER_KEY`] open.
    pub fn take(self: &Arc<Self>, key_id: Option<&str>) -> Option<WatchSlot> {
        let key = key_id.unwrap_or_default().to_string();
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let n = open.entry(key.clone()).or_insert(0);
        if *n >= PER_KEY {
            return None;
        }
        *n += 1;
        Some(WatchSlot {
            slots: self.clone(),
            key,
        })
    }

    /// Watchers open for `key_id` now.
    pub fn open(&self, key_id: Option<&str>) -> u32 {
        let open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        open.get(key_id.unwrap_or_default()).copied().unwrap_or(0)
    }
}

impl Drop for WatchSlot {
    fn drop(&mut self) {
        let mut open = self.slots.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_gets_per_key_places_and_a_place_given_back_is_free_again() {
        let slots = Arc::new(WatchSlots::default());
        let mut held: Vec<WatchSlot> = (0..PER_KEY).map(|_| slots.take(Some("key_a")).unwrap()).collect();
        assert!(slots.take(Some("key_a")).is_none());
        // Another key, and callers without a key, count apart.
        let other = slots.take(Some("key_b")).unwrap();
        let anonymous = slots.take(None).unwrap();
        assert_eq!(slots.open(Some("key_a")), PER_KEY);
        held.pop();
        assert_eq!(slots.open(Some("key_a")), PER_KEY - 1);
        assert!(slots.take(Some("key_a")).is_some());
        drop((held, other, anonymous));
        assert!(slots.open.lock().unwrap().is_empty(), "no entry is left behind");
    }
}
