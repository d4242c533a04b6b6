//! Hot swap: watches the plugins directory and reloads after changes settle
//! (a short debounce, so a file being copied is read once it is complete).
//! Only changes count: a read of a plugin file (an access event, such as
//! another server on the same directory reloading) does not, or two servers
//! sharing a directory would wake each other forever.

use super::engine::PluginRuntime;
use notify::{RecursiveMode, Watcher};
use std::time::Duration;

/// Quiet time after the last change before reloading.
pub const DEBOUNCE: Duration = Duration::from_millis(250);

impl PluginRuntime {
    /// Starts watching the plugins directory (creating it if missing). The
    /// watcher lives as long as the returned task.
    pub fn watch(&self) -> anyhow::Result<tokio::task::JoinHandle<()>> {
        let dir = self.plugins_dir().to_path_buf();
        std::fs::create_dir_all(&dir)?;
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| match event {
                Ok(ev)
                    if !ev.kind.is_access()
                        && ev
                            .paths
                            .iter()
                            .any(|p| p.extension().is_some_and(|e| e == "wasm")) =>
                {
                    let _ = tx.send(());
                }
                Ok(_) => {}
                Err(e) => tracing::warn!("plugin directory watch error: {e}"),
            })?;
        watcher.watch(&dir, RecursiveMode::NonRecursive)?;
        tracing::info!(dir = %dir.display(), "watching the plugins directory for changes");
        let runtime = self.clone();
        Ok(tokio::spawn(async move {
            let _watcher = watcher;
            while rx.recv().await.is_some() {
                // Debounce: wait until no event arrived for DEBOUNCE.
                loop {
                    match tokio::time::timeout(DEBOUNCE, rx.recv()).await {
                        Ok(Some(())) => continue,
                        Ok(None) => return,
                        Err(_) => break,
                    }
                }
                let report = runtime.reload().await;
                tracing::info!(
                    loaded = ?report.loaded,
                    replaced = ?report.replaced,
                    removed = ?report.removed,
                    failed = report.failed.len(),
                    "plugins directory changed: reloaded"
                );
            }
        }))
    }
}
