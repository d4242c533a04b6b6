//! Group commit for the counters file ([`super::file_counters`]): one
//! thread owns every change. It waits for a change, takes every other one
//! already waiting (at most [`MAX_BATCH`]), applies them in arrival order in
//! one redb write transaction, commits it — durably (fsync) unless every
//! change in it is volatile — and only then answers each caller. Under
//! concurrency many credit changes share one fsync; each caller still gets
//! its answer only once its change is on disk, and each change sees the ones
//! before it (one transaction, applied in order), so limits stay exact.

use super::counters::{CounterError, HoldShift, shifted};
use crate::cache::store::now_ms;
use redb::{Database, Durability, ReadableTable, Table, TableDefinition};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;
use tokio::sync::oneshot;

/// key → (value, expires at Unix ms) as 16 little-endian bytes.
pub const COUNTERS: TableDefinition<&str, [u8; 16]> = TableDefinition::new("counters");

/// Most changes in one transaction.
const MAX_BATCH: usize = 512;

/// Changes between two purges of expired counters.
const PURGE_EVERY: u64 = 1000;

/// One change to the counters.
pub enum Change {
    /// [`super::counters::Counters::add_within`].
    AddWithin {
        key: String,
        delta: i64,
        limit: i64,
        ttl: Duration,
        refresh_ttl: bool,
    },
    /// [`super::counters::Counters::shift_hold`].
    ShiftHold(HoldShift),
}

struct Pending {
    change: Change,
    /// Whether the change must be on disk before its answer.
    durable: bool,
    reply: oneshot::Sender<Result<Option<i64>, CounterError>>,
}

/// The committer thread and the way to it; dropping it ends the thread
/// (after the changes already sent) and waits for it.
pub struct Committer {
    sender: Option<mpsc::Sender<Pending>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

fn err(e: impl std::fmt::Display) -> CounterError {
    CounterError(format!("limits file: {e}"))
}

pub fn decode(bytes: [u8; 16]) -> (i64, i64) {
    let (v, e) = bytes.split_at(8);
    (
        i64::from_le_bytes(v.try_into().expect("8 bytes")),
        i64::from_le_bytes(e.try_into().expect("8 bytes")),
    )
}

pub fn encode(value: i64, expires: i64) -> [u8; 16] {
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&value.to_le_bytes());
    out[8..].copy_from_slice(&expires.to_le_bytes());
    out
}

impl Committer {
    pub fn start(db: Arc<Database>) -> Result<Committer, CounterError> {
        let (sender, receiver) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("limits-commit".into())
            .spawn(move || run(&db, &receiver))
            .map_err(err)?;
        Ok(Committer {
            sender: Some(sender),
            thread: Some(thread),
        })
    }

    /// Applies `change` and answers once it is committed (durably when `durable`).
    pub async fn submit(&self, change: Change, durable: bool) -> Result<Option<i64>, CounterError> {
        let (reply, answer) = oneshot::channel();
        let pending = Pending {
            change,
            durable,
            reply,
        };
        let sender = self.sender.as_ref().ok_or_else(|| err("closed"))?;
        sender.send(pending).map_err(|_| err("the committer stopped"))?;
        answer.await.map_err(|_| err("the committer stopped"))?
    }
}

impl Drop for Committer {
    fn drop(&mut self) {
        self.sender.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn run(db: &Database, receiver: &mpsc::Receiver<Pending>) {
    let mut changes = 0u64;
    while let Ok(first) = receiver.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH
            && let Ok(next) = receiver.try_recv()
        {
            batch.push(next);
        }
        let now = now_ms();
        let outcome = commit(db, &batch, now);
        let purge = changes / PURGE_EVERY != (changes + batch.len() as u64) / PURGE_EVERY;
        changes += batch.len() as u64;
        match outcome {
            Ok(results) => {
                for (pending, result) in batch.into_iter().zip(results) {
                    let _ = pending.reply.send(Ok(result));
                }
            }
            Err(e) => {
                for pending in batch {
                    let _ = pending.reply.send(Err(CounterError(e.0.clone())));
                }
            }
        }
        if purge && let Err(e) = purge_expired(db, now) {
            tracing::warn!(error = %e, "purging expired counters");
        }
    }
}

/// Applies `batch` in one transaction; each change's result, or why none
/// was committed.
fn commit(db: &Database, batch: &[Pending], now: i64) -> Result<Vec<Option<i64>>, CounterError> {
    let mut w = db.begin_write().map_err(err)?;
    if batch.iter().all(|p| !p.durable) {
        w.set_durability(Durability::None).map_err(err)?;
    }
    let results = {
        let mut table = w.open_table(COUNTERS).map_err(err)?;
        batch
            .iter()
            .map(|p| apply(&mut table, &p.change, now))
            .collect::<Result<Vec<_>, _>>()?
    };
    w.commit().map_err(err)?;
    Ok(results)
}

fn expiry(now: i64, ttl: Duration) -> i64 {
    now.saturating_add(ttl.as_millis().min(i64::MAX as u128) as i64)
}

fn live(table: &Table<&str, [u8; 16]>, key: &str, now: i64) -> Result<Option<(i64, i64)>, CounterError> {
    let found = table.get(key).map_err(err)?.map(|g| decode(g.value()));
    Ok(found.filter(|(_, expires)| *expires > now))
}

/// One change within the open transaction.
fn apply(table: &mut Table<&str, [u8; 16]>, change: &Change, now: i64) -> Result<Option<i64>, CounterError> {
    match change {
        Change::AddWithin {
            key,
            delta,
            limit,
            ttl,
            refresh_ttl,
        } => {
            let fresh = expiry(now, *ttl);
            let (value, expires) = match live(table, key, now)? {
                Some((v, e)) => (v, if *refresh_ttl { fresh } else { e }),
                None => (0, fresh),
            };
            let next = value.saturating_add(*delta);
            if next > *limit {
                return Ok(None);
            }
            table.insert(key.as_str(), encode(next, expires)).map_err(err)?;
            Ok(Some(next))
        }
        Change::ShiftHold(s) => {
            let held = live(table, &s.hold, now)?.map_or(0, |(v, _)| v);
            let (value, expires) = live(table, &s.main, now)?.unwrap_or((0, expiry(now, s.ttl)));
            let Some(next) = shifted(value, held, s.target, s.limit) else {
                return Ok(None);
            };
            table
                .insert(s.main.as_str(), encode(next, expires))
                .map_err(err)?;
            if s.target == 0 {
                table.remove(s.hold.as_str()).map_err(err)?;
            } else {
                let hold_expires = expiry(now, s.hold_ttl);
                table
                    .insert(s.hold.as_str(), encode(s.target, hold_expires))
                    .map_err(err)?;
            }
            Ok(Some(next))
        }
    }
}

fn purge_expired(db: &Database, now: i64) -> Result<(), CounterError> {
    let mut w = db.begin_write().map_err(err)?;
    w.set_durability(Durability::None).map_err(err)?;
    {
        let mut table = w.open_table(COUNTERS).map_err(err)?;
        table.retain(|_, bytes| decode(bytes).1 > now).map_err(err)?;
    }
    w.commit().map_err(err)
}
