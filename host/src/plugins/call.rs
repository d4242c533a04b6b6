//! Calling a plugin: one fresh instance per call, a memory cap and a deadline,
//! and every way a call can fail turned into a [`PluginCallError`] that names
//! the plugin. Every call takes the same path — [`PluginRuntime::begin`] (a
//! call slot, a store with the limits), the version-dispatched call from
//! [`super::bindings`], then [`Call::finish`] (classification, log, stats).

use super::bindings::dispatch::CallResult;
use super::bindings::{
    ConvertOptions, Document, FileInput, Page, PluginError, PluginInfo, Prepared, Rendered,
};
use super::engine::{PluginRuntime, SlotKind};
use super::loader;
use super::plugin::LoadedPlugin;
use super::sandbox::{CallPermit, CallState, Denied, Grants};
use super::ticker::InFlight;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wasmtime::{Store, Trap, UpdateDeadline};

/// How long a load-time `info` call may take.
const INFO_DEADLINE: Duration = Duration::from_secs(5);

/// A failed plugin call.
#[derive(Debug)]
pub struct PluginCallError {
    pub plugin: String,
    pub kind: PluginCallErrorKind,
}

#[derive(Debug)]
pub enum PluginCallErrorKind {
    /// The request's deadline passed during the call.
    RequestTimeout,
    /// The plugin's own declared time limit passed.
    PluginTimeout { limit_ms: u64 },
    /// The plugin tried to grow its memory past its cap.
    OutOfMemory { limit_mib: u64 },
    /// The plugin trapped (panic, abort, invalid operation).
    Trap(String),
    /// The plugin returned a typed error.
    Rejected(PluginError),
    /// The instance could not be created (e.g. too many calls at once).
    Instantiate(String),
}

impl fmt::Display for PluginCallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.plugin;
        match &self.kind {
            PluginCallErrorKind::RequestTimeout => {
                write!(f, "plugin '{p}' did not finish before the request timed out")
            }
            PluginCallErrorKind::PluginTimeout { limit_ms } => {
                write!(f, "plugin '{p}' exceeded its time limit of {limit_ms} ms")
            }
            PluginCallErrorKind::OutOfMemory { limit_mib } => {
                write!(f, "plugin '{p}' exceeded its memory limit of {limit_mib} MiB")
            }
            PluginCallErrorKind::Trap(m) => write!(f, "plugin '{p}' crashed: {m}"),
            PluginCallErrorKind::Rejected(PluginError::InvalidOptions(m)) => {
                write!(f, "plugin '{p}' rejected its options: {m}")
            }
            PluginCallErrorKind::Rejected(PluginError::UnsupportedInput(m)) => {
                write!(f, "plugin '{p}' cannot handle this input: {m}")
            }
            PluginCallErrorKind::Rejected(PluginError::Failed(m)) => {
                write!(f, "plugin '{p}' failed: {m}")
            }
            PluginCallErrorKind::Instantiate(m) => {
                write!(f, "plugin '{p}' could not be started: {m}")
            }
        }
    }
}

impl std::error::Error for PluginCallError {}

/// The limits of one call.
struct CallLimits {
    memory_cap: usize,
    deadline: Instant,
    deadline_is_request: bool,
    plugin_timeout_ms: u64,
}

impl CallLimits {
    fn for_plugin(runtime: &PluginRuntime, plugin: &LoadedPlugin, request_deadline: Instant) -> Self {
        let own = plugin
            .manifest
            .timeout_ms
            .map(|ms| Instant::now() + Duration::from_millis(ms as u64));
        let (deadline, deadline_is_request) = match own {
            Some(own) if own < request_deadline => (own, false),
            _ => (request_deadline, true),
        };
        CallLimits {
            memory_cap: runtime
                .limits()
                .memory_cap_bytes(plugin.manifest.memory_limit_mib),
            deadline,
            deadline_is_request,
            plugin_timeout_ms: plugin.manifest.timeout_ms.unwrap_or(0) as u64,
        }
    }

    /// What a call that ran out of time failed with: the request's timeout
    /// or the plugin's own time limit, whichever was the deadline.
    fn timeout_kind(&self) -> PluginCallErrorKind {
        if self.deadline_is_request {
            PluginCallErrorKind::RequestTimeout
        } else {
            PluginCallErrorKind::PluginTimeout {
                limit_ms: self.plugin_timeout_ms,
            }
        }
    }

