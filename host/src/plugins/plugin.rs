//! A loaded plugin: its manifest, where it came from, what it was granted,
//! its pre-instantiated component and its call statistics.

use super::bindings::PluginKind;
use super::manifest::Manifest;
use super::resident::PluginCode;
use super::sandbox::Grants;
use super::stats::CallStats;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::SystemTime;

/// Plugin versions alive in this process: loaded and not yet dropped.
static LIVE_VERSIONS: AtomicUsize = AtomicUsize::new(0);

/// Plugin versions alive in this process (serving, or replaced but still held
/// by a request in flight). After a hot swap, once those requests end, this
/// falls back to the number serving: a version kept alive past that is a leak
/// (its compiled code and pool slots stay in memory).
pub fn live_versions() -> usize {
    LIVE_VERSIONS.load(Ordering::Relaxed)
}

/// Counts one live plugin version while it exists.
pub(crate) struct LiveVersion(());

impl LiveVersion {
    pub(crate) fn new() -> LiveVersion {
        LIVE_VERSIONS.fetch_add(1, Ordering::Relaxed);
        LiveVersion(())
    }
}

impl Drop for LiveVersion {
    fn drop(&mut self) {
        LIVE_VERSIONS.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A plugin ready to serve: its manifest and its (pre-instantiated) code.
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
    /// Its pre-instantiated component, mapped at its first call.
    pub(crate) code: PluginCode,
    /// Calls, errors and latency of this version.
    pub stats: CallStats,
    /// The capabilities its calls get, worked out at its first call.
    pub(crate) grants: OnceLock<Grants>,
    pub(crate) _live: LiveVersion,
}

impl LoadedPlugin {
    /// Whether the plugin declared and was granted capability `name`.
    pub fn has_capability(&self, name: &str) -> bool {
        self.granted.iter().any(|c| c == name)
    }
}
