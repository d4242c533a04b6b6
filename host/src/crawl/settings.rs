//! Operator settings of crawls, from the environment (defaults in
//! docs/CRAWL.md): politeness, caps, the webhook secret and the shared queue.

use std::time::Duration;

/// Crawl settings.
#[derive(Debug, Clone)]
pub struct CrawlSettings {
    /// Pages being scraped at once across every job (`DISTILL_CRAWL_MAX_INFLIGHT`, 32).
    pub max_inflight: usize,
    /// Pages of one host being fetched at once (`DISTILL_CRAWL_PER_HOST`, 8).
    pub per_host: usize,
    /// A job's concurrency when it sets no `maxConcurrency` (`DISTILL_CRAWL_CONCURRENCY`, 10,
    /// upstream's CRAWL_CONCURRENT_REQUESTS).
    pub default_concurrency: usize,
    /// The user agent robots.txt rules are matched against (`DISTILL_ROBOTS_USER_AGENT`,
    /// "DistillBot"; a request's `robotsUserAgent` overrides it).
    pub robots_user_agent: String,
    /// HMAC key of webhook signatures (`DISTILL_WEBHOOK_SECRET`); unset: unsigned.
    pub webhook_secret: Option<String>,
    /// Webhook deliveries tried before giving up.
    pub webhook_attempts: u32,
    /// First retry delay; doubled each time.
    pub webhook_backoff: Duration,
    /// The shared queue (`DISTILL_QUEUE_URL=redis://…`); unset: the embedded one.
    pub queue_url: Option<String>,
    /// Page cache of the embedded queue's redb file, in bytes
    /// (`DISTILL_QUEUE_CACHE_MIB`, 16).
    pub queue_cache_bytes: usize,
    /// How long a task stays leased to a worker without renewal
    /// (`DISTILL_QUEUE_LEASE_SECS`, 30): a dead worker's pages go to another
    /// worker after at most this long. Renewed every third of it.
    pub lease: Duration,
    /// How often a server looks for jobs other servers started (shared queue, 1 s).
    pub poll: Duration,
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(default)
}

impl CrawlSettings {
    pub fn from_env() -> CrawlSettings {
        CrawlSettings {
            max_inflight: env_usize("DISTILL_CRAWL_MAX_INFLIGHT", 32),
            per_host: env_usize("DISTILL_CRAWL_PER_HOST", 8),
            default_concurrency: env_usize("DISTILL_CRAWL_CONCURRENCY", 10),
            robots_user_agent: std::env::var("DISTILL_ROBOTS_USER_AGENT")
                .ok()
                .filter(|v| !v.trim().is_empty())
                .unwrap_or_else(|| "DistillBot".to_string()),
            webhook_secret: std::env::var("DISTILL_WEBHOOK_SECRET")
                .ok()
                .filter(|v| !v.is_empty()),
            webhook_attempts: env_usize("DISTILL_WEBHOOK_ATTEMPTS", 4) as u32,
            webhook_backoff: Duration::from_millis(env_usize("DISTILL_WEBHOOK_BACKOFF_MS", 500) as u64),
            queue_url: std::env::var("DISTILL_QUEUE_URL")
                .ok()
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty()),
            queue_cache_bytes: env_usize(
                "DISTILL_QUEUE_CACHE_MIB",
                crate::jobs::embedded::DEFAULT_PAGE_CACHE_BYTES >> 20,
            )
            .saturating_mul(1 << 20),
            lease: Duration::from_secs(env_usize("DISTILL_QUEUE_LEASE_SECS", 30) as u64),
            poll: Duration::from_millis(env_usize("DISTILL_QUEUE_POLL_MS", 1000) as u64),
        }
    }
}
