//! Per-key limits (docs/OPERATORS.md): the API keys ([`keys`]), requests per
//! minute per endpoint class, credits, and scrapes running at once with a
//! bounded wait queue ([`concurrency`]). Counts live in [`counters`]: a
//! durable file in the data directory by default ([`file_counters`]), Redis when configured
//! ([`redis_counters`]) so that several servers enforce one budget. Nothing
//! here knows HTTP; `server/auth` and `server/billing` turn the outcomes into
//! responses.

pub mod concurrency;
pub mod counters;
pub mod file_counters;
pub mod group_commit;
pub mod keys;
pub mod migrate;
pub mod redis_counters;

use counters::{CounterError, Counters, HoldShift, MemoryCounters};
use keys::{KeyRecord, KeyStore};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Where keys and counters live, from [`crate::config::Config`].
#[derive(Debug, Clone)]
pub struct LimitSettings {
    /// The keys file (default `DATA_DIR/keys.json`).
    pub keys_file: PathBuf,
    /// `redis://...`: counters in Redis (default: the cache's URL); `None`:
    /// the embedded store in `DATA_DIR/limits`.
    pub url: Option<String>,
    /// The embedded counters' file (`DATA_DIR/limits/counters.redb`).
    pub path: PathBuf,
    /// Scrapes of one key waiting for a concurrency slot, per server.
    pub queue_per_key: usize,
}

/// Counters the embedded file commits without an fsync (per-minute rate
/// windows); credits are always durable before a request goes on.
const VOLATILE_COUNTERS: &[&str] = &["rate:"];

/// How long credit counters live: as long as the key (a century).
const CREDITS_TTL: Duration = Duration::from_secs(100 * 365 * 86_400);
/// A held concurrency slot is forgotten after this long without another
/// acquisition by the key (bounds what a crashed server leaves behind in Redis).
const SLOT_TTL: Duration = Duration::from_secs(600);

/// Endpoint classes, each with its own per-minute window (as upstream's
/// rate limiter modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndpointClass {
    /// `POST /v2/scrape`, `/v2/parse`, `/v2/batch/scrape`, interact.
    Scrape,
    Crawl,
    Map,
    Search,
    Extract,
    /// `GET` of a job's status (not rate limited, as upstream's 25 000/min).
    Status,
    /// Anything else under `/v2` (usage, ...).
    Other,
}

impl EndpointClass {
    /// The class of a `/v2` request.
    pub fn of(method: &str, path: &str) -> EndpointClass {
        let rest = path.trim_start_matches("/v2/");
        let first = rest.split('/').next().unwrap_or("");
        if method == "GET" {
            return match first {
                "team" => EndpointClass::Other,
                _ => EndpointClass::Status,
            };
        }
        match first {
            "scrape" | "parse" | "batch" => EndpointClass::Scrape,
            "crawl" => EndpointClass::Crawl,
            "map" => EndpointClass::Map,
            "search" => EndpointClass::Search,
            "extract" | "agent" => EndpointClass::Extract,
            _ => EndpointClass::Other,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            EndpointClass::Scrape => "scrape",
            EndpointClass::Crawl => "crawl",
            EndpointClass::Map => "map",
            EndpointClass::Search => "search",
            EndpointClass::Extract => "extract",
            EndpointClass::Status => "status",
            EndpointClass::Other => "other",
        }
    }

    /// Whether requests of the class spend credits (and so need one left).
    pub fn billable(self) -> bool {
        !matches!(self, EndpointClass::Status | EndpointClass::Other)
    }
}

/// A request over the key's per-minute limit.
#[derive(Debug, Clone)]
pub struct RateLimited {
    pub consumed: u64,
    pub remaining: u64,
    pub retry_after_secs: u64,
    /// When the window resets (Unix ms).
    pub resets_at_ms: i64,
}

/// A key's credit standing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CreditUsage {
    /// `None`: unlimited.
    pub plan: Option<u64>,
    pub used: u64,
}

impl CreditUsage {
    pub fn remaining(&self) -> Option<u64> {
        self.plan.map(|p| p.saturating_sub(self.used))
    }
}

/// The limits service.
pub struct Limits {
    pub keys: KeyStore,
    counters: Arc<dyn Counters>,
    pub slots: concurrency::Slots,
    backend: &'static str,
}

impl Limits {
    /// Opens the keys file and the counter backend the settings name.
    pub async fn open(settings: &LimitSettings) -> anyhow::Result<Limits> {
        let keys = KeyStore::open(&settings.keys_file)?;
        let (counters, slots_backend, backend): (Arc<dyn Counters>, Arc<dyn Counters>, _) = match settings
            .url
            .as_deref()
        {
            Some(url) => {
                let redis = Arc::new(redis_counters::RedisCounters::connect(url).await?);
                (redis.clone(), redis, "redis")
            }
            None => {
                let path = settings.path.clone();
                let file = tokio::task::spawn_blocking(move || {
                    let file = file_counters::FileCounters::open(&path, VOLATILE_COUNTERS)?;
                    if let Err(e) = migrate::import_old_credits(&path, &file) {
                        tracing::error!("the older limits file could not be imported (left in place): {e}");
                    }
                    anyhow::Ok(file)
                })
                .await??;
                (Arc::new(file), Arc::new(MemoryCounters::default()), "embedded")
            }
        };
        Ok(Limits {
            keys,
            counters,
            slots: concurrency::Slots::new(slots_backend, settings.queue_per_key, SLOT_TTL),
            backend,
        })
    }

