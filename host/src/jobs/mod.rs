//! Jobs for crawl, batch scrape and extract: the job record, its page tasks, and the
//! queue that holds them ([`store::JobStore`]; by default the embedded redb
//! file in the data directory, so a crawl survives a restart and resumes;
//! with `DISTILL_QUEUE_URL=redis://…` one Redis shared by several servers).
//! Knows nothing of crawling or HTTP: `crawl/` drives jobs through it.

pub mod embedded;
mod embedded_tables;
pub mod record;
pub mod redis_queue;
mod redis_scripts;
pub mod store;

pub use record::{
    Finished, JOB_TTL_MS, JobKind, JobRecord, JobStatus, LeaseToken, Leased, Outcome, Task, billed_credits,
};
pub use store::{JobStore, QueueError, ResultPage};

use std::path::Path;
use std::sync::Arc;

/// Opens the embedded queue at `DATA_DIR/jobs/jobs.redb` (redb's page cache
/// capped at `cache_bytes`) and starts its flusher.
pub async fn open_embedded(data_dir: &Path, cache_bytes: usize) -> Result<Arc<dyn JobStore>, QueueError> {
    let path = data_dir.join("jobs").join("jobs.redb");
    let queue =
        tokio::task::spawn_blocking(move || embedded::EmbeddedQueue::open_with_cache(&path, cache_bytes))
            .await
            .map_err(|e| QueueError::Backend(e.to_string()))??;
    queue.start_flusher();
    Ok(Arc::new(queue))
}

/// Opens the queue: Redis when `queue_url` is given, else the embedded file
/// with a page cache of `cache_bytes`.
pub async fn open(
    data_dir: &Path,
    queue_url: Option<&str>,
    cache_bytes: usize,
) -> Result<Arc<dyn JobStore>, QueueError> {
    match queue_url {
        Some(url) => Ok(Arc::new(redis_queue::RedisQueue::connect(url).await?)),
        None => open_embedded(data_dir, cache_bytes).await,
    }
}
