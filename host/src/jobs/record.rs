//! What a job queue stores: the job record (kind, status, counters, the
//! request it was started with), the page tasks waiting to be scraped, and
//! what finishing a task produced.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How long a job and its results are kept after it was created (upstream: 24 h).
pub const JOB_TTL_MS: i64 = 24 * 3600 * 1000;

/// A crawl (discovers pages), a batch scrape (a fixed list) or an extract
/// (a fixed list, then one model call over the pages: `crate::extract`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobKind {
    Crawl,
    Batch,
    Extract,
}

/// Upstream's status values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    Scraping,
    Completed,
    Failed,
    Cancelled,
}

impl JobStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Scraping => "scraping",
            JobStatus::Completed => "completed",
            JobStatus::Failed => "failed",
            JobStatus::Cancelled => "cancelled",
        }
    }

    pub fn is_final(self) -> bool {
        self != JobStatus::Scraping
    }
}

/// One job.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JobRecord {
    pub id: String,
    pub kind: JobKind,
    pub status: JobStatus,
    /// The start URL (crawl) or the first URL (batch).
    pub url: String,
    /// The validated request body, kept so a worker (after a restart, or on
    /// another server) can rebuild the job's options.
    pub request: Value,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
    /// Pages accepted into the queue (upstream's `total`); a URL robots.txt
    /// refuses leaves it again (it was never fetched, and must not use up the limit).
    pub total: u64,
    /// Tasks finished with a document, an error or as a duplicate.
    pub completed: u64,
    /// Documents stored.
    pub results: u64,
    /// Credits the stored documents were billed (each one's
    /// `metadata.creditsUsed`, summed as it is stored).
    #[serde(default)]
    pub credits: u64,
    pub errors: u64,
    pub robots_blocked: u64,
    /// Next task sequence number.
    pub next_seq: u64,
    /// Why the job failed, when it did.
    pub error: Option<String>,
    /// The public id of the API key whose credits the job's pages spend
    /// (`None`: authentication off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bill_to: Option<String>,
}

impl JobRecord {
    pub fn new(id: String, kind: JobKind, url: String, request: Value, now_ms: i64) -> JobRecord {
        JobRecord {
            id,
            kind,
            status: JobStatus::Scraping,
            url,
            request,
            created_at_ms: now_ms,
            expires_at_ms: now_ms + JOB_TTL_MS,
            total: 0,
            completed: 0,
            results: 0,
            credits: 0,
            errors: 0,
            robots_blocked: 0,
            next_seq: 0,
            error: None,
            bill_to: None,
        }
    }

    /// Whether the caller with the API key `key_id` (`None`: authentication
    /// off) may read or change this job. A job started with a key is that
    /// key's own, as upstream keeps a job to its team; a job started while
    /// authentication was off, and every job while it is off, is open to all.
    pub fn open_to(&self, key_id: Option<&str>) -> bool {
        match (self.bill_to.as_deref(), key_id) {
            (Some(owner), Some(key)) => owner == key,
            _ => true,
        }
    }
}

/// A page waiting to be scraped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    pub url: String,
    /// The de-duplication key (normalised URL); a key is queued once per job.
    pub key: String,
    /// Discovery depth (start URL and sitemap URLs: 0).
    pub depth: u32,
}

/// A task handed to a worker.
#[derive(Debug, Clone)]
pub struct Leased {
    pub seq: u64,
    pub task: Task,
    /// How many times the task has been leased, this lease included (1 the
    /// first time): the lease's token. A lease that expired and went to
    /// another worker can no longer finish the task.
    pub attempt: u64,
}

impl Leased {
    /// What finishing this lease names.
    pub fn token(&self) -> LeaseToken {
        LeaseToken {
            seq: self.seq,
            attempt: self.attempt,
        }
    }
}

/// One lease of one task: the task's number and the lease's attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaseToken {
    pub seq: u64,
    pub attempt: u64,
}

/// What a stored document was billed: its `metadata.creditsUsed` (1 when
/// absent, the price of a page).
pub fn billed_credits(document: &Value) -> u64 {
    document["metadata"]["creditsUsed"].as_u64().unwrap_or(1)
}

/// What finishing a task produced.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// A document; `final_key` is the normalised URL it came from (after
    /// redirects): a second document for the same key is dropped.
    Page { document: Value, final_key: String },
    /// The scrape failed: upstream's error entry `{id, timestamp, url, code, error}`.
    Failed { error: Value },
    /// robots.txt refused the URL.
    RobotsBlocked { url: String },
    /// Nothing to store (out of scope after a redirect, a duplicate).
    Skipped,
}

/// What `finish` did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Finished {
    /// Discovered tasks newly queued.
    pub queued: u64,
    /// The document was stored (false: a duplicate, or the task was not leased).
    pub stored: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job_of(owner: Option<&str>) -> JobRecord {
        let mut job = JobRecord::new("j".into(), JobKind::Batch, "http://x/".into(), Value::Null, 0);
        job.bill_to = owner.map(str::to_string);
        job
    }

    #[test]
    fn a_job_started_with_a_key_is_that_keys_own() {
        let job = job_of(Some("key_a"));
        assert!(job.open_to(Some("key_a")));
        assert!(!job.open_to(Some("key_b")));
        // Authentication off: everything is open.
        assert!(job.open_to(None));
    }

    #[test]
    fn a_job_started_without_a_key_is_open_to_all() {
        let job = job_of(None);
        assert!(job.open_to(Some("key_a")));
        assert!(job.open_to(None));
    }
}