    /// "embedded" or "redis".
    pub fn backend(&self) -> &'static str {
        self.backend
    }

    /// Counts one request of `class` against the key's per-minute limit.
    pub async fn check_rate(
        &self,
        key: &KeyRecord,
        class: EndpointClass,
    ) -> Result<Result<(), RateLimited>, CounterError> {
        let Some(rpm) = key.rpm.filter(|_| class != EndpointClass::Status) else {
            return Ok(Ok(()));
        };
        let now = crate::cache::store::now_ms();
        let window = now / 60_000;
        let counter = format!("rate:{}:{}:{window}", key.id, class.name());
        let ttl = Duration::from_secs(120);
        let limit = i64::try_from(rpm).unwrap_or(i64::MAX);
        if self
            .counters
            .add_within(&counter, 1, limit, ttl, false)
            .await?
            .is_some()
        {
            return Ok(Ok(()));
        }
        let consumed = self.counters.get(&counter).await?.max(0) as u64;
        let resets_at_ms = (window + 1) * 60_000;
        Ok(Err(RateLimited {
            consumed,
            remaining: rpm.saturating_sub(consumed),
            retry_after_secs: ((resets_at_ms - now) as u64).div_ceil(1000).max(1),
            resets_at_ms,
        }))
    }

    fn credits_key(key: &KeyRecord) -> String {
        format!("credits:{}", key.id)
    }

    /// The key's credits.
    pub async fn usage(&self, key: &KeyRecord) -> Result<CreditUsage, CounterError> {
        let used = self.counters.get(&Self::credits_key(key)).await?.max(0) as u64;
        Ok(CreditUsage {
            plan: key.credits,
            used,
        })
    }

    /// Takes `n` credits if the key has that many left; false otherwise.
    /// Keys without a credit limit always succeed (and are still counted).
    pub async fn reserve(&self, key: &KeyRecord, n: u64) -> Result<bool, CounterError> {
        let limit = key
            .credits
            .map_or(i64::MAX, |c| i64::try_from(c).unwrap_or(i64::MAX));
        let taken = self
            .counters
            .add_within(&Self::credits_key(key), n as i64, limit, CREDITS_TTL, false)
            .await?;
        Ok(taken.is_some())
    }

    fn hold_key(key: &KeyRecord, hold: &str) -> String {
        format!("hold:{}:{hold}", key.id)
    }

    /// Holds `credits` of the key for one unit of work named `hold` (a
    /// crawl page: job id and task number), in one atomic step with the
    /// balance: the amount held moves to `credits`, the balance by the
    /// difference, and taking more succeeds only when the key can afford it
    /// (false otherwise, nothing changed). Holding again what is already held
    /// (a page re-leased after its worker died) costs nothing more; 0 gives
    /// everything held back. The hold is forgotten after `ttl`.
    pub async fn hold(
        &self,
        key: &KeyRecord,
        hold: &str,
        credits: u64,
        ttl: Duration,
    ) -> Result<bool, CounterError> {
        let limit = key
            .credits
            .map_or(i64::MAX, |c| i64::try_from(c).unwrap_or(i64::MAX));
        let moved = self
            .counters
            .shift_hold(&HoldShift {
                main: Self::credits_key(key),
                hold: Self::hold_key(key, hold),
                target: i64::try_from(credits).unwrap_or(i64::MAX),
                limit,
                ttl: CREDITS_TTL,
                hold_ttl: ttl,
            })
            .await?;
        Ok(moved.is_some())
    }

    /// Adjusts the key's spent credits by `delta` after the work is done (the
    /// rest of a multi-credit scrape, or a refund when negative). May pass the
    /// limit: a request admitted with credits left is finished and billed.
    pub async fn settle(&self, key: &KeyRecord, delta: i64) -> Result<(), CounterError> {
        if delta != 0 {
            self.counters
                .add(&Self::credits_key(key), delta, CREDITS_TTL)
                .await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::EndpointClass as C;

    #[test]
    fn endpoint_classes() {
        assert_eq!(C::of("POST", "/v2/scrape"), C::Scrape);
        assert_eq!(C::of("POST", "/v2/parse"), C::Scrape);
        assert_eq!(C::of("POST", "/v2/batch/scrape"), C::Scrape);
        assert_eq!(C::of("POST", "/v2/crawl"), C::Crawl);
        assert_eq!(C::of("GET", "/v2/crawl/abc"), C::Status);
        assert_eq!(C::of("POST", "/v2/map"), C::Map);
        assert_eq!(C::of("GET", "/v2/team/credit-usage"), C::Other);
        assert!(!C::Status.billable() && C::Scrape.billable());
    }
}
