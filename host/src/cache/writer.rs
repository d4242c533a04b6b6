//! The embedded store's background writer: one thread that takes writes off
//! the request path. A put lands in the hot tier at once (so the next request
//! hits) and queues here; the thread drains the queue in batches, compresses
//! each value ([`super::codec::compacted`]; not while the file is under half
//! its cap, [`super::disk::RAW_WHILE_UNDER`]) and commits the batch to the
//! redb file in one transaction, then drops the keys the file evicted from
//! the hot tier. The queue is bounded, in writes ([`QUEUE_LEN`]) and in the bytes of
//! the values waiting ([`QUEUE_BYTES`]): when it is full, a put keeps its
//! hot-tier copy but its file write is dropped with a debug log, rather than
//! slowing the request (a cache may lose an entry; it must not add latency).
//! The byte bound is the server's memory: a value waits whole until its
//! batch commits, and a commit can stall on the disk (the durable one a
//! second syncs the file), so under a burst of large pages the queue held up
//! to ~20 MiB of them (BENCHMARKS.md, "The c=16 peak"). Deletes and barriers
//! go through the same queue, so they see every write queued before them.
//! Within a batch, a put that a later put of the same key replaces (before
//! any delete or barrier) is not written at all: the file keeps only the last.
//! Dropping the [`Writer`] drains the queue and joins the thread: nothing
//! queued is lost on a graceful shutdown. Until a put reaches the file it is
//! also in [`Pending`], so a read finds it even if the hot tier has already
//! evicted it.

use super::codec;
use super::disk::Disk;
use super::encoded::Encoded;
use super::store::StoreError;
use crate::scratch::Scratch;
use moka::future::Cache;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// Writes waiting for the thread, at most (each holds one encoded value).
pub const QUEUE_LEN: usize = 512;
/// Bytes of values waiting for the thread or its commit, at most; a value
/// larger than this alone is still queued when nothing else waits.
pub const QUEUE_BYTES: usize = 8 << 20;
/// Capacity the thread keeps for compressing between values: a value up to
/// ~2 MiB compresses without a fresh page-sized buffer.
const SCRATCH_CAP: usize = 2 << 20;
/// Most operations one transaction takes.
const BATCH: usize = 128;
/// After a put wakes the thread, how long it waits for more before writing:
/// many puts then share one transaction and one wake-up. A commit costs
/// ~0.3 ms of CPU however few puts it holds, so with 5 ms a scrape of a slow
/// origin paid one of its own (BENCHMARKS.md). The wait ends early once a
/// full batch is queued, half of [`QUEUE_BYTES`] waits, or a delete or
/// barrier waits. Reads never wait:
/// the hot tier and [`Pending`] serve a put at once, and the file is made
/// durable only once a second anyway ([`super::disk::FLUSH_EVERY`]).
const LINGER: Duration = Duration::from_millis(200);

/// The hot tier: key → encoded value (uncompressed form, its body shared
/// with the page or document it was made of: [`Encoded`]).
pub type HotTier = Cache<String, Encoded>;

/// Puts queued but not yet in the file: key → the value queued last.
#[derive(Default, Clone)]
pub struct Pending(Arc<Mutex<HashMap<String, Encoded>>>);

impl Pending {
    pub fn get(&self, key: &str) -> Option<Encoded> {
        self.0.lock().expect("pending lock").get(key).cloned()
    }

    fn insert(&self, key: &str, value: Encoded) {
        self.0
            .lock()
            .expect("pending lock")
            .insert(key.to_string(), value);
    }

    pub fn remove(&self, key: &str) {
        self.0.lock().expect("pending lock").remove(key);
    }

    /// Forgets `key` if `value` is still what is pending for it (a newer
    /// put of the same key stays).
    fn written(&self, key: &str, value: &Encoded) {
        let mut map = self.0.lock().expect("pending lock");
        if map.get(key).is_some_and(|v| v.same(value)) {
            map.remove(key);
        }
    }
}

/// The gzip stream a queued page's body came in from the origin: the value's
/// payload is its first `plain` bytes, then what `gz` inflates to
/// ([`codec::gzip_tail`]).
pub struct GzipTail {
    pub plain: usize,
    pub gz: bytes::Bytes,
}

enum Op {
    Put(String, Encoded, Option<GzipTail>),
    Delete(String, oneshot::Sender<Result<bool, StoreError>>),
    /// Answered once every operation queued before it is done.
    Barrier(oneshot::Sender<()>),
}

/// The sending side; the thread runs until this is dropped.
pub struct Writer {
    queue: Option<mpsc::Sender<Op>>,
    thread: Option<JoinHandle<()>>,
    /// Cuts the thread's linger short: set and unparked for a delete, a
    /// barrier or shutdown (a full batch unparks it without the flag).
    hurry: Arc<AtomicBool>,
    waker: Thread,
    dropped: Arc<AtomicU64>,
    pending: Pending,
    queued: Arc<Queued>,
}

