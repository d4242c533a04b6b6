//! Prometheus metrics: one process-wide recorder (the `metrics` facade with
//! its Prometheus exporter, rendered by the server's `/metrics` route) and the
//! names every layer records under, so dashboards have one list to read.
//!
//! Recording works before [`install`] too: without a recorder the facade
//! drops the values. Once it is installed, the request path's labelled
//! records go through handles each thread keeps ([`memo`]).

mod memo;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Duration;

/// HTTP requests by route (the matched pattern), method and status.
pub const HTTP_REQUESTS: &str = "distill_http_requests_total";
/// HTTP request latency by route, in seconds.
pub const HTTP_DURATION: &str = "distill_http_request_duration_seconds";
/// Plugin calls by plugin and outcome (`ok` or the failure kind).
pub const PLUGIN_CALLS: &str = "distill_plugin_calls_total";
/// Plugin call latency by plugin, in seconds.
pub const PLUGIN_DURATION: &str = "distill_plugin_call_duration_seconds";
/// Plugin calls waiting for a run slot (the plugin queue's depth).
pub const PLUGIN_QUEUE: &str = "distill_plugin_calls_waiting";
/// Requests waiting for a concurrency slot of their API key, on this server,
/// by key (`key`: its id, `name`: its name; never the secret). One series per
/// key that ever waited, so as many as the keys file holds at most.
pub const KEY_QUEUE: &str = "distill_key_concurrency_waiting";
/// Crawl and batch page tasks in the job queue by state (`queued`: waiting
/// for a worker, `leased`: being scraped), read from the queue at scrape
/// time; a shared (Redis) queue reports the total of all its servers.
pub const JOB_TASKS: &str = "distill_job_tasks";
/// Page fetches by engine and outcome.
pub const FETCHES: &str = "distill_fetches_total";
/// Cache lookups by result (hit, miss).
pub const CACHE_LOOKUPS: &str = "distill_cache_lookups_total";
/// Browser pages open now.
pub const BROWSER_PAGES: &str = "distill_browser_pages_open";
/// Spare browser pages open now (fetch/browser/spare.rs).
pub const BROWSER_SPARE: &str = "distill_browser_spare_pages";
/// Spare browser pages by what became of them: `used` by a scrape, `idle`
/// (disposed of unused), `dropped` (Chromium replaced, page slot wanted, or
/// not opened).
pub const BROWSER_SPARES: &str = "distill_browser_spare_pages_total";
/// Model tokens by direction (prompt, completion).
pub const MODEL_TOKENS: &str = "distill_model_tokens_total";

/// Plugin versions alive in memory (serving, or replaced and still held by a
/// request in flight): flat across hot swaps unless old versions leak.
pub const PLUGIN_VERSIONS_LIVE: &str = "distill_plugin_versions_live";
/// Tokio tasks alive now (requests, crawls, background loops).
pub const TASKS_ALIVE: &str = "distill_tokio_tasks_alive";
/// Bytes in the page cache's in-memory tier (capped by `DISTILL_CACHE_HOT_MIB`).
pub const CACHE_MEMORY_BYTES: &str = "distill_cache_memory_bytes";
/// Heap trims done ([`crate::heap_trim`]).
pub const HEAP_TRIMS: &str = "distill_heap_trims_total";

/// Latency buckets (seconds) for every `_seconds` histogram.
const BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the process-wide recorder (once; later calls reuse it) and starts
/// its upkeep task. `None` if another recorder was installed first.
pub fn install() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), BUCKETS)
                .ok()?
                .build_recorder();
            let handle = recorder.handle();
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!("a metrics recorder was already installed; /metrics stays empty");
                return None;
            }
            describe();
            let upkeep = handle.clone();
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(async move {
                    let mut tick = tokio::time::interval(Duration::from_secs(5));
                    loop {
                        tick.tick().await;
                        upkeep.run_upkeep();
                    }
                });
            }
            Some(handle)
        })
        .as_ref()
}

/// The metrics in Prometheus' text format (empty without a recorder).
pub fn render() -> String {
    install().map(PrometheusHandle::render).unwrap_or_default()
}

fn describe() {
    metrics::describe_counter!(HTTP_REQUESTS, "HTTP requests by route, method and status");
    metrics::describe_histogram!(
        HTTP_DURATION,
        metrics::Unit::Seconds,
        "HTTP request latency by route"
    );
    metrics::describe_counter!(PLUGIN_CALLS, "Plugin calls by plugin and outcome");
    metrics::describe_histogram!(
        PLUGIN_DURATION,
        metrics::Unit::Seconds,
        "Plugin call latency by plugin"
    );
    metrics::describe_gauge!(PLUGIN_QUEUE, "Plugin calls waiting for a run slot");
    metrics::describe_gauge!(
        KEY_QUEUE,
        "Requests waiting for a concurrency slot of their API key, by key id and name"
    );
    metrics::describe_gauge!(
        JOB_TASKS,
        "Crawl and batch page tasks in the job queue, by state (queued, leased)"
    );
    metrics::describe_counter!(FETCHES, "Page fetches by engine and outcome");
    metrics::describe_counter!(CACHE_LOOKUPS, "Cache lookups by result");
    metrics::describe_gauge!(BROWSER_PAGES, "Browser pages open");
    metrics::describe_gauge!(BROWSER_SPARE, "Spare browser pages open (for the next scrape)");
    metrics::describe_counter!(
        BROWSER_SPARES,
        "Spare browser pages by outcome (used, idle, dropped)"
    );
    metrics::describe_counter!(MODEL_TOKENS, "Model tokens by direction");
    metrics::describe_gauge!(
        PLUGIN_VERSIONS_LIVE,
        "Plugin versions alive in memory (serving or held by a request in flight)"
    );
    metrics::describe_gauge!(TASKS_ALIVE, "Tokio tasks alive");
    metrics::describe_gauge!(CACHE_MEMORY_BYTES, "Bytes in the page cache's in-memory tier");
    metrics::describe_counter!(HEAP_TRIMS, "Heap trims (free heap pages returned to the kernel)");
}

