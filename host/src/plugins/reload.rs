//! Loading and reloading the plugins directory. A reload rescans the directory,
//! reuses plugins whose file is unchanged (same SHA-256), compiles new and
//! changed files off the request path, and swaps the new registry in at once.
//! Requests in flight keep the registry they started with. A file that fails to
//! load leaves its previous version serving; a removed file stops serving.

use super::engine::PluginRuntime;
use super::loader;
use super::plugin::LoadedPlugin;
use super::registry::Registry;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a reload did, file by file.
#[derive(Debug, Default, Clone, Serialize)]
pub struct ReloadReport {
    /// Plugins loaded from files that were not loaded before.
    pub loaded: Vec<String>,
    /// Plugins whose file changed and whose new version now serves.
    pub replaced: Vec<String>,
    /// Plugins whose file is unchanged.
    pub unchanged: Vec<String>,
    /// Plugins whose file disappeared; they no longer serve.
    pub removed: Vec<String>,
    /// Files that could not be loaded.
    pub failed: Vec<ReloadFailure>,
}

/// A file that failed to load.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReloadFailure {
    pub file: String,
    pub error: String,
    /// True when an earlier version from the same file keeps serving.
    pub kept_previous: bool,
}

/// One `*.wasm` file and what to do with it.
struct Candidate {
    path: PathBuf,
    fresh: Option<Arc<LoadedPlugin>>,
    previous: Option<Arc<LoadedPlugin>>,
}

impl PluginRuntime {
    /// Rescans the plugins directory and swaps in the result. Reloads are
    /// serialised; each one returns what it did.
    pub async fn reload(&self) -> ReloadReport {
        let _one_at_a_time = self.reload_lock().lock().await;
        let current = self.registry();
        let mut report = ReloadReport::default();
        let files = wasm_files(self.plugins_dir());
        let mut candidates = Vec::with_capacity(files.len());
        for path in files {
            let previous = current.by_path(&path).cloned();
            let bytes = match std::fs::read(&path) {
                Ok(b) => b,
                Err(e) => {
                    fail(
                        &mut report,
                        &path,
                        format!("cannot read file: {e}"),
                        previous.is_some(),
                    );
                    candidates.push(Candidate {
                        path,
                        fresh: None,
                        previous,
                    });
                    continue;
                }
            };
            if previous
                .as_ref()
                .is_some_and(|p| p.sha256 == loader::digest(&bytes))
            {
                candidates.push(Candidate {
                    path,
                    fresh: None,
                    previous,
                });
                continue;
            }
            match loader::load(self, &path, bytes).await {
                Ok(plugin) => candidates.push(Candidate {
                    path,
                    fresh: Some(Arc::new(plugin)),
                    previous,
                }),
                Err(e) => {
                    fail(&mut report, &path, format!("{e:#}"), previous.is_some());
                    candidates.push(Candidate {
                        path,
                        fresh: None,
                        previous,
                    });
                }
            }
        }
        let mut registry = Registry::default();
        for c in candidates {
            match (c.fresh, c.previous) {
                (Some(fresh), previous) => {
                    let name = fresh.manifest.name.clone();
                    match registry.insert(fresh) {
                        Ok(()) if previous.is_some() => report.replaced.push(name),
                        Ok(()) => report.loaded.push(name),
                        Err(conflict) => {
                            let kept = previous.is_some_and(|p| registry.insert(p).is_ok());
                            fail(&mut report, &c.path, conflict, kept);
                        }
                    }
                }
                (None, Some(previous)) => {
                    let name = previous.manifest.name.clone();
                    if registry.insert(previous).is_ok()
                        && !report.failed.iter().any(|f| Path::new(&f.file) == c.path)
                    {
                        report.unchanged.push(name);
                    }
                }
                (None, None) => {}
            }
        }
        for old in current.plugins() {
            if registry.by_path(&old.path).is_none()
                && !report.failed.iter().any(|f| Path::new(&f.file) == old.path)
            {
                report.removed.push(old.manifest.name.clone());
                tracing::info!(plugin = %old.manifest.name, path = %old.path.display(), "plugin removed");
            }
        }
        for name in &report.replaced {
            tracing::info!(plugin = %name, "plugin replaced by its new version");
        }
        if registry.plugins().is_empty() {
            tracing::warn!(dir = %self.plugins_dir().display(), "no plugins loaded: formats such as markdown are unavailable");
        }
        if let Some(cache) = self.code_cache() {
            let in_use: Vec<&str> = registry.plugins().iter().map(|p| p.sha256.as_str()).collect();
            cache.prune(&in_use);
        }
        self.swap_registry(Arc::new(registry));
        report
    }
}

fn fail(report: &mut ReloadReport, path: &Path, error: String, kept_previous: bool) {
    tracing::error!(
        path = %path.display(),
        kept_previous,
        "plugin not loaded: {error}{}",
        if kept_previous { " (the previous version keeps serving)" } else { "" }
    );
    report.failed.push(ReloadFailure {
        file: path.display().to_string(),
        error,
        kept_previous,
    });
}

/// The `*.wasm` files of `dir`, sorted by name (load order = name order).
fn wasm_files(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "wasm") && p.is_file())
            .collect(),
        Err(err) => {
            tracing::warn!(dir = %dir.display(), error = %err, "plugins directory unreadable");
            Vec::new()
        }
    };
    paths.sort();
    paths
}