    /// The error of a call whose deadline passed before it could run (no
    /// slot, or its code not mapped, in time), counted in the call metrics.
    fn timed_out_before_running(&self, plugin: &str) -> PluginCallError {
        let kind = self.timeout_kind();
        crate::telemetry::plugin_call(plugin, outcome_label(Some(&kind)), Duration::ZERO);
        PluginCallError {
            plugin: plugin.to_string(),
            kind,
        }
    }
}

/// One call in progress: its store (holding the run slot), its instance
/// slot and limits.
struct Call {
    plugin: String,
    store: Store<CallState>,
    _instance: tokio::sync::OwnedSemaphorePermit,
    /// Free instance slots needed for the finished store to wait for the
    /// response ([`crate::later`]) rather than be dropped at once.
    spare_instances: usize,
    /// Keeps the epoch advancing while the call runs.
    _ticking: InFlight,
    limits: CallLimits,
    started: Instant,
}

impl PluginRuntime {
    /// A capability for a call by `plugin`: the host's `service` when the
    /// plugin declared it and the operator allows it, else why not
    /// (`unavailable` when the server has no such service set up).
    fn grant<T>(
        plugin: &LoadedPlugin,
        capability: &str,
        service: &Option<Arc<T>>,
        unavailable: &str,
    ) -> Result<Arc<T>, Denied> {
        let name = &plugin.manifest.name;
        if !plugin.manifest.capabilities.iter().any(|c| c == capability) {
            return Err(
                format!("plugin '{name}' did not declare the '{capability}' capability in its info").into(),
            );
        }
        if !plugin.has_capability(capability) {
            return Err(format!(
                "the operator does not allow the '{capability}' capability (DISTILL_ALLOWED_CAPABILITIES)"
            )
            .into());
        }
        service.clone().ok_or_else(|| unavailable.into())
    }

    /// Every capability a call by `plugin` may use: worked out at its first
    /// call (the plugin's declaration, the operator's list and the services
    /// do not change while it is loaded), then copied (a few reference counts).
    fn grants(&self, plugin: &LoadedPlugin) -> Grants {
        plugin.grants.get_or_init(|| self.work_out_grants(plugin)).clone()
    }

    fn work_out_grants(&self, plugin: &LoadedPlugin) -> Grants {
        Grants {
            llm: Self::grant(
                plugin,
                "llm",
                &self.services().llm,
                "no language model is configured on this server (DISTILL_LLM_BASE_URL)",
            ),
            media: Self::grant(
                plugin,
                "media",
                &self.services().media,
                "media extraction is not set up on this server",
            ),
        }
    }

    /// Waits for an instance slot and a call slot of `kind`, then builds the
    /// call's store. The wait ends at the call's deadline: a call that gets
    /// no slot in time fails as a call that ran out of time would, instead
    /// of waiting for whichever calls hold the slots.
    async fn begin(
        &self,
        kind: SlotKind,
        plugin: &str,
        request_id: &str,
        limits: CallLimits,
        grants: Grants,
    ) -> Result<Call, PluginCallError> {
        let slots = async {
            let instance = self
                .instances()
                .clone()
                .acquire_owned()
                .await
                .expect("the instance semaphore is never closed");
            (instance, CallPermit::acquire(self.permits(kind).clone()).await)
        };
        let Ok((instance, permit)) = tokio::time::timeout_at(limits.deadline.into(), slots).await else {
            tracing::warn!(
                plugin,
                request_id,
                "no plugin slot became free before the call's deadline; the call did not run"
            );
            return Err(limits.timed_out_before_running(plugin));
        };
        let state = CallState::new(
            plugin,
            request_id,
            limits.memory_cap,
            limits.deadline,
            limits.deadline_is_request,
            grants,
            permit,
        );
        let ticking = self.call_in_flight();
        let mut store = Store::new(self.engine(), state);
        store.limiter(|s| &mut s.limiter);
        // Every epoch tick: trap once past the deadline, otherwise yield to the
        // async executor so a busy plugin never starves other requests.
        store.epoch_deadline_callback(|ctx| {
            if Instant::now() >= ctx.data().deadline {
                Ok(UpdateDeadline::Interrupt)
            } else {
                Ok(UpdateDeadline::Yield(1))
            }
        });
        store.set_epoch_deadline(1);
        Ok(Call {
            plugin: plugin.to_string(),
            store,
            _instance: instance,
            spare_instances: (super::engine::live_instances(self.limits()) / 2).max(1) as usize,
            _ticking: ticking,
            limits,
            started: Instant::now(),
        })
    }

