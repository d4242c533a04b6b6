use super::{LIMIT, drop_later, flush, queued};
use std::sync::Arc;
use std::sync::Mutex;

/// Records on drop which thread dropped it.
struct Recorder(Arc<Mutex<Vec<String>>>);

impl Drop for Recorder {
    fn drop(&mut self) {
        let name = std::thread::current().name().unwrap_or("?").to_string();
        self.0.lock().unwrap().push(name);
    }
}

fn dropped(log: &Arc<Mutex<Vec<String>>>) -> Vec<String> {
    log.lock().unwrap().clone()
}

/// Runs `body` on a thread named like a serving thread, marked as lane 0,
/// inside a current-thread runtime (as `serving` sets one up).
fn on_a_lane<F: Future<Output = ()> + 'static>(body: impl FnOnce() -> F + Send + 'static) {
    std::thread::Builder::new()
        .name("lane-test".into())
        .spawn(move || {
            crate::lane::enter(0);
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(body());
        })
        .unwrap()
        .join()
        .unwrap();
}

#[tokio::test]
async fn off_a_serving_thread_a_value_is_dropped_at_once() {
    let log = Arc::new(Mutex::new(Vec::new()));
    drop_later(Recorder(log.clone()));
    assert_eq!(dropped(&log).len(), 1);
    assert_eq!(queued(), 0);
}

#[test]
fn outside_a_runtime_a_value_is_dropped_at_once_even_on_a_lane() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let l = log.clone();
    std::thread::spawn(move || {
        crate::lane::enter(0);
        drop_later(Recorder(l));
        assert_eq!(queued(), 0);
    })
    .join()
    .unwrap();
    assert_eq!(dropped(&log).len(), 1);
}

#[test]
fn on_a_serving_thread_a_value_is_dropped_on_it_once_the_task_yields() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let l = log.clone();
    on_a_lane(move || async move {
        drop_later(Recorder(l.clone()));
        drop_later(Recorder(l.clone()));
        assert!(dropped(&l).is_empty(), "queued, not dropped yet");
        assert_eq!(queued(), 2);
        tokio::task::yield_now().await;
        assert_eq!(queued(), 0);
        assert_eq!(dropped(&l), ["lane-test", "lane-test"]);
    });
    assert_eq!(dropped(&log).len(), 2);
}

#[test]
fn a_full_queue_is_emptied_in_place() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let l = log.clone();
    on_a_lane(move || async move {
        for _ in 0..LIMIT {
            drop_later(Recorder(l.clone()));
        }
        assert!(dropped(&l).is_empty());
        // One more: the queue's values go now, the new one waits.
        drop_later(Recorder(l.clone()));
        assert_eq!(dropped(&l).len(), LIMIT);
        assert_eq!(queued(), 1);
        tokio::task::yield_now().await;
        assert_eq!(dropped(&l).len(), LIMIT + 1);
    });
}

/// Queues another value when dropped.
struct Requeues(Arc<Mutex<Vec<String>>>);

impl Drop for Requeues {
    fn drop(&mut self) {
        drop_later(Recorder(self.0.clone()));
    }
}

#[test]
fn a_value_queued_by_a_drop_is_dropped_by_the_same_flush() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let l = log.clone();
    on_a_lane(move || async move {
        drop_later(Requeues(l.clone()));
        flush();
        assert_eq!(queued(), 0);
        assert_eq!(dropped(&l).len(), 1);
    });
}
