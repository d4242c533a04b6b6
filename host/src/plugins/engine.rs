//! The shared wasmtime engine and the [`PluginRuntime`] handle the server uses:
//! one engine for all components (pooling allocator, epoch interruption,
//! precompiled code mapped from disk: [`super::code_cache`]; code is compiled
//! on throwaway engines of the same settings), one linker for every ABI version, the
//! current plugin [`Registry`], and the semaphores bounding running calls
//! (run slots) and live instances.

use super::bindings::dispatch::add_to_linker;
use super::code_cache::CodeCache;
use super::limits::RuntimeLimits;
use super::registry::Registry;
use super::sandbox::CallState;
use super::ticker::{InFlight, Ticker};
use crate::llm::LlmClient;
use crate::media_capability::MediaService;
use arc_swap::ArcSwap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use wasmtime::component::Linker;
use wasmtime::{Config, Enabled, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

/// Bytes of each pooled table slot kept resident between instances.
const TABLE_KEEP_RESIDENT: usize = 1 << 20;

/// How often the epoch advances; deadlines are checked at this granularity.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// How long the epoch keeps advancing after the last plugin call ends
/// ([`Ticker`]): under steady load it never sleeps; idle, it sleeps.
const EPOCH_LINGER: Duration = Duration::from_secs(1);

/// What the host offers plugins beyond the sandbox.
#[derive(Clone, Default)]
pub struct HostServices {
    /// Capabilities the operator allows (a plugin must also ask for them).
    pub allowed_capabilities: Vec<String>,
    /// The client behind the `llm` capability, when an LLM is configured.
    pub llm: Option<Arc<LlmClient>>,
    /// The service behind the `media` capability.
    pub media: Option<Arc<MediaService>>,
}

/// A cheap, clonable handle to the plugin runtime.
#[derive(Clone)]
pub struct PluginRuntime {
    inner: Arc<Inner>,
}

struct Inner {
    engine: Engine,
    /// Advances the engine's epoch while calls are in flight.
    ticker: Ticker,
    /// Where compiled plugin code is kept; `None`: compiled in memory at each load.
    code_cache: Option<CodeCache>,
    linker: Linker<CallState>,
    limits: RuntimeLimits,
    services: HostServices,
    registry: ArcSwap<Registry>,
    /// Run slots of format calls, and of converter calls: a batch of slow
    /// conversions never holds up the formats of a scrape.
    permits: Arc<Semaphore>,
    converter_permits: Arc<Semaphore>,
    /// Live instances (a call waiting on the host keeps its instance but not
    /// its run slot), bounded below the pool's size so instantiation never
    /// fails for lack of a slot.
    instances: Arc<Semaphore>,
    plugins_dir: PathBuf,
    reload_lock: tokio::sync::Mutex<()>,
}

impl PluginRuntime {
    /// Builds the engine and linkers. `cache_dir` holds the compiled plugin
    /// code ([`CodeCache`]) so a restart skips compilation. No plugin is loaded yet: call
    /// [`PluginRuntime::load_all`].
    pub fn new(plugins_dir: &Path, cache_dir: Option<&Path>, limits: RuntimeLimits) -> anyhow::Result<Self> {
        Self::with_services(plugins_dir, cache_dir, limits, HostServices::default())
    }

    /// Like [`PluginRuntime::new`], with host services (capabilities) for plugins.
    pub fn with_services(
        plugins_dir: &Path,
        cache_dir: Option<&Path>,
        limits: RuntimeLimits,
        services: HostServices,
    ) -> anyhow::Result<Self> {
        let engine = build_engine(&limits)?;
        let code_cache = cache_dir.map(|dir| CodeCache::open(dir, &engine)).transpose()?;
        let ticker = start_epoch_ticker(&engine);
        // One linker serves every world of every ABI version.
        let mut linker = Linker::new(&engine);
        add_to_linker(&mut linker)?;
        Ok(PluginRuntime {
            inner: Arc::new(Inner {
                engine,
                ticker,
                code_cache,
                linker,
                services,
                permits: Arc::new(Semaphore::new(limits.max_concurrent_calls.max(1))),
                converter_permits: Arc::new(Semaphore::new(limits.max_concurrent_calls.max(1))),
                instances: Arc::new(Semaphore::new(live_instances(&limits) as usize)),
                limits,
                registry: ArcSwap::from_pointee(Registry::default()),
                plugins_dir: plugins_dir.to_path_buf(),
                reload_lock: tokio::sync::Mutex::new(()),
            }),
        })
    }

    pub fn engine(&self) -> &Engine {
        &self.inner.engine
    }
    /// Marks a plugin call in flight: the epoch advances (deadlines and
    /// yields are checked) until the guard is dropped.
    pub(crate) fn call_in_flight(&self) -> InFlight {
        self.inner.ticker.enter()
    }
    pub(crate) fn code_cache(&self) -> Option<&CodeCache> {
        self.inner.code_cache.as_ref()
    }
    /// A fresh engine for compiling one batch of plugin code, whose output
    /// [`PluginRuntime::engine`] loads (see [`build_compiling_engine`]).
    pub(crate) fn compiling_engine(&self) -> anyhow::Result<Engine> {
        build_compiling_engine(&self.inner.limits)
    }
    pub(crate) fn linker(&self) -> &Linker<CallState> {
        &self.inner.linker
    }
    pub fn services(&self) -> &HostServices {
        &self.inner.services
    }
    pub fn limits(&self) -> &RuntimeLimits {
        &self.inner.limits
    }
    /// The run slots of calls of `kind`.
    pub(crate) fn permits(&self, kind: SlotKind) -> &Arc<Semaphore> {
        match kind {
            SlotKind::Format => &self.inner.permits,
            SlotKind::Converter => &self.inner.converter_permits,
        }
    }
    pub(crate) fn instances(&self) -> &Arc<Semaphore> {
        &self.inner.instances
    }
    pub fn plugins_dir(&self) -> &Path {
        &self.inner.plugins_dir
    }

    /// The plugins serving right now. Requests take one snapshot and keep it,
    /// so a later reload never changes a request in flight.
    pub fn registry(&self) -> Arc<Registry> {
        self.inner.registry.load_full()
    }

    /// Loads every `*.wasm` in the plugins directory and swaps the new set in.
    /// Plugins that fail to load are logged and skipped.
    pub async fn load_all(&self) -> Arc<Registry> {
        self.reload().await;
        self.registry()
    }

    pub(crate) fn swap_registry(&self, registry: Arc<Registry>) {
        self.inner.registry.store(registry);
    }

    pub(crate) fn reload_lock(&self) -> &tokio::sync::Mutex<()> {
        &self.inner.reload_lock
    }
}

/// The settings every engine of this runtime shares: the code a compiling
/// engine produces is only usable by an engine whose settings hash the same
/// (`Engine::precompile_compatibility_hash`).
fn engine_config(limits: &RuntimeLimits) -> Config {
    let mut config = Config::new();
    config.epoch_interruption(true);
    config.memory_reservation(limits.memory_reservation_mib.max(limits.max_memory_mib) << 20);
    if std::env::var_os("DISTILL_WASM_PERFMAP").is_some_and(|v| v == "1") {
        // For `perf record`: names the compiled plugin functions in /tmp/perf-PID.map.
        config.profiler(wasmtime::ProfilingStrategy::PerfMap);
    }
    config
}

/// The serving engine: [`engine_config`] with the pooling allocator.
fn build_engine(limits: &RuntimeLimits) -> anyhow::Result<Engine> {
    let mut config = engine_config(limits);
    // Every live call's instance, plus slack for load-time `info` calls; a
    // Rust component holds three core instances, one memory and a few tables.
    let instances = live_instances(limits) + 8;
    let max_memory = (limits.max_memory_mib as usize) << 20;
    let mut pool = PoolingAllocationConfig::new();
    pool.total_component_instances(instances)
        .total_core_instances(instances * 4)
        .total_memories(instances * 2)
        .total_tables(instances * 4)
        .total_stacks(instances)
        .max_memory_size(max_memory)
        // Keep the first pages of a reused slot mapped: a fresh instance then
        // skips most page faults (make bench measured ~15% per call). With
        // PAGEMAP_SCAN (Linux 6.7+) only the pages the instance wrote are
        // zeroed, not the whole kept range.
        .linear_memory_keep_resident(limits.keep_resident_kib << 10)
        .table_keep_resident(TABLE_KEEP_RESIDENT)
        .max_unused_warm_slots(limits.warm_slots)
        .pagemap_scan(Enabled::Auto);
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    tracing::debug!(
        pagemap_scan = PoolingAllocationConfig::is_pagemap_scan_available(),
        "plugin memory pool"
    );
    Ok(Engine::new(&config)?)
}

/// An engine that only compiles: [`engine_config`] without the pool (it
/// never instantiates, so it reserves no address space). Cranelift keeps its
/// compilation contexts, buffers grown to the largest function it compiled,
/// for its engine's life: compiled on the serving engine, the shipped
/// plugins left ~110 MiB of them resident after a first start (a warm start
/// sits at ~45 MiB). Dropped after the compile, they go with it.
fn build_compiling_engine(limits: &RuntimeLimits) -> anyhow::Result<Engine> {
    Ok(Engine::new(&engine_config(limits))?)
}

/// Which run slots a call takes ([`RuntimeLimits::max_concurrent_calls`] of each).
#[derive(Clone, Copy, Debug)]
pub(crate) enum SlotKind {
    /// Format calls (and load-time `info` calls).
    Format,
    /// Converter calls.
    Converter,
}

/// Instances alive at once: each running call's (of both kinds), and as many
/// again of calls waiting on a host capability (which hold an instance but no
/// run slot).
pub(crate) fn live_instances(limits: &RuntimeLimits) -> u32 {
    (limits.max_concurrent_calls.max(1) as u32) * 4
}

/// Advances the engine's epoch every [`EPOCH_TICK`] on a dedicated thread
/// while calls are in flight, so deadlines fire even when every async worker
/// is busy; idle, the thread sleeps.
fn start_epoch_ticker(engine: &Engine) -> Ticker {
    let weak = engine.weak();
    Ticker::start("distill-epoch", EPOCH_TICK, EPOCH_LINGER, move || {
        weak.upgrade().map(|engine| engine.increment_epoch()).is_some()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{DefaultHasher, Hash, Hasher};

    fn key(engine: &Engine) -> u64 {
        let mut hasher = DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut hasher);
        hasher.finish()
    }

    #[test]
    fn the_compiling_engine_makes_code_the_serving_engine_loads() {
        let limits = RuntimeLimits::default();
        let serving = build_engine(&limits).unwrap();
        let compiling = build_compiling_engine(&limits).unwrap();
        assert_eq!(key(&serving), key(&compiling));
        // Different settings would not match: the hash is not a constant.
        let other = RuntimeLimits {
            memory_reservation_mib: 64,
            max_memory_mib: 64,
            ..RuntimeLimits::default()
        };
        assert_ne!(key(&serving), key(&build_compiling_engine(&other).unwrap()));
    }
}