    /// Renders `format` with a format plugin; returns the format's value as
    /// JSON text and its warnings.
    pub async fn render(
        &self,
        plugin: &LoadedPlugin,
        format: &str,
        page: &Page,
        options: &str,
        request_id: &str,
        request_deadline: Instant,
    ) -> Result<Rendered, PluginCallError> {
        self.render_with(plugin, format, page, options, request_id, request_deadline, None)
            .await
    }

    /// [`PluginRuntime::render`], with `llm_denied`: why this request may not
    /// use the language model (e.g. zero data retention); the plugin's `llm`
    /// calls then fail with that reason.
    #[allow(clippy::too_many_arguments)]
    pub async fn render_with(
        &self,
        plugin: &LoadedPlugin,
        format: &str,
        page: &Page,
        options: &str,
        request_id: &str,
        request_deadline: Instant,
        llm_denied: Option<&str>,
    ) -> Result<Rendered, PluginCallError> {
        let limits = CallLimits::for_plugin(self, plugin, request_deadline);
        let Prepared::Format(pre) = self.code_of(plugin, &limits, request_id).await? else {
            return Err(not_a(plugin, "format"));
        };
        let mut grants = self.grants(plugin);
        if let Some(why) = llm_denied {
            grants.llm = Err(why.into());
        }
        let mut call = self
            .begin(
                SlotKind::Format,
                &plugin.manifest.name,
                request_id,
                limits,
                grants,
            )
            .await?;
        call.store.data_mut().format = Some(format.to_string());
        let result = guard_deadline(&call.limits, pre.render(&mut call.store, format, page, options)).await;
        let notes = std::mem::take(&mut call.store.data_mut().llm_notes);
        let mut rendered = call.finish(Some(plugin), result)?;
        rendered
            .warnings
            .extend(notes.into_iter().map(|n| format!("{format}: {n}")));
        Ok(rendered)
    }

    /// Converts a document with a converter plugin.
    pub async fn convert(
        &self,
        plugin: &LoadedPlugin,
        file: &FileInput,
        options: ConvertOptions<'_>,
        request_id: &str,
        request_deadline: Instant,
    ) -> Result<Document, PluginCallError> {
        let limits = CallLimits::for_plugin(self, plugin, request_deadline);
        let Prepared::Converter(pre) = self.code_of(plugin, &limits, request_id).await? else {
            return Err(not_a(plugin, "converter"));
        };
        let mut call = self
            .begin(
                SlotKind::Converter,
                &plugin.manifest.name,
                request_id,
                limits,
                self.grants(plugin),
            )
            .await?;
        let result = guard_deadline(&call.limits, pre.convert(&mut call.store, file, options)).await;
        call.finish(Some(plugin), result)
    }

    /// `plugin`'s pre-instantiated component, mapped again if this is its
    /// first call. The wait ends at the call's deadline, as the wait for a
    /// slot does: the call then fails as one that ran out of time.
    async fn code_of<'p>(
        &self,
        plugin: &'p LoadedPlugin,
        limits: &CallLimits,
        request_id: &str,
    ) -> Result<&'p Prepared, PluginCallError> {
        let mapped = plugin
            .code
            .get(
                || loader::map_again(self, &plugin.path, &plugin.sha256),
                limits.deadline,
            )
            .await;
        let Ok(mapped) = mapped else {
            let name = &plugin.manifest.name;
            tracing::warn!(
                plugin = %name,
                request_id,
                "the plugin's code was not mapped before the call's deadline; the call did not run"
            );
            return Err(limits.timed_out_before_running(name));
        };
        mapped.map_err(|e| PluginCallError {
            plugin: plugin.manifest.name.clone(),
            kind: PluginCallErrorKind::Instantiate(format!("its code could not be mapped: {e:#}")),
        })
    }

    /// Calls `info` on a freshly prepared component (at load time).
    pub(crate) async fn call_info(&self, prepared: &Prepared, name: &str) -> Result<PluginInfo, String> {
        let limits = CallLimits {
            memory_cap: (self.limits().default_memory_mib as usize) << 20,
            deadline: Instant::now() + INFO_DEADLINE,
            deadline_is_request: false,
            plugin_timeout_ms: INFO_DEADLINE.as_millis() as u64,
        };
        let mut call = self
            .begin(
                SlotKind::Format,
                name,
                "load",
                limits,
                Grants::none_while_loading(),
            )
            .await
            .map_err(|e| e.to_string())?;
        let (store, limits) = (&mut call.store, &call.limits);
        let result = guard_deadline(limits, async { Ok(Ok(prepared.info(store).await?)) }).await;
        call.finish(None, result).map_err(|e| e.to_string())
    }
}