/// One finished HTTP request.
pub fn http_request(route: &str, method: &str, status: u16, elapsed: Duration) {
    let keep = installed();
    let mut digits = [0u8; 5];
    let code = status_text(status, &mut digits);
    memo::counter(
        keep,
        HTTP_REQUESTS,
        &[route, method, code],
        || metrics::counter!(HTTP_REQUESTS, "route" => route.to_string(), "method" => method.to_string(), "status" => code.to_string()),
        |c| c.increment(1),
    );
    memo::histogram(
        keep,
        HTTP_DURATION,
        &[route],
        || metrics::histogram!(HTTP_DURATION, "route" => route.to_string()),
        |h| h.record(elapsed.as_secs_f64()),
    );
}

/// Whether the process-wide recorder is installed (handles may be kept).
fn installed() -> bool {
    matches!(HANDLE.get(), Some(Some(_)))
}

/// `status` in decimal, written into `buf` (the status label's text).
fn status_text(status: u16, buf: &mut [u8; 5]) -> &str {
    let mut n = status;
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[at..]).expect("ASCII digits")
}

/// One finished plugin call; `outcome` is `ok` or the failure's kind.
pub fn plugin_call(plugin: &str, outcome: &'static str, elapsed: Duration) {
    let keep = installed();
    memo::counter(
        keep,
        PLUGIN_CALLS,
        &[plugin, outcome],
        || metrics::counter!(PLUGIN_CALLS, "plugin" => plugin.to_string(), "outcome" => outcome),
        |c| c.increment(1),
    );
    memo::histogram(
        keep,
        PLUGIN_DURATION,
        &[plugin],
        || metrics::histogram!(PLUGIN_DURATION, "plugin" => plugin.to_string()),
        |h| h.record(elapsed.as_secs_f64()),
    );
}

/// Counts a plugin call as waiting for a run slot until the guard is dropped
/// (also when the waiting request is cancelled).
pub fn plugin_waiting() -> Held {
    Held::new(metrics::gauge!(PLUGIN_QUEUE))
}

/// Counts a request as waiting for a concurrency slot of the key `id`
/// (named `name`) until the guard is dropped (also when the wait is cancelled).
pub fn key_waiting(id: &str, name: &str) -> Held {
    Held::new(metrics::gauge!(KEY_QUEUE, "key" => id.to_string(), "name" => name.to_string()))
}

/// Sets the job queue's depth just before `/metrics` renders it.
pub fn job_tasks(queued: u64, leased: u64) {
    metrics::gauge!(JOB_TASKS, "state" => "queued").set(queued as f64);
    metrics::gauge!(JOB_TASKS, "state" => "leased").set(leased as f64);
}

/// Counts a browser page as open until the guard is dropped.
pub fn browser_page() -> Held {
    Held::new(metrics::gauge!(BROWSER_PAGES))
}

/// Counts a spare browser page until the guard is dropped.
pub fn browser_spare() -> Held {
    Held::new(metrics::gauge!(BROWSER_SPARE))
}

/// What became of one spare browser page: `used`, `idle` or `dropped`.
pub fn browser_spare_outcome(outcome: &'static str) {
    metrics::counter!(BROWSER_SPARES, "outcome" => outcome).increment(1);
}

/// One unit of a gauge (a series: name and labels), held until dropped.
pub struct Held(metrics::Gauge);

impl Held {
    fn new(gauge: metrics::Gauge) -> Held {
        gauge.increment(1.0);
        Held(gauge)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.0.decrement(1.0);
    }
}

/// One page fetch by `engine`; `outcome` is `ok` or the failure's kind.
pub fn fetch(engine: &'static str, outcome: &'static str) {
    memo::counter(
        installed(),
        FETCHES,
        &[engine, outcome],
        || metrics::counter!(FETCHES, "engine" => engine, "outcome" => outcome),
        |c| c.increment(1),
    );
}

/// One cache lookup: `hit` or `miss`.
pub fn cache_lookup(result: &'static str) {
    memo::counter(
        installed(),
        CACHE_LOOKUPS,
        &[result],
        || metrics::counter!(CACHE_LOOKUPS, "result" => result),
        |c| c.increment(1),
    );
}

/// Tokens a model call used.
/// Sets the memory gauges just before `/metrics` renders them: plugin
/// versions alive, tokio tasks, the cache's in-memory bytes (when it has a
/// tier in memory) and heap trims done.
pub fn memory_gauges(plugin_versions: usize, cache_memory_bytes: Option<u64>, heap_trims: u64) {
    metrics::gauge!(PLUGIN_VERSIONS_LIVE).set(plugin_versions as f64);
    if let Some(tasks) = crate::lane::tasks_alive() {
        metrics::gauge!(TASKS_ALIVE).set(tasks as f64);
    }
    if let Some(bytes) = cache_memory_bytes {
        metrics::gauge!(CACHE_MEMORY_BYTES).set(bytes as f64);
    }
    metrics::counter!(HEAP_TRIMS).absolute(heap_trims);
}

pub fn model_tokens(prompt: u64, completion: u64) {
    metrics::counter!(MODEL_TOKENS, "direction" => "prompt").increment(prompt);
    metrics::counter!(MODEL_TOKENS, "direction" => "completion").increment(completion);
}
