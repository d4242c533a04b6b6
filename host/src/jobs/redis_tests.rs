//! The Redis queue against a real `redis-server` (Debian's; `make setup`
//! installs it) on a free loopback port: de-duplication and the limit, an
//! expired lease taken by another worker (the old lease's finish refused,
//! the new one's stored once), paging,
//! cancel, expiry. Skipped, saying so, only when the binary is absent.

use crate::jobs::record::{JobKind, JobRecord, JobStatus, Outcome, Task};
use crate::jobs::redis_queue::RedisQueue;
use crate::jobs::store::JobStore;
use crate::test_redis::RedisServer;
use serde_json::json;
use std::time::Duration;

fn task(path: &str) -> Task {
    Task {
        url: format!("http://a.test{path}"),
        key: path.to_string(),
        depth: 0,
    }
}

fn page(n: u32, final_key: &str) -> Outcome {
    Outcome::Page {
        document: json!({"n": n, "pad": "x".repeat(50), "metadata": {"creditsUsed": n + 1}}),
        final_key: final_key.into(),
    }
}

#[tokio::test]
async fn shared_queue_leases_expire_to_another_worker_and_store_once() {
    let Some(redis) = RedisServer::start().await else {
        return;
    };
    // Two workers, as two processes would hold.
    let a = RedisQueue::connect(&redis.url).await.unwrap();
    let b = RedisQueue::connect(&redis.url).await.unwrap();
    let now = crate::cache::store::now_ms();
    let job = JobRecord::new(
        "j1".into(),
        JobKind::Crawl,
        "http://a.test/".into(),
        json!({"x": 1}),
        now,
    );
    let j = a.create(&job, vec![task("/"), task("/")], 4).await.unwrap();
    assert_eq!(j.total, 1, "a key is queued once");
    assert_eq!(b.get("j1").await.unwrap().unwrap().request, json!({"x": 1}));
    assert_eq!(b.active().await.unwrap().len(), 1);
    let first = a.lease("j1", 10, Duration::from_secs(60)).await.unwrap();
    assert_eq!(first.len(), 1);
    let found = vec![task("/a"), task("/b"), task("/"), task("/c"), task("/d")];
    let done = a
        .finish("j1", first[0].token(), page(0, "/"), found, 4)
        .await
        .unwrap();
    assert_eq!(
        (done.queued, done.stored),
        (3, true),
        "the limit of 4 counts the start page"
    );
    let again = a
        .finish("j1", first[0].token(), page(0, "/"), vec![], 4)
        .await
        .unwrap();
    assert!(!again.stored, "a repeated finish stores nothing");

    // Worker a leases two with a short lease and "dies"; b takes them once
    // the lease is over, unless a renews it.
    let held = a.lease("j1", 2, Duration::from_millis(300)).await.unwrap();
    assert_eq!(held.len(), 2);
    assert_eq!(b.outstanding("j1").await.unwrap(), (1, 2));
    assert_eq!(
        b.depth().await.unwrap(),
        (1, 2),
        "the queue's depth over its jobs"
    );
    a.renew("j1", &[held[0].seq], Duration::from_secs(60))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let taken = b.lease("j1", 10, Duration::from_secs(60)).await.unwrap();
    let mut seqs: Vec<u64> = taken.iter().map(|l| l.seq).collect();
    seqs.sort();
    assert_eq!(seqs.len(), 2, "the expired lease and the queued task: {seqs:?}");
    assert!(seqs.contains(&held[1].seq) && !seqs.contains(&held[0].seq));
    // Both workers finish the re-leased task: the expired lease changes
    // nothing (the task is b's now), b's stores once.
    let retaken = taken.iter().find(|l| l.seq == held[1].seq).unwrap();
    assert_eq!(
        (held[1].attempt, retaken.attempt),
        (1, 2),
        "each lease has its attempt"
    );
    let late = a
        .finish("j1", held[1].token(), page(1, "/b"), vec![], 4)
        .await
        .unwrap();
    assert!(!late.stored, "a lease taken over can no longer finish the task");
    assert_eq!(b.outstanding("j1").await.unwrap(), (0, 3), "nothing ended");
    let current = b
        .finish("j1", retaken.token(), page(1, "/b"), vec![], 4)
        .await
        .unwrap();
    assert!(current.stored, "the latest lease finishes the task");
    let twice = b
        .finish("j1", retaken.token(), page(1, "/b"), vec![], 4)
        .await
        .unwrap();
    assert!(!twice.stored);
    // Two tasks ending on one URL (a redirect) leave one document.
    let other = taken.iter().find(|l| l.seq != held[1].seq).unwrap();
    let dup = b
        .finish("j1", other.token(), page(2, "/b"), vec![], 4)
        .await
        .unwrap();
    assert!(!dup.stored);
    let blocked = Outcome::RobotsBlocked {
        url: held[0].task.url.clone(),
    };
    a.finish("j1", held[0].token(), blocked, vec![], 4).await.unwrap();
    let j = b.get("j1").await.unwrap().unwrap();
    assert_eq!(
        (j.total, j.completed, j.results, j.robots_blocked),
        (3, 3, 2, 1),
        "{j:?}"
    );
    assert_eq!(
        j.credits,
        1 + 2,
        "what the two stored pages were billed, once each"
    );
    assert_eq!(a.outstanding("j1").await.unwrap(), (0, 0));
    // Pages by size.
    let p = b.results("j1", 0, 60, None).await.unwrap();
    assert_eq!((p.documents.len(), p.next), (1, Some(1)));
    let p = b.results("j1", 1, 60, None).await.unwrap();
    assert_eq!((p.documents.len(), p.next), (1, None));
    assert_eq!(b.errors("j1").await.unwrap().1.len(), 1);
    // Completing it once: the second caller sees it already final.
    let before = a
        .set_status("j1", JobStatus::Completed, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(before.status, JobStatus::Scraping);
    let before = b
        .set_status("j1", JobStatus::Completed, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(before.status, JobStatus::Completed);
    assert!(a.active().await.unwrap().is_empty());
    assert_eq!(a.sweep_expired(now).await.unwrap(), 0, "not expired yet");
    assert_eq!(a.sweep_expired(i64::MAX).await.unwrap(), 1);
    assert!(b.get("j1").await.unwrap().is_none());
}

#[tokio::test]
async fn shared_queue_cancel_drops_work() {
    let Some(redis) = RedisServer::start().await else {
        return;
    };
    let q = RedisQueue::connect(&redis.url).await.unwrap();
    let now = crate::cache::store::now_ms();
    let job = JobRecord::new(
        "j2".into(),
        JobKind::Batch,
        "http://a.test/".into(),
        json!({}),
        now,
    );
    q.create(&job, vec![task("/1"), task("/2"), task("/3")], u64::MAX)
        .await
        .unwrap();
    let leased = q.lease("j2", 1, Duration::from_secs(60)).await.unwrap();
    let before = q
        .set_status("j2", JobStatus::Cancelled, Some("stop".into()))
        .await
        .unwrap();
    assert_eq!(before.unwrap().status, JobStatus::Scraping);
    assert_eq!(q.outstanding("j2").await.unwrap(), (0, 0));
    let done = q
        .finish("j2", leased[0].token(), page(0, "/1"), vec![], u64::MAX)
        .await
        .unwrap();
    assert!(!done.stored, "work finishing after a cancel is dropped");
    let j = q.get("j2").await.unwrap().unwrap();
    assert_eq!(
        (j.status, j.error.as_deref()),
        (JobStatus::Cancelled, Some("stop"))
    );
    assert_eq!(q.enqueue("j2", vec![task("/4")], u64::MAX).await.unwrap(), 0);
    assert!(
        q.lease("j2", 5, Duration::from_secs(60))
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        q.set_status("nope", JobStatus::Cancelled, None)
            .await
            .unwrap()
            .is_none()
    );
}
