//! The job queue file's tables (`jobs/embedded.rs` describes each) and the
//! row operations the queue's methods share: job records in and out, queueing
//! unseen tasks, removing a job's rows. Every function works inside a write
//! transaction the caller holds.

use super::record::{JobRecord, Task};
use super::store::QueueError;
use redb::{ReadableTable, TableDefinition, WriteTransaction};

pub(super) type SeqKey<'a> = (&'a str, u64);
pub(super) type UrlKey<'a> = (&'a str, &'a str);

pub(super) const JOBS: TableDefinition<&str, &[u8]> = TableDefinition::new("jobs");
pub(super) const QUEUED: TableDefinition<SeqKey, &[u8]> = TableDefinition::new("queued");
pub(super) const LEASED: TableDefinition<SeqKey, &[u8]> = TableDefinition::new("leased");
pub(super) const SEEN: TableDefinition<UrlKey, u8> = TableDefinition::new("seen");
pub(super) const STORED: TableDefinition<UrlKey, u8> = TableDefinition::new("stored");
pub(super) const RESULTS: TableDefinition<SeqKey, &[u8]> = TableDefinition::new("results");
pub(super) const ERRORS: TableDefinition<SeqKey, &[u8]> = TableDefinition::new("errors");
pub(super) const ROBOTS: TableDefinition<SeqKey, &str> = TableDefinition::new("robots");
pub(super) const ATTEMPTS: TableDefinition<SeqKey, u64> = TableDefinition::new("attempts");

pub(super) fn backend<E: std::fmt::Display>(e: E) -> QueueError {
    QueueError::Backend(e.to_string())
}

pub(super) fn encode<T: serde::Serialize>(v: &T) -> Result<Vec<u8>, QueueError> {
    serde_json::to_vec(v).map_err(|e| QueueError::Corrupt(e.to_string()))
}

pub(super) fn decode<T: serde::de::DeserializeOwned>(b: &[u8]) -> Result<T, QueueError> {
    serde_json::from_slice(b).map_err(|e| QueueError::Corrupt(e.to_string()))
}

pub(super) fn job_in(w: &WriteTransaction, id: &str) -> Result<Option<JobRecord>, QueueError> {
    let t = w.open_table(JOBS).map_err(backend)?;
    let found = t.get(id).map_err(backend)?;
    found.map(|g| decode(g.value())).transpose()
}

pub(super) fn put_job(w: &WriteTransaction, job: &JobRecord) -> Result<(), QueueError> {
    let mut t = w.open_table(JOBS).map_err(backend)?;
    t.insert(job.id.as_str(), encode(job)?.as_slice())
        .map_err(backend)?;
    Ok(())
}

/// Queues unseen tasks within the limit; updates `job.total`.
pub(super) fn queue_tasks(
    w: &WriteTransaction,
    job: &mut JobRecord,
    tasks: Vec<Task>,
    limit: u64,
) -> Result<u64, QueueError> {
    let mut seen = w.open_table(SEEN).map_err(backend)?;
    let mut queued = w.open_table(QUEUED).map_err(backend)?;
    let mut added = 0;
    for task in tasks {
        if job.total >= limit {
            break;
        }
        if seen
            .get((job.id.as_str(), task.key.as_str()))
            .map_err(backend)?
            .is_some()
        {
            continue;
        }
        seen.insert((job.id.as_str(), task.key.as_str()), 1)
            .map_err(backend)?;
        queued
            .insert((job.id.as_str(), job.next_seq), encode(&task)?.as_slice())
            .map_err(backend)?;
        job.next_seq += 1;
        job.total += 1;
        added += 1;
    }
    Ok(added)
}

pub(super) fn remove_range<V: redb::Value + 'static>(
    w: &WriteTransaction,
    def: TableDefinition<SeqKey, V>,
    id: &str,
) -> Result<u64, QueueError> {
    let mut t = w.open_table(def).map_err(backend)?;
    let keys: Vec<u64> = t
        .range((id, 0u64)..=(id, u64::MAX))
        .map_err(backend)?
        .map(|r| r.map(|(k, _)| k.value().1).map_err(backend))
        .collect::<Result<_, _>>()?;
    for k in &keys {
        t.remove((id, *k)).map_err(backend)?;
    }
    Ok(keys.len() as u64)
}

pub(super) fn remove_urls(
    w: &WriteTransaction,
    def: TableDefinition<UrlKey, u8>,
    id: &str,
) -> Result<(), QueueError> {
    let mut t = w.open_table(def).map_err(backend)?;
    let keys: Vec<String> = t
        .range((id, "")..)
        .map_err(backend)?
        .map_while(|r| match r {
            Ok((k, _)) if k.value().0 == id => Some(Ok(k.value().1.to_string())),
            Ok(_) => None,
            Err(e) => Some(Err(backend(e))),
        })
        .collect::<Result<_, _>>()?;
    for k in &keys {
        t.remove((id, k.as_str())).map_err(backend)?;
    }
    Ok(())
}
