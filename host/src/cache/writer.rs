//! The embedded store's background writer: one thread that takes writes off
//! the request path. A put lands in the hot tier at once (so the next request
//! hits) and queues here; the thread drains the queue in batches, compresses
//! each value ([`super::codec::compact`]) and commits the batch to the redb
//! file in one transaction, then drops the keys the file evicted from the hot
//! tier. The queue is bounded ([`QUEUE_LEN`]): when it is full, a put keeps
//! its hot-tier copy but its file write is dropped with a debug log, rather
//! than slowing the request (a cache may lose an entry; it must not add
//! latency). Deletes and barriers go through the same queue, so they see
//! every write queued before them. Dropping the [`Writer`] drains the queue
//! and joins the thread: nothing queued is lost on a graceful shutdown.

use super::codec;
use super::disk::Disk;
use super::store::StoreError;
use moka::future::Cache;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;
use tokio::sync::{mpsc, oneshot};

/// Writes waiting for the thread, at most (each holds one encoded value).
pub const QUEUE_LEN: usize = 512;
/// Most operations one transaction takes.
const BATCH: usize = 128;
/// After a put wakes the thread, how long it waits for more before writing:
/// under load this gathers many puts into one transaction and one wake-up.
const LINGER: std::time::Duration = std::time::Duration::from_millis(5);

/// The hot tier: key → encoded value (uncompressed form).
pub type HotTier = Cache<String, Arc<[u8]>>;

enum Op {
    Put(String, Arc<[u8]>),
    Delete(String, oneshot::Sender<Result<bool, StoreError>>),
    /// Answered once every operation queued before it is done.
    Barrier(oneshot::Sender<()>),
}

/// The sending side; the thread runs until this is dropped.
pub struct Writer {
    queue: Option<mpsc::Sender<Op>>,
    thread: Option<JoinHandle<()>>,
    dropped: Arc<AtomicU64>,
}

impl Writer {
    /// Starts the thread writing to `disk` and evicting from `hot`.
    pub fn start(disk: Arc<Disk>, hot: HotTier) -> Writer {
        let (tx, rx) = mpsc::channel(QUEUE_LEN);
        let thread = std::thread::Builder::new()
            .name("distill-cache-writer".into())
            .spawn(move || run(rx, &disk, &hot))
            .expect("spawning the cache writer thread");
        Writer {
            queue: Some(tx),
            thread: Some(thread),
            dropped: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Queues a write of `encoded` under `key`; false (and a debug log) when
    /// the queue is full and the write was dropped.
    pub fn put(&self, key: &str, encoded: Arc<[u8]>) -> bool {
        let Some(queue) = &self.queue else {
            return false;
        };
        match queue.try_send(Op::Put(key.to_string(), encoded)) {
            Ok(()) => true,
            Err(_) => {
                let n = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
                tracing::debug!(
                    key,
                    dropped_total = n,
                    "cache: write queue full, file write dropped"
                );
                false
            }
        }
    }

    /// Deletes `key` from the file after every write queued before.
    pub async fn delete(&self, key: &str) -> Result<bool, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.send(Op::Delete(key.to_string(), tx)).await?;
        rx.await.map_err(|_| closed())?
    }

    /// Waits until every operation queued so far has reached the file.
    pub async fn sync(&self) -> Result<(), StoreError> {
        let (tx, rx) = oneshot::channel();
        self.send(Op::Barrier(tx)).await?;
        rx.await.map_err(|_| closed())
    }

    /// File writes dropped because the queue was full, since start.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    async fn send(&self, op: Op) -> Result<(), StoreError> {
        let queue = self.queue.as_ref().ok_or_else(closed)?;
        queue.send(op).await.map_err(|_| closed())
    }
}

impl Drop for Writer {
    /// Closes the queue and waits for the thread to write what is left.
    fn drop(&mut self) {
        self.queue.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn closed() -> StoreError {
    StoreError::Backend("cache writer stopped".into())
}

/// The thread: one batch per wake-up until the queue closes.
fn run(mut rx: mpsc::Receiver<Op>, disk: &Disk, hot: &HotTier) {
    let mut zstd = codec::compressor();
    while let Some(first) = rx.blocking_recv() {
        if matches!(first, Op::Put(..)) {
            std::thread::sleep(LINGER);
        }
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(op) => batch.push(op),
                Err(_) => break,
            }
        }
        apply(batch, disk, hot, &mut zstd);
    }
}

/// Applies a batch in order: runs of puts become one transaction each.
fn apply(batch: Vec<Op>, disk: &Disk, hot: &HotTier, zstd: &mut Option<zstd::bulk::Compressor<'static>>) {
    let mut puts: Vec<(String, Vec<u8>)> = Vec::new();
    for op in batch {
        match op {
            Op::Put(key, encoded) => match codec::compact_with(&encoded, zstd.as_mut()) {
                Ok(stored) => puts.push((key, stored)),
                Err(e) => tracing::warn!(key, error = %e, "cache: entry not written"),
            },
            Op::Delete(key, reply) => {
                write_puts(&mut puts, disk, hot);
                let _ = reply.send(disk.delete(&key));
            }
            Op::Barrier(reply) => {
                write_puts(&mut puts, disk, hot);
                let _ = reply.send(());
            }
        }
    }
    write_puts(&mut puts, disk, hot);
}

/// Commits the pending puts in one transaction and evicts what the file
/// evicted from the hot tier.
fn write_puts(puts: &mut Vec<(String, Vec<u8>)>, disk: &Disk, hot: &HotTier) {
    if puts.is_empty() {
        return;
    }
    let items: Vec<(&str, &[u8])> = puts.iter().map(|(k, v)| (k.as_str(), v.as_slice())).collect();
    match disk.put_many(&items) {
        Ok(evicted) => {
            for k in &evicted {
                futures::executor::block_on(hot.invalidate(k));
            }
        }
        Err(e) => tracing::warn!(entries = puts.len(), error = %e, "cache: batch not written"),
    }
    puts.clear();
}
