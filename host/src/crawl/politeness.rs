//! Per-host politeness: at most `per_host` fetches of one host at once,
//! whatever job they belong to. (A job's `delay` is paced by the job itself.)

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Host slots.
pub struct HostGate {
    per_host: usize,
    hosts: Mutex<HashMap<String, Arc<Semaphore>>>,
}

impl HostGate {
    pub fn new(per_host: usize) -> HostGate {
        HostGate {
            per_host,
            hosts: Mutex::new(HashMap::new()),
        }
    }

    /// Waits for a slot on `host`.
    pub async fn enter(&self, host: &str) -> OwnedSemaphorePermit {
        let sem = {
            let mut hosts = self.hosts.lock().expect("host gate lock");
            if hosts.len() > 4096 {
                // Hosts nobody is fetching from hold no state worth keeping.
                hosts.retain(|_, s| Arc::strong_count(s) > 1 || s.available_permits() < self.per_host);
            }
            hosts
                .entry(host.to_ascii_lowercase())
                .or_insert_with(|| Arc::new(Semaphore::new(self.per_host)))
                .clone()
        };
        sem.acquire_owned().await.expect("host semaphore never closed")
    }
}
