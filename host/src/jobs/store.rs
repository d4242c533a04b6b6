//! The contract every job queue backend meets: jobs, their page tasks (queued,
//! leased to a worker, finished) and what finished tasks produced (documents,
//! errors, robots-blocked URLs). Finishing a task is one atomic step: the
//! lease ends, the outcome is stored and the newly discovered tasks are
//! queued together, so a worker killed at any point loses no page (its lease
//! goes back to the queue) and stores none twice (a task finished twice, or
//! two tasks ending on one URL after redirects, leave one document). Every
//! lease of a task has its own attempt number; only the latest lease can
//! finish the task.

use super::record::{Finished, JobRecord, JobStatus, LeaseToken, Leased, Outcome, Task};
use async_trait::async_trait;
use serde_json::Value;
use std::time::Duration;

/// A queue failure.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    #[error("job queue: {0}")]
    Backend(String),
    #[error("job queue entry corrupt: {0}")]
    Corrupt(String),
}

/// A page of stored documents.
#[derive(Debug, Clone, Default)]
pub struct ResultPage {
    pub documents: Vec<Value>,
    /// Index of the first document not returned, when more remain.
    pub next: Option<u64>,
}

/// The job queue interface (object safe).
#[async_trait]
pub trait JobStore: Send + Sync + 'static {
    /// "embedded" or "redis".
    fn backend(&self) -> &'static str;

    /// Stores a new job and queues `tasks` (de-duplicated, at most `limit`).
    async fn create(&self, job: &JobRecord, tasks: Vec<Task>, limit: u64) -> Result<JobRecord, QueueError>;

    /// The job, unless unknown or expired.
    async fn get(&self, id: &str) -> Result<Option<JobRecord>, QueueError>;

    /// Queues tasks (keys already seen by the job are skipped; the job's total
    /// never passes `limit`). Returns how many were queued.
    async fn enqueue(&self, id: &str, tasks: Vec<Task>, limit: u64) -> Result<u64, QueueError>;

    /// Leases up to `n` queued tasks for `lease` (a lease not finished in time
    /// goes back to the queue).
    async fn lease(&self, id: &str, n: usize, lease: Duration) -> Result<Vec<Leased>, QueueError>;

    /// Extends the leases of tasks still being worked (a shared queue hands an
    /// expired lease to another worker; the embedded one needs nothing).
    async fn renew(&self, _id: &str, _seqs: &[u64], _lease: Duration) -> Result<(), QueueError> {
        Ok(())
    }

    /// Ends a lease with its outcome and queues what the page discovered. A
    /// lease whose task was leased again since (it expired and another
    /// worker took it) changes nothing: the task is the new lease's.
    async fn finish(
        &self,
        id: &str,
        lease: LeaseToken,
        outcome: Outcome,
        discovered: Vec<Task>,
        limit: u64,
    ) -> Result<Finished, QueueError>;

    /// Tasks queued and leased.
    async fn outstanding(&self, id: &str) -> Result<(u64, u64), QueueError>;

    /// Tasks queued and leased over every job (the `/metrics` queue depth;
    /// for a shared store, what all its servers see).
    async fn depth(&self) -> Result<(u64, u64), QueueError>;

    /// Moves a scraping job to a final status, dropping its queued and leased
    /// tasks (cancelled or failed: nothing works them any more). Returns the
    /// job as it was before, or `None` if unknown.
    async fn set_status(
        &self,
        id: &str,
        status: JobStatus,
        error: Option<String>,
    ) -> Result<Option<JobRecord>, QueueError>;

    /// Completes a scraping job, atomically, only when nothing of it is
    /// queued or leased (so URLs appended at that moment are never orphaned
    /// on a completed job). `None`: work remains; else the status before
    /// (`Scraping` means this call completed it).
    async fn complete_if_drained(&self, id: &str) -> Result<Option<JobStatus>, QueueError>;

    /// Stored documents from index `skip`, up to `max_bytes` of JSON (at least
    /// one document) and `max_items`.
    async fn results(
        &self,
        id: &str,
        skip: u64,
        max_bytes: usize,
        max_items: Option<u64>,
    ) -> Result<ResultPage, QueueError>;

    /// Error entries and robots-blocked URLs.
    async fn errors(&self, id: &str) -> Result<(Vec<Value>, Vec<String>), QueueError>;

    /// Jobs still scraping.
    async fn active(&self) -> Result<Vec<JobRecord>, QueueError>;

    /// Leases whose worker is gone go back to the queue: all of them for the
    /// embedded store at start-up, expired ones for a shared store.
    async fn requeue_expired_leases(&self) -> Result<u64, QueueError>;

    /// Deletes jobs past their expiry with everything they hold.
    async fn sweep_expired(&self, now_ms: i64) -> Result<u64, QueueError>;
}
