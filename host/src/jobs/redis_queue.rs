//! The shared job queue: one Redis for several Distill processes
//! (`DISTILL_QUEUE_URL=redis://host:port/db`), so a crawl started on one is
//! worked by all. Keys under `distill:jobs:`; per job `J`:
//!
//! | key | type | holds |
//! |---|---|---|
//! | `job:J` | hash | `rec` (the record's JSON), `status`, `error`, counters, `next_seq` |
//! | `job:J:queued` | sorted set | task seqs waiting, scored by seq (oldest first) |
//! | `job:J:leased` | sorted set | task seqs leased, scored by lease end (ms) |
//! | `job:J:tasks` | hash | seq → task JSON while queued or leased |
//! | `job:J:seen` / `:stored` | set | de-duplication keys queued / final URLs with a document |
//! | `job:J:results` / `:errors` / `:robots` | list | documents, error entries, refused URLs |
//!
//! and two global keys: `jobs` (sorted set of ids by expiry, for the
//! sweep) and `active` (set of ids still scraping, for the workers).
//! Every change is one Lua script ([`super::redis_scripts`]), so finishing a
//! task (lease ends, outcome stored once, discoveries queued) is atomic.
//! Delivery is at-least-once: a lease not renewed in time (the worker died)
//! goes back to the queue at the next lease call of any worker; a task
//! finished twice counts and stores once.

use super::record::{Finished, JobRecord, JobStatus, LeaseToken, Leased, Outcome, Task, billed_credits};
use super::redis_scripts::{KEY_NAMES, Script};
use super::store::{JobStore, QueueError, ResultPage};
use async_trait::async_trait;
use redis::aio::ConnectionManager;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// Prefix of every key the queue writes.
pub const NAMESPACE: &str = "distill:jobs:";

/// Documents read per round trip when paging results.
const RESULT_CHUNK: u64 = 64;

fn backend(e: redis::RedisError) -> QueueError {
    QueueError::Backend(format!("redis: {e}"))
}

fn corrupt<E: std::fmt::Display>(e: E) -> QueueError {
    QueueError::Corrupt(e.to_string())
}

/// A Redis-backed [`JobStore`].
pub struct RedisQueue {
    conn: ConnectionManager,
    namespace: String,
    shas: Mutex<HashMap<Script, String>>,
}

impl RedisQueue {
    /// Connects to `url` and loads the scripts.
    pub async fn connect(url: &str) -> Result<RedisQueue, QueueError> {
        RedisQueue::connect_with_namespace(url, NAMESPACE).await
    }

    /// As [`RedisQueue::connect`] with another key prefix (tests).
    pub async fn connect_with_namespace(url: &str, namespace: &str) -> Result<RedisQueue, QueueError> {
        let conn = crate::redis_conn::connect(url, Duration::from_secs(10))
            .await
            .map_err(backend)?;
        let queue = RedisQueue {
            conn,
            namespace: namespace.to_string(),
            shas: Mutex::new(HashMap::new()),
        };
        for script in Script::ALL {
            queue.load(script).await?;
        }
        Ok(queue)
    }

    async fn load(&self, script: Script) -> Result<String, QueueError> {
        let mut c = self.conn.clone();
        let sha: String = redis::cmd("SCRIPT")
            .arg("LOAD")
            .arg(script.source())
            .query_async(&mut c)
            .await
            .map_err(backend)?;
        self.shas.lock().expect("sha lock").insert(script, sha.clone());
        Ok(sha)
    }

    fn job_key(&self, id: &str) -> String {
        format!("{}job:{id}", self.namespace)
    }

    /// The job's keys then the two global ones, as every script takes them.
    fn keys(&self, id: &str) -> Vec<String> {
        let job = self.job_key(id);
        let mut keys: Vec<String> = KEY_NAMES.iter().map(|s| format!("{job}{s}")).collect();
        keys.push(format!("{}jobs", self.namespace));
        keys.push(format!("{}active", self.namespace));
        keys
    }

    /// The ids of the jobs still scraping (the `active` set).
    async fn active_ids(&self) -> Result<Vec<String>, QueueError> {
        redis::cmd("SMEMBERS")
            .arg(format!("{}active", self.namespace))
            .query_async(&mut self.conn.clone())
            .await
            .map_err(backend)
    }