/// Bytes of queued values not yet committed (or given up on).
#[derive(Default)]
struct Queued(AtomicUsize);

impl Queued {
    /// Counts `len` more bytes if they fit under [`QUEUE_BYTES`] (or nothing
    /// is queued); false when the write must be dropped.
    fn admit(&self, len: usize) -> bool {
        self.0
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |q| {
                (q == 0 || q + len <= QUEUE_BYTES).then_some(q + len)
            })
            .is_ok()
    }

    /// Whether half of [`QUEUE_BYTES`] or more waits.
    fn heavy(&self) -> bool {
        self.0.load(Ordering::Acquire) >= QUEUE_BYTES / 2
    }

    fn done(&self, len: usize) {
        self.0.fetch_sub(len, Ordering::AcqRel);
    }
}

impl Writer {
    /// Starts the thread writing to `disk` and evicting from `hot`.
    pub fn start(disk: Arc<Disk>, hot: HotTier) -> Writer {
        let (tx, rx) = mpsc::channel(QUEUE_LEN);
        let pending = Pending::default();
        let queued = Arc::new(Queued::default());
        let hurry = Arc::new(AtomicBool::new(false));
        let (p, q, h) = (pending.clone(), queued.clone(), hurry.clone());
        let thread = std::thread::Builder::new()
            .name("distill-cache-writer".into())
            .spawn(move || run(rx, &disk, &hot, &p, &q, &h))
            .expect("spawning the cache writer thread");
        Writer {
            queue: Some(tx),
            waker: thread.thread().clone(),
            thread: Some(thread),
            hurry,
            dropped: Arc::new(AtomicU64::new(0)),
            pending,
            queued,
        }
    }

    /// Puts not yet in the file.
    pub fn pending(&self) -> &Pending {
        &self.pending
    }

    /// Queues a write of `encoded` under `key`; false (and a debug log) when
    /// the queue is full and the write was dropped.
    pub fn put(&self, key: &str, encoded: Encoded) -> bool {
        self.put_with(key, encoded, None)
    }

    /// [`Writer::put`] of a value whose end came gzipped (`tail`): the file
    /// gets the gzip bytes instead of a compression of the value.
    pub fn put_with(&self, key: &str, encoded: Encoded, tail: Option<GzipTail>) -> bool {
        let Some(queue) = &self.queue else {
            return false;
        };
        let len = encoded.len();
        if !self.queued.admit(len) {
            return self.drop_write(key);
        }
        self.pending.insert(key, encoded.clone());
        match queue.try_send(Op::Put(key.to_string(), encoded.clone(), tail)) {
            Ok(()) => {
                if self.queued.heavy() {
                    // Half the byte bound waits (a burst of large pages):
                    // lingering on would start dropping writes.
                    self.hurry.store(true, Ordering::Release);
                    self.waker.unpark();
                } else if QUEUE_LEN - queue.capacity() >= BATCH {
                    // A full batch waits: no reason to linger.
                    self.waker.unpark();
                }
                true
            }
            Err(_) => {
                self.queued.done(len);
                self.pending.written(key, &encoded);
                self.drop_write(key)
            }
        }
    }

    /// Counts and logs a put whose file write is dropped; false.
    fn drop_write(&self, key: &str) -> bool {
        let n = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
        tracing::debug!(
            key,
            dropped_total = n,
            "cache: write queue full, file write dropped"
        );
        false
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
        queue.send(op).await.map_err(|_| closed())?;
        self.hurry_up();
        Ok(())
    }

    fn hurry_up(&self) {
        self.hurry.store(true, Ordering::Release);
        self.waker.unpark();
    }
}

impl Drop for Writer {
    /// Closes the queue and waits for the thread to write what is left.
    fn drop(&mut self) {
        self.queue.take();
        self.hurry_up();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn closed() -> StoreError {
    StoreError::Backend("cache writer stopped".into())
}

/// The thread: one batch per wake-up until the queue closes.
fn run(
    mut rx: mpsc::Receiver<Op>,
    disk: &Disk,
    hot: &HotTier,
    pending: &Pending,
    queued: &Queued,
    hurry: &AtomicBool,
) {
    let mut zstd = codec::compressor();
    let mut scratch = Scratch::new(SCRATCH_CAP);
    while let Some(first) = rx.blocking_recv() {
        if matches!(first, Op::Put(..)) {
            linger(&rx, hurry);
        }
        hurry.store(false, Ordering::Release);
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(op) => batch.push(op),
                Err(_) => break,
            }
        }
        let done = Done { hot, pending, queued };
        apply(batch, disk, &done, &mut zstd, &mut scratch);
    }
}

