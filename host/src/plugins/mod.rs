//! The plugin runtime: loads WebAssembly components from the plugins directory,
//! keeps them compiled and pre-instantiated, and calls them sandboxed — a fresh
//! instance per call, under a memory cap and a deadline.
//!
//! - [`bindings`]: host-side bindings generated from `wit/`, one module per ABI version,
//!   and the only code that dispatches on the version.
//! - [`limits`]: the operator's memory and concurrency limits.
//! - [`plugin`]: a loaded plugin (manifest, grants, pre-instantiated component).
//! - [`engine`]: the shared wasmtime engine (pooling allocator, epoch ticker, code cache).
//! - [`ticker`]: the thread advancing the epoch while calls are in flight.
//! - [`sandbox`]: per-call store state: WASI context, limits, deadline.
//! - [`output`]: a plugin's stdout/stderr, captured for the log.
//! - [`host_api`]: functions plugins import (logging).
//! - [`manifest`]: what a plugin declares about itself.
//! - [`page_parts`]: which parts of `page` a format plugin reads.
//! - [`loader`]: compiling a component file into a [`LoadedPlugin`].
//! - [`resident`]: a plugin's code, let go of after loading, mapped at its first call.
//! - [`registry`]: the set of loaded plugins, looked up by format or extension.
//! - [`reload`]: (re)scanning the plugins directory and swapping the registry.
//! - [`watcher`]: hot swap — reload when the directory changes.
//! - [`stats`]: per-plugin call counts and latency percentiles.
//! - [`call`]: invoking a plugin and turning failures into [`PluginCallError`]s.

pub mod bindings;
pub mod call;
pub mod code_cache;
pub mod engine;
pub mod host_api;
pub mod limits;
pub mod loader;
pub mod log_privacy;
pub mod manifest;
pub mod output;
pub mod page_parts;
pub mod plugin;
pub mod registry;
pub mod reload;
mod resident;
pub mod sandbox;
pub mod stats;
mod ticker;
pub mod watcher;

pub use bindings::PluginKind;
pub use call::{PluginCallError, PluginCallErrorKind};
pub use engine::{HostServices, PluginRuntime};
pub use limits::RuntimeLimits;
pub use manifest::Manifest;
pub use plugin::LoadedPlugin;
pub use registry::Registry;
pub use reload::{ReloadFailure, ReloadReport};
