//! Turns a component file into a [`LoadedPlugin`]: compile (or map its code
//! from the [`super::code_cache`]), recognise its world, pre-instantiate, and
//! read its manifest; then let go of the code until its first call
//! ([`super::resident`]).

use super::bindings::{Abi, PluginKind, Prepared, detect_abi};
use super::engine::PluginRuntime;
use super::manifest::Manifest;
use super::plugin::LoadedPlugin;
use super::resident::PluginCode;
use super::stats::CallStats;
use anyhow::{anyhow, bail};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::time::{Instant, SystemTime};
use wasmtime::component::Component;

/// Compiles the component whose bytes have this SHA-256 (or maps its code from
/// the code cache) and recognises its ABI. Blocking (compilation); call from a
/// blocking thread.
pub fn compile(runtime: &PluginRuntime, bytes: &[u8], sha256: &str) -> anyhow::Result<(Component, Abi)> {
    let component = match runtime.code_cache() {
        Some(cache) => cache.component(runtime.engine(), || runtime.compiling_engine(), sha256, bytes),
        None => compile_in_memory(runtime, bytes),
    }
    .map_err(|e| {
        anyhow!(
            "not a valid WebAssembly component: {}",
            one_line(&format!("{e:#}"))
        )
    })?;
    let abi = abi_of(runtime, &component)?;
    Ok((component, abi))
}

/// The world and ABI version `component` implements, from its exports.
fn abi_of(runtime: &PluginRuntime, component: &Component) -> anyhow::Result<Abi> {
    let exports: Vec<String> = component
        .component_type()
        .exports(runtime.engine())
        .map(|(name, _)| name.to_string())
        .collect();
    detect_abi(&exports)
}

/// Pre-instantiates `component`: checks its imports against the host's and
/// its exports against `abi`'s world.
fn prepare(runtime: &PluginRuntime, component: &Component, abi: Abi) -> anyhow::Result<Prepared> {
    let pre = runtime.linker().instantiate_pre(component).map_err(|e| {
        anyhow!(
            "component imports something this host does not provide: {}",
            one_line(&format!("{e:#}"))
        )
    })?;
    Prepared::new(pre, abi).map_err(|e| {
        anyhow!(
            "component does not match the {:?} world of ABI {}: {}",
            abi.kind,
            abi.version_name(),
            one_line(&format!("{e:#}"))
        )
    })
}

/// Compiles `bytes` on a throwaway engine (its compilation buffers go with
/// it) and loads the code into the serving engine.
fn compile_in_memory(runtime: &PluginRuntime, bytes: &[u8]) -> anyhow::Result<Component> {
    let compiled = runtime.compiling_engine()?.precompile_component(bytes)?;
    // Safety: `compiled` was just produced by an engine of the serving
    // engine's settings (`PluginRuntime::compiling_engine`).
    Ok(unsafe { Component::deserialize(runtime.engine(), &compiled)? })
}

