//! Request coalescing: concurrent callers with the same key (the page key of
//! an uncached page) share one execution of the work; the others wait for
//! its result. If the caller running the work is cancelled (client gone),
//! one of the waiters runs its own work instead, so nobody waits forever.
//! The key is forgotten when the work finishes (later callers find the
//! result in the cache instead), or when its last caller is cancelled.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

/// Who produced a caller's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// This caller ran the work.
    Leader,
    /// Another caller's work produced the value.
    Follower,
}

/// One in-flight table per kind of work. `V` is cloned to every waiter, so
/// make it cheap (an `Arc`, or a `Result` of `Arc`s).
pub struct Coalescer<V> {
    inflight: Mutex<HashMap<String, Arc<OnceCell<V>>>>,
}

impl<V: Clone + Send + Sync> Default for Coalescer<V> {
    fn default() -> Self {
        Coalescer {
            inflight: Mutex::new(HashMap::new()),
        }
    }
}

impl<V: Clone + Send + Sync> Coalescer<V> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `work` unless a run for `key` is already in flight, in which case
    /// it waits for that one's value.
    pub async fn run<F, Fut>(&self, key: &str, work: F) -> (V, Role)
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = V>,
    {
        // Holds this caller's only reference to the cell; forgets the key when
        // the work is done, or when this caller is cancelled and nobody else
        // waits on it.
        let guard = Forget {
            map: &self.inflight,
            key,
            cell: {
                let mut map = self.inflight.lock().expect("coalescer lock");
                map.entry(key.to_string()).or_default().clone()
            },
        };
        let mut ran = false;
        let value = guard
            .cell
            .get_or_init(|| {
                ran = true;
                work()
            })
            .await
            .clone();
        (value, if ran { Role::Leader } else { Role::Follower })
    }

    /// Keys with work in flight.
    pub fn in_flight(&self) -> usize {
        self.inflight.lock().expect("coalescer lock").len()
    }
}

/// Drop guard of one caller's interest in a key.
struct Forget<'a, V> {
    map: &'a Mutex<HashMap<String, Arc<OnceCell<V>>>>,
    key: &'a str,
    cell: Arc<OnceCell<V>>,
}

impl<V> Drop for Forget<'_, V> {
    fn drop(&mut self) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        // Under the lock no caller can pick the cell up meanwhile; a count of
        // 2 is the map's reference and this guard's: nobody else waits.
        let ours = map.get(self.key).is_some_and(|c| Arc::ptr_eq(c, &self.cell));
        if ours && (self.cell.initialized() || Arc::strong_count(&self.cell) <= 2) {
            map.remove(self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn twenty_concurrent_callers_run_the_work_once() {
        let c = Arc::new(Coalescer::<Arc<String>>::new());
        let runs = Arc::new(AtomicUsize::new(0));
        let start = Arc::new(tokio::sync::Barrier::new(20));
        let mut tasks = Vec::new();
        for _ in 0..20 {
            let (c, runs, start) = (c.clone(), runs.clone(), start.clone());
            tasks.push(tokio::spawn(async move {
                start.wait().await;
                c.run("page:abc", || async {
                    runs.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    Arc::new("body".to_string())
                })
                .await
            }));
        }
        let mut leaders = 0;
        for t in tasks {
            let (v, role) = t.await.unwrap();
            assert_eq!(*v, "body");
            leaders += usize::from(role == Role::Leader);
        }
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(leaders, 1);
        assert_eq!(c.in_flight(), 0, "finished keys are forgotten");
        // A later call runs again (the cache, not the coalescer, serves repeats).
        let (_, role) = c
            .run("page:abc", || async { Arc::new("again".to_string()) })
            .await;
        assert_eq!(role, Role::Leader);
    }

    #[tokio::test]
    async fn different_keys_do_not_wait_for_each_other() {
        let c = Coalescer::<u32>::new();
        let runs = AtomicUsize::new(0);
        let work = |n: u32| {
            let runs = &runs;
            move || async move {
                runs.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(20)).await;
                n
            }
        };
        let (a, b) = tokio::join!(c.run("a", work(1)), c.run("b", work(2)));
        assert_eq!((a.0, b.0), (1, 2));
        assert_eq!(runs.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_cancelled_leader_hands_over_to_a_waiter() {
        let c = Arc::new(Coalescer::<u32>::new());
        let leader = {
            let c = c.clone();
            tokio::spawn(async move {
                c.run("k", || async {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    1
                })
                .await
            })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        let follower = {
            let c = c.clone();
            tokio::spawn(async move { c.run("k", || async { 2 }).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        leader.abort();
        let (v, role) = tokio::time::timeout(Duration::from_secs(5), follower)
            .await
            .expect("the waiter takes over")
            .unwrap();
        assert_eq!((v, role), (2, Role::Leader));
        assert_eq!(c.in_flight(), 0);
    }

    #[tokio::test]
    async fn a_cancelled_lone_caller_leaves_nothing_behind() {
        let c = Arc::new(Coalescer::<u32>::new());
        let lone = {
            let c = c.clone();
            tokio::spawn(async move { c.run("k", std::future::pending::<u32>).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(c.in_flight(), 1);
        lone.abort();
        let _ = lone.await;
        assert_eq!(c.in_flight(), 0);
    }
}
