//! The default job queue: one redb file in the data directory
//! (`DATA_DIR/jobs/jobs.redb`). Tables, every key starting with the job id:
//! `jobs` (id → record), `queued` and `leased` ((id, seq) → task), `seen`
//! ((id, key): URLs ever queued), `stored` ((id, key): URLs with a document),
//! `results` / `errors` ((id, n) → JSON), `robots` ((id, n) → URL),
//! `attempts` ((id, seq) → leases so far, while the task is unfinished).
//!
//! One process owns the file (redb locks it), so a lease is simply a row in
//! `leased`; at start-up every leased row goes back to `queued` (the worker
//! that held it is gone) and the crawl resumes. Commits are non-durable with a
//! durable one at least once a second (as the page cache, docs/CACHE.md): a
//! kill -9 reverts the file to an earlier consistent state, which at worst
//! re-queues the last second's pages — never loses one.

use super::embedded_tables::{self as tables, *};
use super::record::{Finished, JobRecord, JobStatus, LeaseToken, Leased, Outcome, Task};
use super::store::{JobStore, QueueError, ResultPage};
use crate::reopen_db::ReopeningDb;
use async_trait::async_trait;
use redb::{Database, Durability, ReadableTable, ReadableTableMetadata, TableDefinition, WriteTransaction};
use serde_json::Value;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest time a commit stays non-durable.
const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// redb's page cache for the queue file when none is configured
/// (`DISTILL_QUEUE_CACHE_MIB`, docs/CRAWL.md). redb's own default is 1 GiB,
/// which a crawl fills with the pages of results it writes: RSS then grows
/// with every page crawled until the cache is full.
pub const DEFAULT_PAGE_CACHE_BYTES: usize = 16 << 20;

fn open_file(path: &Path, cache_bytes: usize) -> Result<Database, redb::DatabaseError> {
    Database::builder().set_cache_size(cache_bytes).create(path)
}

/// The redb-backed queue.
pub struct EmbeddedQueue {
    inner: Arc<Inner>,
}

struct Inner {
    /// Reopened after an I/O error (a full or read-only disk), so crawls can
    /// start again once the disk works, without a restart.
    db: ReopeningDb,
    last_durable: Mutex<Instant>,
    /// A non-durable commit is not yet followed by a durable one.
    dirty: AtomicBool,
}

impl EmbeddedQueue {
    /// Opens (or creates) the file with the default page cache; blocking.
    pub fn open(path: &Path) -> Result<EmbeddedQueue, QueueError> {
        Self::open_with_cache(path, DEFAULT_PAGE_CACHE_BYTES)
    }

    /// Opens (or creates) the file, redb's page cache capped at
    /// `cache_bytes`; blocking.
    pub fn open_with_cache(path: &Path, cache_bytes: usize) -> Result<EmbeddedQueue, QueueError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(backend)?;
        }
        let db = open_file(path, cache_bytes).map_err(backend)?;
        let w = db.begin_write().map_err(backend)?;
        {
            w.open_table(JOBS).map_err(backend)?;
            w.open_table(QUEUED).map_err(backend)?;
            w.open_table(LEASED).map_err(backend)?;
            w.open_table(SEEN).map_err(backend)?;
            w.open_table(STORED).map_err(backend)?;
            w.open_table(RESULTS).map_err(backend)?;
            w.open_table(ERRORS).map_err(backend)?;
            w.open_table(ROBOTS).map_err(backend)?;
            w.open_table(ATTEMPTS).map_err(backend)?;
        }
        w.commit().map_err(backend)?;
        Ok(EmbeddedQueue {
            inner: Arc::new(Inner {
                db: ReopeningDb::new(path, move |p: &Path| open_file(p, cache_bytes), db),
                last_durable: Mutex::new(Instant::now()),
                dirty: AtomicBool::new(false),
            }),
        })
    }

    /// Makes commits durable within a second even when no write follows;
    /// an idle queue (nothing non-durable) is not written.
    pub fn start_flusher(&self) {
        let inner = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(FLUSH_EVERY);
            loop {
                tick.tick().await;
                let Some(inner) = inner.upgrade() else { return };
                if inner.dirty.load(Ordering::SeqCst) {
                    let _ = tokio::task::spawn_blocking(move || inner.write(|_| Ok(()))).await;
                }
            }
        });
    }

    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Inner) -> Result<T, QueueError> + Send + 'static,
    ) -> Result<T, QueueError> {
        let inner = self.inner.clone();
        tokio::task::spawn_blocking(move || f(&inner))
            .await
            .map_err(backend)?
    }
}

