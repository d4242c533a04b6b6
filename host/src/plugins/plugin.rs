//! A loaded plugin: its manifest, where it came from, what it was granted,
//! its pre-instantiated component and its call statistics.

use super::bindings::{PluginKind, Prepared};
use super::manifest::Manifest;
use super::stats::CallStats;
use std::path::PathBuf;
use std::time::SystemTime;

/// A plugin ready to serve: its manifest and its pre-instantiated component.
pub struct LoadedPlugin {
    pub manifest: Manifest,
    pub kind: PluginKind,
    pub path: PathBuf,
    pub sha256: String,
    /// The plugin ABI version it was built against, e.g. "0.3.0".
    pub abi_version: &'static str,
    /// Capabilities granted: declared by the plugin and allowed by the operator.
    pub granted: Vec<String>,
    pub loaded_at: SystemTime,
    pub(crate) prepared: Prepared,
    /// Calls, errors and latency of this version.
    pub stats: CallStats,
}

impl LoadedPlugin {
    /// Whether the plugin declared and was granted capability `name`.
    pub fn has_capability(&self, name: &str) -> bool {
        self.granted.iter().any(|c| c == name)
    }
}
