//! The plugin runtime: loads WebAssembly components from the plugins directory,
//! keeps them compiled and pre-instantiated, and calls them sandboxed — a fresh
//! instance per call, under a memory cap and a deadline.
//!
//! - [`bindings`]: host-side bindings generated from `wit/`.
//! - [`engine`]: the shared wasmtime engine (pooling allocator, epoch ticker, code cache).
//! - [`sandbox`]: per-call store state: WASI context, limits, deadline.
//! - [`host_api`]: functions plugins import (logging).
//! - [`manifest`]: what a plugin declares about itself.
//! - [`loader`]: compiling a component file into a [`LoadedPlugin`].
//! - [`registry`]: the set of loaded plugins, looked up by format or extension.
//! - [`call`]: invoking a plugin and turning failures into [`PluginCallError`]s.

pub mod bindings;
pub mod call;
pub mod engine;
pub mod host_api;
pub mod loader;
pub mod manifest;
pub mod registry;
pub mod sandbox;

pub use call::{PluginCallError, PluginCallErrorKind};
pub use engine::{PluginRuntime, RuntimeLimits};
pub use loader::{LoadedPlugin, PluginKind};
pub use manifest::Manifest;
pub use registry::Registry;