impl Inner {
    /// One write transaction; durable when the last durable one is a second old.
    fn write<T>(&self, f: impl FnOnce(&WriteTransaction) -> Result<T, QueueError>) -> Result<T, QueueError> {
        self.write_with(false, f)
    }

    /// One write transaction, durable when `always` or when the last durable
    /// one is a second old (redb then persists the non-durable ones before it).
    fn write_with<T>(
        &self,
        always: bool,
        f: impl FnOnce(&WriteTransaction) -> Result<T, QueueError>,
    ) -> Result<T, QueueError> {
        let mut w = self.db.begin_write().map_err(backend)?;
        let durable = always || self.last_durable.lock().expect("queue lock").elapsed() >= FLUSH_EVERY;
        if durable {
            w.set_quick_repair(true);
        } else {
            w.set_durability(Durability::None).map_err(backend)?;
        }
        let out = f(&w)?;
        // Set while the transaction is held (writes are serialised), so a
        // later commit's flag cannot be overwritten by an earlier one's.
        self.dirty.store(!durable, Ordering::SeqCst);
        if let Err(e) = self.db.commit(w) {
            self.dirty.store(true, Ordering::SeqCst);
            return Err(backend(e));
        }
        if durable {
            *self.last_durable.lock().expect("queue lock") = Instant::now();
        }
        Ok(out)
    }
}