    /// Runs `script` on job `id` with `args` (by SHA; re-loaded once if Redis lost it).
    async fn eval<T: redis::FromRedisValue>(
        &self,
        script: Script,
        id: &str,
        args: &[Vec<u8>],
    ) -> Result<T, QueueError> {
        let keys = self.keys(id);
        let mut retried = false;
        loop {
            let sha = self.shas.lock().expect("sha lock").get(&script).cloned();
            let sha = match sha {
                Some(s) => s,
                None => self.load(script).await?,
            };
            let mut cmd = redis::cmd("EVALSHA");
            cmd.arg(sha).arg(keys.len()).arg(&keys);
            for a in args {
                cmd.arg(a.as_slice());
            }
            let mut c = self.conn.clone();
            match cmd.query_async(&mut c).await {
                Ok(v) => return Ok(v),
                Err(e)
                    if e.kind() == redis::ErrorKind::Server(redis::ServerErrorKind::NoScript) && !retried =>
                {
                    retried = true;
                    self.load(script).await?;
                }
                Err(e) => return Err(backend(e)),
            }
        }
    }

    /// Reads a job hash into its record.
    fn record(fields: HashMap<String, Vec<u8>>) -> Result<Option<JobRecord>, QueueError> {
        let Some(rec) = fields.get("rec") else {
            return Ok(None);
        };
        let mut job: JobRecord = serde_json::from_slice(rec).map_err(corrupt)?;
        let text = |name: &str| fields.get(name).map(|v| String::from_utf8_lossy(v).into_owned());
        let number = |name: &str| -> u64 {
            text(name)
                .and_then(|v| v.parse::<i64>().ok())
                .map(|n| n.max(0) as u64)
                .unwrap_or(0)
        };
        job.status = match text("status").as_deref() {
            Some("completed") => JobStatus::Completed,
            Some("failed") => JobStatus::Failed,
            Some("cancelled") => JobStatus::Cancelled,
            _ => JobStatus::Scraping,
        };
        job.error = text("error");
        job.total = number("total");
        job.completed = number("completed");
        job.results = number("results");
        job.credits = number("credits");
        job.errors = number("errors");
        job.robots_blocked = number("robots");
        job.next_seq = number("next_seq");
        Ok(Some(job))
    }

    /// A flat HGETALL reply (field, value, …) as a map.
    fn pairs(flat: Vec<Vec<u8>>) -> HashMap<String, Vec<u8>> {
        let mut out = HashMap::new();
        let mut it = flat.into_iter();
        while let (Some(k), Some(v)) = (it.next(), it.next()) {
            out.insert(String::from_utf8_lossy(&k).into_owned(), v);
        }
        out
    }
}

fn task_args(tasks: &[Task]) -> Result<Vec<Vec<u8>>, QueueError> {
    let mut out = Vec::with_capacity(tasks.len() * 2);
    for t in tasks {
        out.push(t.key.as_bytes().to_vec());
        out.push(serde_json::to_vec(t).map_err(corrupt)?);
    }
    Ok(out)
}

fn arg(v: impl ToString) -> Vec<u8> {
    v.to_string().into_bytes()
}