/// Waits up to [`LINGER`] for more operations, less once a full batch is
/// queued, the writer hurries it, or the queue is closed.
fn linger(rx: &mpsc::Receiver<Op>, hurry: &AtomicBool) {
    let until = Instant::now() + LINGER;
    while rx.len() < BATCH && !hurry.load(Ordering::Acquire) && !rx.is_closed() {
        let now = Instant::now();
        if now >= until {
            break;
        }
        std::thread::park_timeout(until - now);
    }
}

/// A put on its way to the file: key, stored form (`None`: the queued value
/// as it is), the queued value.
type Put = (String, Option<Vec<u8>>, Encoded);

/// What a written put is taken out of.
struct Done<'a> {
    hot: &'a HotTier,
    pending: &'a Pending,
    queued: &'a Queued,
}

/// Applies a batch in order: runs of puts become one transaction each.
fn apply(
    batch: Vec<Op>,
    disk: &Disk,
    done: &Done,
    zstd: &mut Option<zstd::bulk::Compressor<'static>>,
    scratch: &mut Scratch,
) {
    let mut puts: Vec<Put> = Vec::new();
    let superseded = superseded(&batch);
    for (op, superseded) in batch.into_iter().zip(superseded) {
        match op {
            Op::Put(key, encoded, _) if superseded => {
                // A later put of the same key in this run replaces it in the
                // same transaction: the file ends up as if it were written.
                done.pending.written(&key, &encoded);
                done.queued.done(encoded.len());
            }
            Op::Put(key, encoded, tail) => {
                // The origin's gzip bytes when it sent some: a copy of
                // fewer bytes than the value, no compression. Else
                // uncompressed while the file has room (and the value fits
                // the entry limit as it is): no CPU for disk already given.
                let gzipped = match &tail {
                    Some(t) => codec::gzip_tail_of(encoded.head(), encoded.len(), t.plain, &t.gz),
                    None => Ok(None),
                };
                let raw = || disk.has_room_for_raw() && disk.check_len(&key, encoded.len()).is_ok();
                let stored = match gzipped {
                    Ok(Some(form)) => Ok(Some(form)),
                    _ if raw() => Ok(None),
                    _ => {
                        // Compressed from one buffer: a copy beside zstd's work.
                        let whole = encoded.to_vec();
                        let c = codec::compacted(&whole, zstd.as_mut().map(|c| (c, &mut *scratch)));
                        c.map(|c| Some(c.unwrap_or(whole)))
                    }
                };
                match stored {
                    Ok(stored) => puts.push((key, stored, encoded)),
                    Err(e) => {
                        done.pending.written(&key, &encoded);
                        done.queued.done(encoded.len());
                        tracing::warn!(key, error = %e, "cache: entry not written");
                    }
                }
            }
            Op::Delete(key, reply) => {
                write_puts(&mut puts, disk, done);
                let _ = reply.send(disk.delete(&key));
            }
            Op::Barrier(reply) => {
                write_puts(&mut puts, disk, done);
                let _ = reply.send(());
            }
        }
    }
    write_puts(&mut puts, disk, done);
}

/// Which puts of `batch` a later put of the same key replaces before the
/// next delete or barrier (within one run of puts, which [`apply`] commits as
/// one transaction): those need not be compressed nor written. A key scraped
/// over and over (a scraper polling a page, the peer bench) queues one put
/// per request; the file only ever keeps the last.
fn superseded(batch: &[Op]) -> Vec<bool> {
    let mut out = vec![false; batch.len()];
    let mut last: HashMap<&str, usize> = HashMap::new();
    for (i, op) in batch.iter().enumerate() {
        match op {
            Op::Put(key, ..) => {
                if let Some(earlier) = last.insert(key.as_str(), i) {
                    out[earlier] = true;
                }
            }
            Op::Delete(..) | Op::Barrier(..) => last.clear(),
        }
    }
    out
}

/// Commits the pending puts in one transaction and evicts what the file
/// evicted from the hot tier.
fn write_puts(puts: &mut Vec<Put>, disk: &Disk, done: &Done) {
    if puts.is_empty() {
        return;
    }
    let items: Vec<(&str, [&[u8]; 2])> = puts
        .iter()
        .map(|(k, stored, queued)| {
            let parts = match stored {
                Some(stored) => [stored.as_slice(), &[]],
                None => queued.parts(),
            };
            (k.as_str(), parts)
        })
        .collect();
    let result = disk.put_many_parts(&items);
    // Written (or failed for good): reads go to the file from now on.
    for (k, _, queued) in puts.iter() {
        done.pending.written(k, queued);
        done.queued.done(queued.len());
    }
    match result {
        Ok(evicted) => {
            for k in &evicted {
                futures::executor::block_on(done.hot.invalidate(k));
            }
        }
        Err(e) => tracing::warn!(entries = puts.len(), error = %e, "cache: batch not written"),
    }
    puts.clear();
}

#[cfg(test)]
#[path = "writer_tests.rs"]
mod tests;