/// Collapses a multi-line error message (wasmtime prints byte arrays over
/// several lines) into one log-friendly line.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The hex SHA-256 of a component file's bytes.
pub fn digest(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Loads the plugin at `path` from its `bytes`: compile (on a blocking
/// thread, off the request path), pre-instantiate, call `info`.
pub async fn load(runtime: &PluginRuntime, path: &Path, bytes: Vec<u8>) -> anyhow::Result<LoadedPlugin> {
    let started = Instant::now();
    let sha256 = digest(&bytes);
    let (component, abi) = {
        let runtime = runtime.clone();
        let sha256 = sha256.clone();
        tokio::task::spawn_blocking(move || compile(&runtime, &bytes, &sha256)).await??
    };
    let kind = abi.kind;
    let abi_version = abi.version_name();
    let prepared = prepare(runtime, &component, abi)?;
    let file_stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let info = runtime
        .call_info(&prepared, &file_stem)
        .await
        .map_err(|e| anyhow!("calling info() failed: {e}"))?;
    let manifest = Manifest::from_info(info).map_err(|e| anyhow!(e))?;
    let (granted, denied): (Vec<String>, Vec<String>) = manifest
        .capabilities
        .iter()
        .cloned()
        .partition(|c| runtime.services().allowed_capabilities.contains(c));
    if !denied.is_empty() {
        tracing::warn!(
            plugin = %manifest.name,
            denied = ?denied,
            "plugin asks for capabilities the operator does not allow (DISTILL_ALLOWED_CAPABILITIES); its calls to them will fail"
        );
    }
    match kind {
        PluginKind::Format if manifest.formats.is_empty() => {
            bail!("format plugin '{}' declares no formats", manifest.name)
        }
        PluginKind::Converter if manifest.extensions.is_empty() && manifest.content_types.is_empty() => {
            bail!(
                "converter plugin '{}' declares no extensions or content types",
                manifest.name
            )
        }
        _ => {}
    }
    // Checked and asked for its manifest: unless its code is in the code
    // cache to map again at its first call, the plugin holds on to it.
    let code = match runtime.code_cache() {
        Some(cache) if cache.holds(&sha256) => PluginCode::released(),
        _ => PluginCode::held(prepared),
    };
    drop(component);
    tracing::info!(
        plugin = %manifest.name,
        version = %manifest.version,
        kind = ?kind,
        abi = abi_version,
        formats = ?manifest.formats,
        extensions = ?manifest.extensions,
        path = %path.display(),
        sha256 = %&sha256[..12],
        ms = started.elapsed().as_millis() as u64,
        "plugin loaded"
    );
    Ok(LoadedPlugin {
        manifest,
        kind,
        path: path.to_path_buf(),
        sha256,
        abi_version,
        granted,
        loaded_at: SystemTime::now(),
        code,
        stats: CallStats::default(),
        grants: Default::default(),
        _live: super::plugin::LiveVersion::new(),
    })
}

/// Maps the code of the plugin loaded from `path` with this SHA-256 again
/// (on a blocking thread: it reads files) and pre-instantiates it: a
/// [`PluginCode`] released at load, at its first call.
pub(crate) async fn map_again(
    runtime: &PluginRuntime,
    path: &Path,
    sha256: &str,
) -> anyhow::Result<Prepared> {
    let started = Instant::now();
    let (component, abi) = {
        let (runtime, path, sha256) = (runtime.clone(), path.to_path_buf(), sha256.to_string());
        tokio::task::spawn_blocking(move || component(&runtime, &path, &sha256)).await??
    };
    let prepared = prepare(runtime, &component, abi)?;
    tracing::debug!(
        path = %path.display(),
        us = started.elapsed().as_micros() as u64,
        "plugin code mapped for its first call"
    );
    Ok(prepared)
}

/// The component from its code-cache file; when that file is gone or
/// unusable, compiled again from the plugin's file if that still holds the
/// version loaded.
fn component(runtime: &PluginRuntime, path: &Path, sha256: &str) -> anyhow::Result<(Component, Abi)> {
    if let Some(cache) = runtime.code_cache()
        && let Ok(component) = cache.mapped(runtime.engine(), sha256)
    {
        let abi = abi_of(runtime, &component)?;
        return Ok((component, abi));
    }
    let bytes = std::fs::read(path)?;
    if digest(&bytes) != sha256 {
        bail!("its file changed since it was loaded (the next reload loads the new version)");
    }
    compile(runtime, &bytes, sha256)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::RuntimeLimits;

    /// The smallest valid component: compiles, but exports no plugin world.
    const EMPTY_COMPONENT: &[u8] = b"\0asm\x0d\0\x01\0";

    #[test]
    fn without_its_cached_code_a_plugin_is_compiled_again_only_from_the_same_file() {
        let dir = std::env::temp_dir().join(format!("distill-resident-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let limits = RuntimeLimits {
            memory_reservation_mib: 64,
            max_memory_mib: 64,
            default_memory_mib: 64,
            ..RuntimeLimits::default()
        };
        let runtime = PluginRuntime::new(&dir, Some(&dir.join("code")), limits).unwrap();
        let cache = runtime.code_cache().unwrap();
        let path = dir.join("empty.wasm");
        std::fs::write(&path, EMPTY_COMPONENT).unwrap();
        let sha256 = digest(EMPTY_COMPONENT);

        // No cached code: compiled from the file (which holds no plugin world).
        let err = component(&runtime, &path, &sha256).unwrap_err().to_string();
        assert!(err.contains("no Distill plugin interface"), "{err}");
        assert!(cache.holds(&sha256), "the compiled code is cached again");

        // The file now holds another version: not compiled in its place.
        std::fs::remove_file(cache.path_for(&sha256)).unwrap();
        std::fs::write(&path, b"\0asm\x0d\0\x01\0\0\0").unwrap();
        let err = component(&runtime, &path, &sha256).unwrap_err().to_string();
        assert!(err.contains("changed since it was loaded"), "{err}");
        assert!(!cache.holds(&sha256));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