#[async_trait]
impl JobStore for EmbeddedQueue {
    fn backend(&self) -> &'static str {
        "embedded"
    }

    async fn create(&self, job: &JobRecord, tasks: Vec<Task>, limit: u64) -> Result<JobRecord, QueueError> {
        let mut job = job.clone();
        // An accepted job is on disk before its id is answered: a kill -9
        // right after must not lose it (pages done since may be redone).
        self.run(move |inner| {
            inner.write_with(true, |w| {
                tables::queue_tasks(w, &mut job, tasks, limit)?;
                tables::put_job(w, &job)?;
                Ok(job)
            })
        })
        .await
    }

    async fn get(&self, id: &str) -> Result<Option<JobRecord>, QueueError> {
        let id = id.to_string();
        let now = crate::cache::store::now_ms();
        self.run(move |inner| {
            let r = inner.db.begin_read().map_err(backend)?;
            let t = r.open_table(JOBS).map_err(backend)?;
            let job: Option<JobRecord> = t
                .get(id.as_str())
                .map_err(backend)?
                .map(|g| decode(g.value()))
                .transpose()?;
            Ok(job.filter(|j| j.expires_at_ms > now))
        })
        .await
    }

    async fn enqueue(&self, id: &str, tasks: Vec<Task>, limit: u64) -> Result<u64, QueueError> {
        let id = id.to_string();
        self.run(move |inner| {
            inner.write(|w| {
                let Some(mut job) = tables::job_in(w, &id)? else {
                    return Ok(0);
                };
                if job.status.is_final() {
                    return Ok(0);
                }
                let added = tables::queue_tasks(w, &mut job, tasks, limit)?;
                tables::put_job(w, &job)?;
                Ok(added)
            })
        })
        .await
    }

    async fn lease(&self, id: &str, n: usize, _lease: Duration) -> Result<Vec<Leased>, QueueError> {
        let id = id.to_string();
        self.run(move |inner| {
            inner.write(|w| {
                let mut queued = w.open_table(QUEUED).map_err(backend)?;
                let mut leased = w.open_table(LEASED).map_err(backend)?;
                let mut attempts = w.open_table(ATTEMPTS).map_err(backend)?;
                let mut out = Vec::new();
                let taken: Vec<(u64, Vec<u8>)> = queued
                    .range((id.as_str(), 0u64)..=(id.as_str(), u64::MAX))
                    .map_err(backend)?
                    .take(n)
                    .map(|r| r.map(|(k, v)| (k.value().1, v.value().to_vec())).map_err(backend))
                    .collect::<Result<_, _>>()?;
                for (seq, bytes) in taken {
                    queued.remove((id.as_str(), seq)).map_err(backend)?;
                    leased
                        .insert((id.as_str(), seq), bytes.as_slice())
                        .map_err(backend)?;
                    let before = attempts
                        .get((id.as_str(), seq))
                        .map_err(backend)?
                        .map_or(0, |g| g.value());
                    attempts.insert((id.as_str(), seq), before + 1).map_err(backend)?;
                    out.push(Leased {
                        seq,
                        task: decode(&bytes)?,
                        attempt: before + 1,
                    });
                }
                Ok(out)
            })
        })
        .await
    }

    async fn finish(
        &self,
        id: &str,
        lease: LeaseToken,
        outcome: Outcome,
        discovered: Vec<Task>,
        limit: u64,
    ) -> Result<Finished, QueueError> {
        let id = id.to_string();
        let seq = lease.seq;
        self.run(move |inner| {
            inner.write(|w| {
                let mut done = Finished::default();
                {
                    let mut attempts = w.open_table(ATTEMPTS).map_err(backend)?;
                    let latest = attempts
                        .get((id.as_str(), seq))
                        .map_err(backend)?
                        .map(|g| g.value());
                    if latest.is_some_and(|a| a != lease.attempt) {
                        return Ok(done);
                    }
                    attempts.remove((id.as_str(), seq)).map_err(backend)?;
                }
                let was_leased = w
                    .open_table(LEASED)
                    .map_err(backend)?
                    .remove((id.as_str(), seq))
                    .map_err(backend)?
                    .is_some();
                let Some(mut job) = tables::job_in(w, &id)? else {
                    return Ok(done);
                };
                if !was_leased || job.status.is_final() {
                    return Ok(done);
                }
                job.completed += 1;
                match outcome {
                    Outcome::Page { document, final_key } => {
                        let mut stored = w.open_table(STORED).map_err(backend)?;
                        if stored
                            .get((id.as_str(), final_key.as_str()))
                            .map_err(backend)?
                            .is_none()
                        {
                            stored
                                .insert((id.as_str(), final_key.as_str()), 1)
                                .map_err(backend)?;
                            let mut results = w.open_table(RESULTS).map_err(backend)?;
                            results
                                .insert((id.as_str(), job.results), encode(&document)?.as_slice())
                                .map_err(backend)?;
                            job.results += 1;
                            job.credits += super::record::billed_credits(&document);
                            done.stored = true;
                        }
                    }
                    Outcome::Failed { error } => {
                        let mut errors = w.open_table(ERRORS).map_err(backend)?;
                        errors
                            .insert((id.as_str(), job.errors), encode(&error)?.as_slice())
                            .map_err(backend)?;
                        job.errors += 1;
                    }
                    Outcome::RobotsBlocked { url } => {
                        let mut robots = w.open_table(ROBOTS).map_err(backend)?;
                        robots
                            .insert((id.as_str(), job.robots_blocked), url.as_str())
                            .map_err(backend)?;
                        job.robots_blocked += 1;
                        // Never fetched: it does not use up the limit.
                        job.total = job.total.saturating_sub(1);
                        job.completed -= 1;
                    }
                    Outcome::Skipped => {}
                }
                done.queued = tables::queue_tasks(w, &mut job, discovered, limit)?;
                tables::put_job(w, &job)?;
                Ok(done)
            })
        })
        .await
    }

    async fn outstanding(&self, id: &str) -> Result<(u64, u64), QueueError> {
        let id = id.to_string();
        self.run(move |inner| {
            let r = inner.db.begin_read().map_err(backend)?;
            let count = |def: TableDefinition<SeqKey, &[u8]>| -> Result<u64, QueueError> {
                let t = r.open_table(def).map_err(backend)?;
                Ok(t.range((id.as_str(), 0u64)..=(id.as_str(), u64::MAX))
                    .map_err(backend)?
                    .count() as u64)
            };
            Ok((count(QUEUED)?, count(LEASED)?))
        })
        .await
    }

    async fn depth(&self) -> Result<(u64, u64), QueueError> {
        self.run(move |inner| {
            let r = inner.db.begin_read().map_err(backend)?;
            // A table's length is kept in its root: no walk.
            let count = |def: TableDefinition<SeqKey, &[u8]>| -> Result<u64, QueueError> {
                r.open_table(def).map_err(backend)?.len().map_err(backend)
            };
            Ok((count(QUEUED)?, count(LEASED)?))
        })
        .await
    }

    async fn set_status(
        &self,
        id: &str,
        status: JobStatus,
        error: Option<String>,
    ) -> Result<Option<JobRecord>, QueueError> {
        let id = id.to_string();
        self.run(move |inner| {
            inner.write(|w| {
                let Some(before) = tables::job_in(w, &id)? else {
                    return Ok(None);
                };
                if before.status.is_final() {
                    return Ok(Some(before));
                }
                let mut job = before.clone();
                job.status = status;
                job.error = error;
                // Nothing works a job in a final status: its tasks go (as
                // the Redis queue drops them), so the queue's depth is true.
                if status.is_final() {
                    tables::remove_range(w, QUEUED, &id)?;
                    tables::remove_range(w, LEASED, &id)?;
                    tables::remove_range(w, ATTEMPTS, &id)?;
                }
                tables::put_job(w, &job)?;
                Ok(Some(before))
            })
        })
        .await
    }

    async fn complete_if_drained(&self, id: &str) -> Result<Option<JobStatus>, QueueError> {
        let id = id.to_string();
        self.run(move |inner| {
            inner.write(|w| {
                let busy = |def: TableDefinition<SeqKey, &[u8]>| -> Result<bool, QueueError> {
                    let t = w.open_table(def).map_err(backend)?;
                    let mut range = t
                        .range((id.as_str(), 0u64)..=(id.as_str(), u64::MAX))
                        .map_err(backend)?;
                    Ok(range.next().is_some())
                };
                if busy(QUEUED)? || busy(LEASED)? {
                    return Ok(None);
                }
                let Some(mut job) = tables::job_in(w, &id)? else {
                    return Ok(Some(JobStatus::Completed));
                };
                let before = job.status;
                if before == JobStatus::Scraping {
                    job.status = JobStatus::Completed;
                    tables::put_job(w, &job)?;
                }
                Ok(Some(before))
            })
        })
        .await
    }

    async fn results(
        &self,
        id: &str,
        skip: u64,
        max_bytes: usize,
        max_items: Option<u64>,
    ) -> Result<ResultPage, QueueError> {
        let id = id.to_string();
        self.run(move |inner| {
            let r = inner.db.begin_read().map_err(backend)?;
            let t = r.open_table(RESULTS).map_err(backend)?;
            let mut page = ResultPage::default();
            let mut bytes = 0usize;
            for entry in t
                .range((id.as_str(), skip)..=(id.as_str(), u64::MAX))
                .map_err(backend)?
            {
                let (k, v) = entry.map_err(backend)?;
                let n = k.value().1;
                let full = max_items.is_some_and(|m| page.documents.len() as u64 >= m);
                if full || (!page.documents.is_empty() && bytes + v.value().len() > max_bytes) {
                    page.next = Some(n);
                    break;
                }
                bytes += v.value().len();
                page.documents.push(decode(v.value())?);
            }
            Ok(page)
        })
        .await
    }

    async fn errors(&self, id: &str) -> Result<(Vec<Value>, Vec<String>), QueueError> {
        let id = id.to_string();
        self.run(move |inner| {
            let r = inner.db.begin_read().map_err(backend)?;
            let errors = r.open_table(ERRORS).map_err(backend)?;
            let robots = r.open_table(ROBOTS).map_err(backend)?;
            let range = (id.as_str(), 0u64)..=(id.as_str(), u64::MAX);
            let errs = errors
                .range(range.clone())
                .map_err(backend)?
                .map(|e| e.map_err(backend).and_then(|(_, v)| decode(v.value())))
                .collect::<Result<Vec<Value>, _>>()?;
            let blocked = robots
                .range(range)
                .map_err(backend)?
                .map(|e| e.map(|(_, v)| v.value().to_string()).map_err(backend))
                .collect::<Result<Vec<String>, _>>()?;
            Ok((errs, blocked))
        })
        .await
    }

    async fn active(&self) -> Result<Vec<JobRecord>, QueueError> {
        let now = crate::cache::store::now_ms();
        self.run(move |inner| {
            let r = inner.db.begin_read().map_err(backend)?;
            let t = r.open_table(JOBS).map_err(backend)?;
            let mut out = Vec::new();
            for entry in t.iter().map_err(backend)? {
                let (_, v) = entry.map_err(backend)?;
                let job: JobRecord = decode(v.value())?;
                if job.status == JobStatus::Scraping && job.expires_at_ms > now {
                    out.push(job);
                }
            }
            out.sort_by_key(|j| j.created_at_ms);
            Ok(out)
        })
        .await
    }

    async fn requeue_expired_leases(&self) -> Result<u64, QueueError> {
        self.run(move |inner| {
            inner.write(|w| {
                let mut leased = w.open_table(LEASED).map_err(backend)?;
                let mut queued = w.open_table(QUEUED).map_err(backend)?;
                let all: Vec<(String, u64, Vec<u8>)> = leased
                    .iter()
                    .map_err(backend)?
                    .map(|r| {
                        r.map(|(k, v)| (k.value().0.to_string(), k.value().1, v.value().to_vec()))
                            .map_err(backend)
                    })
                    .collect::<Result<_, _>>()?;
                for (id, seq, bytes) in &all {
                    leased.remove((id.as_str(), *seq)).map_err(backend)?;
                    queued
                        .insert((id.as_str(), *seq), bytes.as_slice())
                        .map_err(backend)?;
                }
                Ok(all.len() as u64)
            })
        })
        .await
    }

    async fn sweep_expired(&self, now_ms: i64) -> Result<u64, QueueError> {
        self.run(move |inner| {
            inner.write(|w| {
                let expired: Vec<String> = {
                    let t = w.open_table(JOBS).map_err(backend)?;
                    let mut ids = Vec::new();
                    for entry in t.iter().map_err(backend)? {
                        let (k, v) = entry.map_err(backend)?;
                        let job: JobRecord = decode(v.value())?;
                        if job.expires_at_ms <= now_ms {
                            ids.push(k.value().to_string());
                        }
                    }
                    ids
                };
                for id in &expired {
                    tables::remove_range(w, QUEUED, id)?;
                    tables::remove_range(w, LEASED, id)?;
                    tables::remove_range(w, RESULTS, id)?;
                    tables::remove_range(w, ERRORS, id)?;
                    tables::remove_range(w, ROBOTS, id)?;
                    tables::remove_range(w, ATTEMPTS, id)?;
                    tables::remove_urls(w, SEEN, id)?;
                    tables::remove_urls(w, STORED, id)?;
                    w.open_table(JOBS)
                        .map_err(backend)?
                        .remove(id.as_str())
                        .map_err(backend)?;
                }
                Ok(expired.len() as u64)
            })
        })
        .await
    }
}

#[cfg(test)]
#[path = "embedded_tests.rs"]
mod tests;
