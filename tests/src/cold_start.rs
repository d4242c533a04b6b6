//! One cold start at a time: the first server of a clean run compiles every
//! plugin it loads into the shared wasm cache. Several test threads (and test
//! binaries) starting servers at that moment would each compile the same
//! plugins on the same two cores; instead, a server whose plugin set has not
//! been started before waits for an exclusive lock on the cache directory, and
//! the servers after it find the compiled code in the cache.
//!
//! "Started before" is a marker file in the cache directory named after the
//! server binary (size, modification time) and the plugin files (name, size).
//! A warm start never takes the lock.

use std::fs::File;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

/// Held from spawning a server until it listens; [`ColdStart::warmed`]
/// records the plugin set as compiled.
pub struct ColdStart {
    marker: PathBuf,
    lock: Option<File>,
}

impl ColdStart {
    /// Takes the cache directory's lock unless `plugins_dir` has been started
    /// with `bin` before.
    pub fn begin(cache_dir: &Path, bin: &Path, plugins_dir: &Path) -> ColdStart {
        let marker = cache_dir.join(format!(".started-{:016x}", key(bin, plugins_dir)));
        if marker.exists() || std::fs::create_dir_all(cache_dir).is_err() {
            return ColdStart { marker, lock: None };
        }
        let lock = File::create(cache_dir.join(".cold-start.lock"))
            .ok()
            .filter(|file| file.lock().is_ok());
        // Whoever held the lock before may have started this very set.
        let lock = lock.filter(|_| !marker.exists());
        ColdStart { marker, lock }
    }

    /// The server listens: its plugins are in the cache.
    pub fn warmed(self) {
        if self.lock.is_some() {
            let _ = std::fs::write(&self.marker, b"");
        }
    }
}

/// The binary's size and modification time and every `.wasm` file's name and
/// size, in name order.
fn key(bin: &Path, plugins_dir: &Path) -> u64 {
    let mut hasher = DefaultHasher::new();
    if let Ok(meta) = std::fs::metadata(bin) {
        meta.len().hash(&mut hasher);
        meta.modified().ok().hash(&mut hasher);
    }
    let mut plugins: Vec<(String, u64)> = std::fs::read_dir(plugins_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.path().extension().is_some_and(|e| e == "wasm"))
        .map(|entry| {
            let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
            (entry.file_name().to_string_lossy().into_owned(), size)
        })
        .collect();
    plugins.sort();
    plugins.hash(&mut hasher);
    hasher.finish()
}
