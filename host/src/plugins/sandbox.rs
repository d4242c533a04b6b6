//! Per-call store state: a locked-down WASI context (no files, network,
//! environment; frozen clocks; stdout/stderr captured for the log), the
//! memory limiter and the call's deadline.

use super::output::CapturedOutput;
use crate::llm::LlmClient;
use crate::media_capability::MediaService;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use wasmtime::ResourceLimiter;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtx, WasiCtxView, WasiView};

/// Everything a store holds for one plugin call.
pub struct CallState {
    pub plugin: String,
    pub request_id: String,
    pub limiter: MemoryLimiter,
    /// When the call must stop (the earlier of the request's and the plugin's deadline).
    pub deadline: Instant,
    /// True when `deadline` is the request's own deadline (a timeout of the whole
    /// request) rather than the plugin's declared limit.
    pub deadline_is_request: bool,
    /// The `llm` capability: the client when granted, else why not.
    pub llm: Result<Arc<LlmClient>, Denied>,
    /// The format being rendered (for the per-format model and usage totals).
    pub format: Option<String>,
    /// What the host's `llm` calls want the user told (added to the
    /// format's warnings).
    pub llm_notes: Vec<String>,
    /// The `media` capability: the service when granted, else why not.
    pub media: Result<Arc<MediaService>, Denied>,
    /// What the plugin wrote to stdout/stderr (capped), for the log.
    pub output: CapturedOutput,
    /// The request runs under zero data retention: the plugin's log lines
    /// and output are not logged ([`super::log_privacy`]).
    pub private_logs: bool,
    /// The call slot this call holds (given back while it waits on the host).
    pub permit: CallPermit,
    wasi: WasiCtx,
    table: ResourceTable,
}

impl CallState {
    pub fn new(
        plugin: &str,
        request_id: &str,
        memory_cap: usize,
        deadline: Instant,
        deadline_is_request: bool,
        grants: Grants,
        permit: CallPermit,
    ) -> Self {
        let output = CapturedOutput::default();
        let wasi = WasiCtx::builder()
            .stdout(output.clone())
            .stderr(output.clone())
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            .wall_clock(FrozenClock)
            .monotonic_clock(FrozenClock)
            .build();
        CallState {
            plugin: plugin.to_string(),
            request_id: request_id.to_string(),
            limiter: MemoryLimiter::new(memory_cap),
            deadline,
            deadline_is_request,
            llm: grants.llm,
            media: grants.media,
            format: None,
            llm_notes: Vec::new(),
            output,
            private_logs: super::log_privacy::is_private(),
            permit,
            wasi,
            table: ResourceTable::new(),
        }
    }
}

/// Why a capability is not granted: shared text, as a plugin's grants are
/// worked out once and copied into each of its calls.
pub type Denied = Arc<str>;

/// The host capabilities of one call: each the service when granted, else why not.
#[derive(Clone)]
pub struct Grants {
    pub llm: Result<Arc<LlmClient>, Denied>,
    pub media: Result<Arc<MediaService>, Denied>,
}

impl Grants {
    /// `info` at load time runs without capabilities.
    pub fn none_while_loading() -> Self {
        let why: Denied = Arc::from("capabilities are not available while loading");
        Grants {
            llm: Err(why.clone()),
            media: Err(why),
        }
    }
}

impl WasiView for CallState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// One of the runtime's plugin-call slots, held by a call while it runs
/// WebAssembly and given back while it waits on a slow host call (`llm`), so
/// calls waiting on a model never starve the other plugins.
pub struct CallPermit {
    slots: Arc<Semaphore>,
    held: Option<OwnedSemaphorePermit>,
}

impl CallPermit {
    /// Waits for a free slot.
    pub async fn acquire(slots: Arc<Semaphore>) -> CallPermit {
        let waiting = crate::telemetry::plugin_waiting();
        let held = slots
            .clone()
            .acquire_owned()
            .await
            .expect("the call semaphore is never closed");
        drop(waiting);
        CallPermit {
            slots,
            held: Some(held),
        }
    }

    /// Gives the slot back for the duration of `wait`, then takes one again.
    pub async fn released_while<T>(&mut self, wait: impl Future<Output = T>) -> T {
        self.held = None;
        let out = wait.await;
        self.held = Some(
            self.slots
                .clone()
                .acquire_owned()
                .await
                .expect("the call semaphore is never closed"),
        );
        out
    }

    /// Gives the slot back for good (the call is over; its store may live on
    /// a little longer, [`crate::later`]).
    pub fn release(&mut self) {
        self.held = None;
    }

    /// Whether the slot is held right now.
    pub fn is_held(&self) -> bool {
        self.held.is_some()
    }
}

/// Plugins see no real time: the wall clock stands at the Unix epoch and the
/// monotonic clock at zero. Time is a capability the host may grant later.
struct FrozenClock;

impl HostWallClock for FrozenClock {
    fn resolution(&self) -> Duration {
        Duration::from_secs(1)
    }
    fn now(&self) -> Duration {
        Duration::ZERO
    }
}

impl HostMonotonicClock for FrozenClock {
    fn resolution(&self) -> u64 {
        1_000_000_000
    }
    fn now(&self) -> u64 {
        0
    }
}

/// Caps linear memory per call and remembers whether the cap was hit, so a
/// failed allocation can be reported as "memory limit exceeded" rather than as
/// an anonymous trap.
pub struct MemoryLimiter {
    pub cap_bytes: usize,
    pub hit: bool,
}

impl MemoryLimiter {
    fn new(cap_bytes: usize) -> Self {
        MemoryLimiter {
            cap_bytes,
            hit: false,
        }
    }
}

/// Tables (function references) a plugin may grow to; generous for real code.
const MAX_TABLE_ELEMENTS: usize = 1 << 20;

impl ResourceLimiter for MemoryLimiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.cap_bytes {
            self.hit = true;
            return Ok(false);
        }
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= MAX_TABLE_ELEMENTS)
    }
}
