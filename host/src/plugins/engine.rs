//! The shared wasmtime engine and the [`PluginRuntime`] handle the server uses:
//! one engine for all components (pooling allocator, epoch interruption,
//! wasmtime's on-disk code cache), two linkers (one per world), the current
//! plugin [`Registry`], and a semaphore bounding concurrent plugin calls.

use super::bindings::{v0_1, v0_2};
use super::registry::Registry;
use super::sandbox::CallState;
use crate::llm::LlmClient;
use anyhow::Context;
use arc_swap::ArcSwap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use wasmtime::component::{HasSelf, Linker};
use wasmtime::{Cache, CacheConfig, Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

/// Bytes of each pooled memory/table slot kept resident between instances.
const KEEP_RESIDENT: usize = 8 << 20;

/// How often the epoch advances; deadlines are checked at this granularity.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Operator-set limits for plugin calls.
#[derive(Clone, Debug)]
pub struct RuntimeLimits {
    /// Memory cap per call when a plugin declares none, in MiB.
    pub default_memory_mib: u64,
    /// Highest memory cap any plugin may get, in MiB.
    pub max_memory_mib: u64,
    /// Plugin calls running at once; more wait their turn.
    pub max_concurrent_calls: usize,
}

impl Default for RuntimeLimits {
    fn default() -> Self {
        RuntimeLimits {
            default_memory_mib: 256,
            max_memory_mib: 1024,
            max_concurrent_calls: 32,
        }
    }
}

/// What the host offers plugins beyond the sandbox.
#[derive(Clone, Default)]
pub struct HostServices {
    /// Capabilities the operator allows (a plugin must also ask for them).
    pub allowed_capabilities: Vec<String>,
    /// The client behind the `llm` capability, when an LLM is configured.
    pub llm: Option<Arc<LlmClient>>,
}

/// A cheap, clonable handle to the plugin runtime.
#[derive(Clone)]
pub struct PluginRuntime {
    inner: Arc<Inner>,
}

struct Inner {
    engine: Engine,
    linker: Linker<CallState>,
    limits: RuntimeLimits,
    services: HostServices,
    registry: ArcSwap<Registry>,
    permits: Semaphore,
    plugins_dir: PathBuf,
    reload_lock: tokio::sync::Mutex<()>,
}

impl PluginRuntime {
    /// Builds the engine and linkers. `cache_dir` holds wasmtime's compiled-code
    /// cache so a restart skips compilation. No plugin is loaded yet: call
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
        let engine = build_engine(cache_dir, &limits)?;
        start_epoch_ticker(&engine);
        // One linker serves every world of every ABI version: WASI plus each
        // version's host interfaces (the worlds of a version share interfaces,
        // hence shadowing).
        let mut linker = Linker::new(&engine);
        linker.allow_shadowing(true);
        wasmtime_wasi::p2::add_to_linker_async(&mut linker)?;
        v0_1::format::Format::add_to_linker::<CallState, HasSelf<CallState>>(&mut linker, |s| s)?;
        v0_1::converter::Converter::add_to_linker::<CallState, HasSelf<CallState>>(&mut linker, |s| s)?;
        v0_2::format::Format::add_to_linker::<CallState, HasSelf<CallState>>(&mut linker, |s| s)?;
        v0_2::converter::Converter::add_to_linker::<CallState, HasSelf<CallState>>(&mut linker, |s| s)?;
        Ok(PluginRuntime {
            inner: Arc::new(Inner {
                engine,
                linker,
                services,
                permits: Semaphore::new(limits.max_concurrent_calls.max(1)),
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
    pub(crate) fn linker(&self) -> &Linker<CallState> {
        &self.inner.linker
    }
    pub fn services(&self) -> &HostServices {
        &self.inner.services
    }
    pub fn limits(&self) -> &RuntimeLimits {
        &self.inner.limits
    }
    pub(crate) fn permits(&self) -> &Semaphore {
        &self.inner.permits
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

fn build_engine(cache_dir: Option<&Path>, limits: &RuntimeLimits) -> anyhow::Result<Engine> {
    let mut config = Config::new();
    config.epoch_interruption(true);
    let calls = limits.max_concurrent_calls.max(1) as u32;
    // One component instance per call (plus slack for load-time `info` calls);
    // a Rust component holds three core instances, one memory and a few tables.
    let instances = calls + 8;
    let mut pool = PoolingAllocationConfig::new();
    pool.total_component_instances(instances)
        .total_core_instances(instances * 4)
        .total_memories(instances * 2)
        .total_tables(instances * 4)
        .total_stacks(instances)
        .max_memory_size((limits.max_memory_mib as usize) << 20)
        // Keep the first pages of a reused slot mapped: a fresh instance then
        // skips most page faults (make bench measured ~15% per call).
        .linear_memory_keep_resident(KEEP_RESIDENT)
        .table_keep_resident(KEEP_RESIDENT);
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    if let Some(dir) = cache_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating code cache directory {}", dir.display()))?;
        let mut cache_config = CacheConfig::new();
        cache_config.with_directory(dir);
        config.cache(Some(Cache::new(cache_config)?));
    }
    Ok(Engine::new(&config)?)
}

/// Advances the engine's epoch every [`EPOCH_TICK`] on a dedicated thread, so
/// deadlines fire even when every async worker is busy.
fn start_epoch_ticker(engine: &Engine) {
    let weak = engine.weak();
    std::thread::Builder::new()
        .name("distill-epoch".into())
        .spawn(move || {
            while let Some(engine) = weak.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        })
        .expect("spawning the epoch ticker thread");
}
