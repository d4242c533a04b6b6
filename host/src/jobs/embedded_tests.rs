//! The embedded queue on a real redb file: de-duplication and the limit,
//! leases going back after a restart, one document per final URL, paging by
//! size, cancel, expiry.

use crate::jobs::embedded::EmbeddedQueue;
use crate::jobs::record::{JobKind, JobRecord, JobStatus, Outcome, Task};
use crate::jobs::store::JobStore;
use serde_json::json;
use std::time::Duration;

fn task(path: &str, depth: u32) -> Task {
    Task {
        url: format!("http://a.test{path}"),
        key: path.to_string(),
        depth,
    }
}

fn temp_file() -> std::path::PathBuf {
    std::env::temp_dir()
        .join(format!("distill-jobs-{}", uuid::Uuid::now_v7()))
        .join("jobs.redb")
}

#[tokio::test]
async fn queue_dedupes_limits_leases_and_resumes() {
    let path = temp_file();
    let now = crate::cache::store::now_ms();
    let job = JobRecord::new(
        "j1".into(),
        JobKind::Crawl,
        "http://a.test/".into(),
        json!({}),
        now,
    );
    let stale;
    {
        let q = EmbeddedQueue::open(&path).unwrap();
        let j = q.create(&job, vec![task("/", 0), task("/", 0)], 4).await.unwrap();
        assert_eq!(j.total, 1, "a key is queued once");
        let leased = q.lease("j1", 10, Duration::from_secs(60)).await.unwrap();
        assert_eq!(leased.len(), 1);
        assert_eq!(q.depth().await.unwrap(), (0, 1), "the queue's depth");
        let page = Outcome::Page {
            document: json!({"n": 0}),
            final_key: "/".into(),
        };
        let found = vec![
            task("/a", 1),
            task("/b", 1),
            task("/", 1),
            task("/c", 1),
            task("/d", 1),
        ];
        let done = q
            .finish("j1", leased[0].token(), page.clone(), found, 4)
            .await
            .unwrap();
        assert_eq!(done.queued, 3, "the limit of 4 counts the start page");
        assert!(done.stored);
        assert_eq!(q.depth().await.unwrap(), (3, 0));
        // Finishing the same lease twice stores nothing more.
        let again = q.finish("j1", leased[0].token(), page, vec![], 4).await.unwrap();
        assert!(!again.stored);
        // Two leased, then the process "dies".
        let dead = q.lease("j1", 2, Duration::from_secs(60)).await.unwrap();
        assert_eq!(dead.len(), 2);
        assert_eq!(q.outstanding("j1").await.unwrap(), (1, 2));
        stale = dead[0].clone();
    }
    let q = EmbeddedQueue::open(&path).unwrap();
    assert_eq!(q.requeue_expired_leases().await.unwrap(), 2);
    assert_eq!(q.outstanding("j1").await.unwrap(), (3, 0));
    let leased = q.lease("j1", 10, Duration::from_secs(60)).await.unwrap();
    assert_eq!(leased.len(), 3);
    let again = leased.iter().find(|l| l.seq == stale.seq).unwrap();
    assert_eq!(
        (stale.attempt, again.attempt),
        (1, 2),
        "each lease has its attempt"
    );
    let refused = q
        .finish("j1", stale.token(), Outcome::Skipped, vec![], 4)
        .await
        .unwrap();
    assert_eq!(refused.queued, 0);
    assert_eq!(
        q.outstanding("j1").await.unwrap(),
        (0, 3),
        "an older lease ends nothing"
    );
    // Two tasks ending on one URL (a redirect) leave one document.
    for (i, l) in leased.iter().enumerate() {
        let outcome = match i {
            0 => Outcome::Page {
                document: json!({"n": 1, "pad": "x".repeat(100)}),
                final_key: "/a".into(),
            },
            1 => Outcome::Page {
                document: json!({"n": 2}),
                final_key: "/a".into(),
            },
            _ => Outcome::RobotsBlocked {
                url: l.task.url.clone(),
            },
        };
        q.finish("j1", l.token(), outcome, vec![], 4).await.unwrap();
    }
    let j = q.get("j1").await.unwrap().unwrap();
    assert_eq!(
        (j.total, j.completed, j.results, j.robots_blocked),
        (3, 3, 2, 1),
        "a robots refusal leaves the limit"
    );
    // Pages by size: the second document does not fit after the first.
    let page = q.results("j1", 0, 20, None).await.unwrap();
    assert_eq!(page.documents.len(), 1);
    assert_eq!(page.next, Some(1));
    let page = q.results("j1", 1, 20, None).await.unwrap();
    assert_eq!(page.documents.len(), 1, "at least one document per page");
    assert_eq!(page.next, None);
    let (errors, blocked) = q.errors("j1").await.unwrap();
    assert!(errors.is_empty());
    assert_eq!(blocked.len(), 1);
    assert_eq!(q.active().await.unwrap().len(), 1);
    assert_eq!(q.sweep_expired(now).await.unwrap(), 0, "not expired yet");
    // Expiry removes everything.
    assert_eq!(q.sweep_expired(i64::MAX).await.unwrap(), 1);
    assert!(
        q.results("j1", 0, 1 << 20, None)
            .await
            .unwrap()
            .documents
            .is_empty()
    );
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[tokio::test]
async fn cancel_drops_queued_and_leased_work() {
    let path = temp_file();
    let q = EmbeddedQueue::open(&path).unwrap();
    let now = crate::cache::store::now_ms();
    let job = JobRecord::new(
        "j2".into(),
        JobKind::Batch,
        "http://a.test/".into(),
        json!({}),
        now,
    );
    q.create(&job, vec![task("/1", 0), task("/2", 0), task("/3", 0)], u64::MAX)
        .await
        .unwrap();
    assert_eq!(q.active().await.unwrap().len(), 1);
    let leased = q.lease("j2", 1, Duration::from_secs(60)).await.unwrap();
    let before = q
        .set_status("j2", JobStatus::Cancelled, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(before.status, JobStatus::Scraping);
    assert_eq!(q.outstanding("j2").await.unwrap(), (0, 0));
    let done = q
        .finish(
            "j2",
            leased[0].token(),
            Outcome::Page {
                document: json!({}),
                final_key: "/1".into(),
            },
            vec![],
            u64::MAX,
        )
        .await
        .unwrap();
    assert!(!done.stored, "work finishing after a cancel is dropped");
    assert_eq!(q.get("j2").await.unwrap().unwrap().status, JobStatus::Cancelled);
    assert_eq!(q.enqueue("j2", vec![task("/4", 0)], u64::MAX).await.unwrap(), 0);
    // A job that fails (its request can no longer be planned) drops its
    // tasks too: nothing is left in the queue's depth.
    let failing = JobRecord::new(
        "j3".into(),
        JobKind::Batch,
        "http://a.test/".into(),
        json!({}),
        now,
    );
    q.create(&failing, vec![task("/5", 0), task("/6", 0)], u64::MAX)
        .await
        .unwrap();
    assert_eq!(q.depth().await.unwrap(), (2, 0));
    q.set_status("j3", JobStatus::Failed, Some("no plan".into()))
        .await
        .unwrap();
    assert_eq!(q.depth().await.unwrap(), (0, 0));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[tokio::test]
async fn the_flusher_has_work_only_after_a_non_durable_commit() {
    use std::sync::atomic::Ordering::SeqCst;
    let q = EmbeddedQueue::open(&temp_file()).unwrap();
    assert!(!q.inner.dirty.load(SeqCst), "a fresh queue has nothing to flush");
    let job = JobRecord::new(
        "j1".into(),
        JobKind::Crawl,
        "http://a.test/".into(),
        json!({}),
        crate::cache::store::now_ms(),
    );
    q.create(&job, vec![task("/", 0)], 4).await.unwrap();
    assert!(!q.inner.dirty.load(SeqCst), "create commits durably");
    q.enqueue("j1", vec![task("/a", 1)], 4).await.unwrap();
    assert!(
        q.inner.dirty.load(SeqCst),
        "a write within the second is not durable"
    );
    q.inner.write_with(true, |_| Ok(())).unwrap();
    assert!(
        !q.inner.dirty.load(SeqCst),
        "a durable commit covers the earlier ones"
    );
}
