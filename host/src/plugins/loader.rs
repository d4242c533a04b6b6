//! Turns a component file into a [`LoadedPlugin`]: compile (or map its code
//! from the [`super::code_cache`]), recognise its world, pre-instantiate, and
//! read its manifest.

use super::bindings::{Abi, PluginKind, Prepared, detect_abi};
use super::engine::PluginRuntime;
use super::manifest::Manifest;
use super::plugin::LoadedPlugin;
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
    let exports: Vec<String> = component
        .component_type()
        .exports(runtime.engine())
        .map(|(name, _)| name.to_string())
        .collect();
    Ok((component, detect_abi(&exports)?))
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
    let pre = runtime.linker().instantiate_pre(&component).map_err(|e| {
        anyhow!(
            "component imports something this host does not provide: {}",
            one_line(&format!("{e:#}"))
        )
    })?;
    let prepared = Prepared::new(pre, abi).map_err(|e| {
        anyhow!(
            "component does not match the {kind:?} world of ABI {abi_version}: {}",
            one_line(&format!("{e:#}"))
        )
    })?;
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
        prepared,
        stats: CallStats::default(),
        _live: super::plugin::LiveVersion::new(),
    })
}