/// Backstop for the epoch deadline: if the call somehow outlives its deadline
/// (plus a grace period), the future is dropped, which abandons the instance.
async fn guard_deadline<T>(limits: &CallLimits, call: impl Future<Output = CallResult<T>>) -> CallResult<T> {
    let grace = limits.deadline + Duration::from_millis(250);
    match tokio::time::timeout_at(grace.into(), call).await {
        Ok(result) => result,
        Err(_) => Err(wasmtime::Error::new(Trap::Interrupt)),
    }
}

impl Call {
    /// Classifies the outcome, logs the plugin's output, records stats (for
    /// a loaded plugin) and releases the call slot (the store goes to
    /// [`crate::later`]).
    fn finish<T>(self, plugin: Option<&LoadedPlugin>, result: CallResult<T>) -> Result<T, PluginCallError> {
        let Call {
            plugin: plugin_name,
            mut store,
            _instance: instance,
            spare_instances,
            limits,
            started,
            ..
        } = self;
        let mut output = store.data().output.text();
        if store.data().private_logs && !output.is_empty() {
            output = super::log_privacy::withheld(&output);
        }
        if !output.is_empty() {
            let failed = !matches!(result, Ok(Ok(_)));
            if failed {
                tracing::warn!(plugin = %plugin_name, "plugin output: {output}");
            } else {
                tracing::debug!(plugin = %plugin_name, "plugin output: {output}");
            }
        }
        let kind = match result {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(rejected)) => Err(PluginCallErrorKind::Rejected(rejected)),
            Err(err) => Err(if store.data().limiter.hit {
                PluginCallErrorKind::OutOfMemory {
                    limit_mib: (limits.memory_cap >> 20) as u64,
                }
            } else if matches!(err.downcast_ref::<Trap>(), Some(Trap::Interrupt)) {
                limits.timeout_kind()
            } else if err.downcast_ref::<Trap>().is_some() {
                // The response gets one line; the log gets the wasm backtrace.
                tracing::warn!(plugin = %plugin_name, "plugin trapped: {err:?}");
                PluginCallErrorKind::Trap(describe_trap(&err))
            } else {
                PluginCallErrorKind::Instantiate(format!("{err:#}"))
            }),
        };
        if let Some(plugin) = plugin {
            let took = started.elapsed();
            plugin.stats.record(took, kind.is_err());
            crate::telemetry::plugin_call(&plugin_name, outcome_label(kind.as_ref().err()), took);
        }
        // The run slot is free now. The store, and its instance slot with it,
        // is dropped once the response is written (its reset and unmapping
        // are not the response's wait), but only while half the instance
        // slots are free: waiting stores never keep a later call (of this
        // request, say) from a slot.
        store.data_mut().permit.release();
        if instance.semaphore().available_permits() >= spare_instances {
            crate::later::drop_later((store, instance));
        } else {
            drop((store, instance));
        }
        kind.map_err(|kind| PluginCallError {
            plugin: plugin_name,
            kind,
        })
    }
}

/// The `outcome` label of a finished call: `ok`, or what it failed with.
fn outcome_label(failed: Option<&PluginCallErrorKind>) -> &'static str {
    match failed {
        None => "ok",
        Some(PluginCallErrorKind::RequestTimeout) => "request_timeout",
        Some(PluginCallErrorKind::PluginTimeout { .. }) => "plugin_timeout",
        Some(PluginCallErrorKind::OutOfMemory { .. }) => "out_of_memory",
        Some(PluginCallErrorKind::Trap(_)) => "trap",
        Some(PluginCallErrorKind::Rejected(_)) => "rejected",
        Some(PluginCallErrorKind::Instantiate(_)) => "instantiate",
    }
}

/// A one-line description of a trap, without the wasm backtrace.
fn describe_trap(err: &wasmtime::Error) -> String {
    match err.downcast_ref::<Trap>() {
        Some(Trap::UnreachableCodeReached) => {
            "wasm trap: unreachable code reached (a panic or abort inside the plugin)".to_string()
        }
        Some(trap) => format!("wasm trap: {trap}"),
        None => err.to_string(),
    }
}

fn not_a(plugin: &LoadedPlugin, what: &str) -> PluginCallError {
    PluginCallError {
        plugin: plugin.manifest.name.clone(),
        kind: PluginCallErrorKind::Instantiate(format!("plugin is not a {what} plugin")),
    }
}