#[async_trait]
impl JobStore for RedisQueue {
    fn backend(&self) -> &'static str {
        "redis"
    }

    async fn create(&self, job: &JobRecord, tasks: Vec<Task>, limit: u64) -> Result<JobRecord, QueueError> {
        let mut args = vec![
            arg(&job.id),
            serde_json::to_vec(job).map_err(corrupt)?,
            arg(job.expires_at_ms),
            arg(limit),
        ];
        args.extend(task_args(&tasks)?);
        let total: u64 = self.eval(Script::Create, &job.id, &args).await?;
        let mut job = job.clone();
        job.total = total;
        job.next_seq = total;
        Ok(job)
    }

    async fn get(&self, id: &str) -> Result<Option<JobRecord>, QueueError> {
        let mut c = self.conn.clone();
        let fields: HashMap<String, Vec<u8>> = redis::cmd("HGETALL")
            .arg(self.job_key(id))
            .query_async(&mut c)
            .await
            .map_err(backend)?;
        let now = crate::cache::store::now_ms();
        Ok(RedisQueue::record(fields)?.filter(|j| j.expires_at_ms > now))
    }

    async fn enqueue(&self, id: &str, tasks: Vec<Task>, limit: u64) -> Result<u64, QueueError> {
        let mut args = vec![arg(limit)];
        args.extend(task_args(&tasks)?);
        self.eval(Script::Enqueue, id, &args).await
    }

    async fn lease(&self, id: &str, n: usize, lease: Duration) -> Result<Vec<Leased>, QueueError> {
        let now = crate::cache::store::now_ms();
        let until = now + lease.as_millis() as i64;
        let flat: Vec<Option<Vec<u8>>> = self
            .eval(Script::Lease, id, &[arg(now), arg(until), arg(n)])
            .await?;
        let mut out = Vec::with_capacity(flat.len() / 3);
        let mut it = flat.into_iter();
        let number = |v: Option<Vec<u8>>| -> Result<u64, QueueError> {
            String::from_utf8_lossy(&v.unwrap_or_default())
                .parse()
                .map_err(corrupt)
        };
        while let (Some(seq), Some(task), Some(attempt)) = (it.next(), it.next(), it.next()) {
            let seq = number(seq)?;
            let task = task.ok_or_else(|| QueueError::Corrupt(format!("task {seq} of {id} missing")))?;
            out.push(Leased {
                seq,
                task: serde_json::from_slice(&task).map_err(corrupt)?,
                attempt: number(attempt)?,
            });
        }
        Ok(out)
    }

    async fn renew(&self, id: &str, seqs: &[u64], lease: Duration) -> Result<(), QueueError> {
        if seqs.is_empty() {
            return Ok(());
        }
        let until = crate::cache::store::now_ms() + lease.as_millis() as i64;
        let mut args = vec![arg(until)];
        args.extend(seqs.iter().map(arg));
        let _: i64 = self.eval(Script::Renew, id, &args).await?;
        Ok(())
    }

    async fn finish(
        &self,
        id: &str,
        lease: LeaseToken,
        outcome: Outcome,
        discovered: Vec<Task>,
        limit: u64,
    ) -> Result<Finished, QueueError> {
        let credits = match &outcome {
            Outcome::Page { document, .. } => billed_credits(document),
            _ => 0,
        };
        let (kind, payload, final_key) = match outcome {
            Outcome::Page { document, final_key } => {
                ("page", serde_json::to_vec(&document).map_err(corrupt)?, final_key)
            }
            Outcome::Failed { error } => (
                "failed",
                serde_json::to_vec(&error).map_err(corrupt)?,
                String::new(),
            ),
            Outcome::RobotsBlocked { url } => ("robots", url.into_bytes(), String::new()),
            Outcome::Skipped => ("skipped", Vec::new(), String::new()),
        };
        let mut args = vec![
            arg(lease.seq),
            arg(kind),
            payload,
            final_key.into_bytes(),
            arg(limit),
            arg(credits),
            arg(lease.attempt),
        ];
        args.extend(task_args(&discovered)?);
        let (queued, stored): (u64, u8) = self.eval(Script::Finish, id, &args).await?;
        Ok(Finished {
            queued,
            stored: stored == 1,
        })
    }

    async fn outstanding(&self, id: &str) -> Result<(u64, u64), QueueError> {
        self.eval(Script::Outstanding, id, &[]).await
    }

    async fn depth(&self) -> Result<(u64, u64), QueueError> {
        let active = self.active_ids().await?;
        if active.is_empty() {
            return Ok((0, 0));
        }
        // Two ZCARDs per job still scraping, in one round trip.
        let mut pipe = redis::pipe();
        for id in &active {
            let job = self.job_key(id);
            pipe.zcard(format!("{job}:queued")).zcard(format!("{job}:leased"));
        }
        let counts: Vec<u64> = pipe.query_async(&mut self.conn.clone()).await.map_err(backend)?;
        let (queued, leased) = counts.chunks(2).fold((0, 0), |(q, l), pair| {
            (q + pair[0], l + pair.get(1).copied().unwrap_or(0))
        });
        Ok((queued, leased))
    }

    async fn set_status(
        &self,
        id: &str,
        status: JobStatus,
        error: Option<String>,
    ) -> Result<Option<JobRecord>, QueueError> {
        let mut args = vec![arg(status.as_str()), arg(id)];
        if let Some(e) = error {
            args.push(e.into_bytes());
        }
        let flat: Vec<Vec<u8>> = self.eval(Script::SetStatus, id, &args).await?;
        RedisQueue::record(RedisQueue::pairs(flat))
    }

    async fn complete_if_drained(&self, id: &str) -> Result<Option<JobStatus>, QueueError> {
        let before: Option<String> = self.eval(Script::Complete, id, &[arg(id)]).await?;
        Ok(before.map(|s| match s.as_str() {
            "scraping" => JobStatus::Scraping,
            "failed" => JobStatus::Failed,
            "cancelled" => JobStatus::Cancelled,
            _ => JobStatus::Completed,
        }))
    }

    async fn results(
        &self,
        id: &str,
        skip: u64,
        max_bytes: usize,
        max_items: Option<u64>,
    ) -> Result<ResultPage, QueueError> {
        let key = format!("{}:results", self.job_key(id));
        let mut page = ResultPage::default();
        let mut bytes = 0usize;
        let mut index = skip;
        loop {
            let mut c = self.conn.clone();
            let chunk: Vec<Vec<u8>> = redis::cmd("LRANGE")
                .arg(&key)
                .arg(index)
                .arg(index + RESULT_CHUNK - 1)
                .query_async(&mut c)
                .await
                .map_err(backend)?;
            if chunk.is_empty() {
                return Ok(page);
            }
            for doc in chunk {
                let full = max_items.is_some_and(|m| page.documents.len() as u64 >= m);
                if full || (!page.documents.is_empty() && bytes + doc.len() > max_bytes) {
                    page.next = Some(index);
                    return Ok(page);
                }
                bytes += doc.len();
                page.documents
                    .push(serde_json::from_slice(&doc).map_err(corrupt)?);
                index += 1;
            }
        }
    }

    async fn errors(&self, id: &str) -> Result<(Vec<Value>, Vec<String>), QueueError> {
        let job = self.job_key(id);
        let mut c = self.conn.clone();
        let (errors, robots): (Vec<Vec<u8>>, Vec<String>) = redis::pipe()
            .cmd("LRANGE")
            .arg(format!("{job}:errors"))
            .arg(0)
            .arg(-1)
            .cmd("LRANGE")
            .arg(format!("{job}:robots"))
            .arg(0)
            .arg(-1)
            .query_async(&mut c)
            .await
            .map_err(backend)?;
        let errors = errors
            .iter()
            .map(|e| serde_json::from_slice(e).map_err(corrupt))
            .collect::<Result<_, _>>()?;
        Ok((errors, robots))
    }

    async fn active(&self) -> Result<Vec<JobRecord>, QueueError> {
        let ids = self.active_ids().await?;
        let mut out = Vec::new();
        for id in ids {
            if let Some(job) = self.get(&id).await?
                && job.status == JobStatus::Scraping
            {
                out.push(job);
            }
        }
        out.sort_by_key(|j| j.created_at_ms);
        Ok(out)
    }

    async fn requeue_expired_leases(&self) -> Result<u64, QueueError> {
        let now = crate::cache::store::now_ms();
        let mut moved = 0;
        for job in self.active().await? {
            let n: u64 = self.eval(Script::Requeue, &job.id, &[arg(now)]).await?;
            moved += n;
        }
        Ok(moved)
    }

    async fn sweep_expired(&self, now_ms: i64) -> Result<u64, QueueError> {
        let mut c = self.conn.clone();
        let all = format!("{}jobs", self.namespace);
        let ids: Vec<String> = redis::cmd("ZRANGEBYSCORE")
            .arg(&all)
            .arg("-inf")
            .arg(now_ms)
            .query_async(&mut c)
            .await
            .map_err(backend)?;
        for id in &ids {
            let keys = self.keys(id);
            let _: () = redis::pipe()
                .atomic()
                .cmd("DEL")
                .arg(&keys[..KEY_NAMES.len()])
                .ignore()
                .cmd("ZREM")
                .arg(&all)
                .arg(id)
                .ignore()
                .cmd("SREM")
                .arg(format!("{}active", self.namespace))
                .arg(id)
                .ignore()
                .query_async(&mut c)
                .await
                .map_err(backend)?;
        }
        Ok(ids.len() as u64)
    }
}

#[cfg(test)]
#[path = "redis_tests.rs"]
mod tests;
