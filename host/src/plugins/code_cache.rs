//! Compiled plugin code on disk: one precompiled file per component (named by
//! the component's SHA-256 and the engine's settings), mapped from the file
//! when a plugin loads. Mapped code is paged in as it runs and shared with
//! the page cache, so plugins that serve no request cost next to no resident
//! memory (wasmtime's own cache decompresses every plugin's code into the
//! heap), and a restart skips compilation.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use wasmtime::Engine;
use wasmtime::component::Component;

/// File name suffix of a precompiled component.
const SUFFIX: &str = "cwasm";

/// Entries no loaded plugin uses are deleted once older than this.
const UNUSED_TTL: Duration = Duration::from_secs(24 * 3600);

/// The directory of precompiled components for one engine.
#[derive(Clone, Debug)]
pub struct CodeCache {
    dir: PathBuf,
    /// Identifies the engine's settings (wasmtime version, target, tunables):
    /// code compiled under other settings is never mapped.
    engine_key: String,
}

impl CodeCache {
    /// A cache in `dir` (created if missing) for code compiled by `engine`.
    pub fn open(dir: &Path, engine: &Engine) -> anyhow::Result<CodeCache> {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("creating the code cache directory {}: {e}", dir.display()))?;
        let mut hasher = DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut hasher);
        Ok(CodeCache {
            dir: dir.to_path_buf(),
            engine_key: format!("{:016x}", hasher.finish()),
        })
    }

    /// Where the code of the component with this SHA-256 lives.
    pub fn path_for(&self, sha256: &str) -> PathBuf {
        self.dir.join(format!("{sha256}-{}.{SUFFIX}", self.engine_key))
    }

    /// The component with this SHA-256 for `engine`: mapped from its
    /// precompiled file, compiling `bytes` with an engine from `compiler`
    /// (same settings as `engine`) and writing the file first when there is
    /// none (or it cannot be used). Blocking.
    pub fn component(
        &self,
        engine: &Engine,
        compiler: impl FnOnce() -> anyhow::Result<Engine>,
        sha256: &str,
        bytes: &[u8],
    ) -> anyhow::Result<Component> {
        let path = self.path_for(sha256);
        if path.is_file() {
            match self.mapped(engine, sha256) {
                Ok(component) => return Ok(component),
                Err(e) => tracing::warn!(path = %path.display(), "recompiling: cached code unusable: {e:#}"),
            }
        }
        let compiled = compiler()?.precompile_component(bytes)?;
        if let Err(e) = store(&path, &compiled) {
            tracing::warn!(path = %path.display(), "could not write compiled plugin code: {e}");
            // Safety: `compiled` was just produced by an engine of this one's settings.
            return Ok(unsafe { Component::deserialize(engine, &compiled)? });
        }
        // The file holds what was just compiled for this engine.
        self.mapped(engine, sha256)
    }

    /// Whether there is a file of code for the component with this SHA-256.
    pub fn holds(&self, sha256: &str) -> bool {
        self.path_for(sha256).is_file()
    }

    /// The component with this SHA-256 for `engine`, mapped from its
    /// precompiled file; an error when there is none or wasmtime refuses it.
    pub fn mapped(&self, engine: &Engine, sha256: &str) -> anyhow::Result<Component> {
        let path = self.path_for(sha256);
        // Safety: the file was written by `store` below from
        // `Engine::precompile_component` of this engine's settings (the
        // name carries both the component's digest and the engine key), in
        // a directory only the operator controls — the same trust wasmtime's
        // own cache places in its directory. A file that does not match the
        // engine is refused by wasmtime (and `component` rewrites it).
        let component = unsafe { Component::deserialize_file(engine, &path)? };
        touch(&path);
        Ok(component)
    }

    /// Deletes entries whose SHA-256 is not in `in_use` and that were not used
    /// for [`UNUSED_TTL`] (old versions of plugins, other engine settings).
    pub fn prune(&self, in_use: &[&str]) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let now = SystemTime::now();
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.ends_with(&format!(".{SUFFIX}")) {
                continue;
            }
            let current = in_use
                .iter()
                .any(|sha| name == format!("{sha}-{}.{SUFFIX}", self.engine_key));
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|m| now.duration_since(m).ok())
                .is_some_and(|age| age > UNUSED_TTL);
            if !current && old {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

/// Writes `bytes` to `path` atomically (a temporary file renamed over it),
/// so a concurrent reader never maps a half-written file.
fn store(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("{SUFFIX}.tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Marks an entry as used now (for [`CodeCache::prune`]).
fn touch(path: &Path) {
    if let Ok(file) = std::fs::File::options().append(true).open(path) {
        let _ = file.set_modified(SystemTime::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smallest valid component: the preamble of an empty one.
    const EMPTY_COMPONENT: &[u8] = b"\0asm\x0d\0\x01\0";

    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("distill-code-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// A compiling engine of `Engine::default()`'s settings, counting its uses.
    fn compiler(made: &std::cell::Cell<u32>) -> impl FnOnce() -> anyhow::Result<Engine> + '_ {
        || {
            made.set(made.get() + 1);
            Ok(Engine::default())
        }
    }

    #[test]
    fn compiles_once_then_maps_the_stored_code() {
        let dir = scratch_dir("reuse");
        let engine = Engine::default();
        let cache = CodeCache::open(&dir, &engine).unwrap();
        let made = std::cell::Cell::new(0);
        cache
            .component(&engine, compiler(&made), "aa", EMPTY_COMPONENT)
            .unwrap();
        assert_eq!(made.get(), 1, "the first load compiles on its own engine");
        let path = cache.path_for("aa");
        let written = std::fs::read(&path).expect("the compiled code is stored");
        assert!(!written.is_empty());
        // A second load maps the stored file: no compiling engine, the same file afterwards.
        cache
            .component(&engine, compiler(&made), "aa", EMPTY_COMPONENT)
            .unwrap();
        assert_eq!(made.get(), 1);
        assert_eq!(std::fs::read(&path).unwrap(), written);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_entry_is_recompiled_and_rewritten() {
        let dir = scratch_dir("damaged");
        let engine = Engine::default();
        let cache = CodeCache::open(&dir, &engine).unwrap();
        std::fs::write(cache.path_for("bb"), b"not compiled code").unwrap();
        let made = std::cell::Cell::new(0);
        cache
            .component(&engine, compiler(&made), "bb", EMPTY_COMPONENT)
            .unwrap();
        assert_eq!(made.get(), 1);
        assert_ne!(std::fs::read(cache.path_for("bb")).unwrap(), b"not compiled code");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn maps_only_a_stored_file_of_code() {
        let dir = scratch_dir("mapped");
        let engine = Engine::default();
        let cache = CodeCache::open(&dir, &engine).unwrap();
        assert!(!cache.holds("cc"));
        assert!(cache.mapped(&engine, "cc").is_err(), "nothing stored yet");
        let made = std::cell::Cell::new(0);
        cache
            .component(&engine, compiler(&made), "cc", EMPTY_COMPONENT)
            .unwrap();
        assert!(cache.holds("cc"));
        cache.mapped(&engine, "cc").expect("the stored code maps");
        std::fs::write(cache.path_for("cc"), b"not compiled code").unwrap();
        assert!(cache.mapped(&engine, "cc").is_err(), "a damaged file is refused");
        assert_eq!(made.get(), 1, "mapping never compiles");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn prune_keeps_entries_in_use_and_recent_ones() {
        let dir = scratch_dir("prune");
        let engine = Engine::default();
        let cache = CodeCache::open(&dir, &engine).unwrap();
        let made = std::cell::Cell::new(0);
        for sha in ["used", "recent", "stale"] {
            cache
                .component(&engine, compiler(&made), sha, EMPTY_COMPONENT)
                .unwrap();
        }
        let long_ago = SystemTime::now() - UNUSED_TTL - Duration::from_secs(60);
        for sha in ["used", "stale"] {
            let file = std::fs::File::options()
                .append(true)
                .open(cache.path_for(sha))
                .unwrap();
            file.set_modified(long_ago).unwrap();
        }
        cache.prune(&["used"]);
        assert!(cache.path_for("used").is_file());
        assert!(cache.path_for("recent").is_file());
        assert!(!cache.path_for("stale").is_file());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
