//! Turns a component file into a [`LoadedPlugin`]: compile (through wasmtime's
//! code cache), recognise its world, pre-instantiate, and read its manifest.

use super::bindings::{CONVERT_EXPORT, RENDER_EXPORT, converter, format};
use super::engine::PluginRuntime;
use super::manifest::Manifest;
use super::sandbox::CallState;
use super::stats::CallStats;
use anyhow::{anyhow, bail};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};
use wasmtime::component::Component;

/// Which world a plugin implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PluginKind {
    Format,
    Converter,
}

/// A pre-instantiated component of either world.
#[derive(Clone)]
pub enum Prepared {
    Format(format::FormatPre<CallState>),
    Converter(converter::ConverterPre<CallState>),
}

/// A plugin ready to serve: its manifest and its pre-instantiated component.
pub struct LoadedPlugin {
    pub manifest: Manifest,
    pub kind: PluginKind,
    pub path: PathBuf,
    pub sha256: String,
    pub loaded_at: SystemTime,
    pub(crate) prepared: Prepared,
    /// Calls, errors and latency of this version.
    pub stats: CallStats,
}

impl LoadedPlugin {
    /// Memory cap for one call, in bytes: the plugin's declaration clamped to the host maximum.
    pub fn memory_cap_bytes(&self, runtime: &PluginRuntime) -> usize {
        let limits = runtime.limits();
        let mib = self
            .manifest
            .memory_limit_mib
            .map(|m| m as u64)
            .unwrap_or(limits.default_memory_mib)
            .clamp(1, limits.max_memory_mib);
        (mib as usize) << 20
    }
}

/// Compiles and prepares the component at `path`. Blocking (compilation); call
/// from a blocking thread.
pub fn compile(runtime: &PluginRuntime, bytes: &[u8]) -> anyhow::Result<(Component, PluginKind)> {
    let component = Component::new(runtime.engine(), &bytes)
        .map_err(|e| anyhow!("not a valid WebAssembly component: {}", one_line(&format!("{e:#}"))))?;
    let ty = component.component_type();
    let exports: Vec<String> = ty
        .exports(runtime.engine())
        .map(|(name, _)| name.to_string())
        .collect();
    let kind = if exports.iter().any(|e| e == RENDER_EXPORT) {
        PluginKind::Format
    } else if exports.iter().any(|e| e == CONVERT_EXPORT) {
        PluginKind::Converter
    } else {
        let versions: Vec<&String> = exports
            .iter()
            .filter(|e| e.starts_with("distill:plugin/"))
            .collect();
        if versions.is_empty() {
            bail!(
                "component exports neither {RENDER_EXPORT} nor {CONVERT_EXPORT} (exports: {}); is it a Distill plugin?",
                exports.join(", ")
            );
        }
        bail!(
            "component targets an unsupported plugin ABI ({}); this host supports distill:plugin@0.1.0",
            versions.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
        );
    };
    Ok((component, kind))
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
    let (component, kind) = {
        let runtime = runtime.clone();
        tokio::task::spawn_blocking(move || compile(&runtime, &bytes)).await??
    };
    let prepared = match kind {
        PluginKind::Format => {
            let pre = runtime.format_linker().instantiate_pre(&component)?;
            Prepared::Format(format::FormatPre::new(pre).map_err(|e| {
                anyhow!("component does not match the format world: {e:#}")
            })?)
        }
        PluginKind::Converter => {
            let pre = runtime.converter_linker().instantiate_pre(&component)?;
            Prepared::Converter(converter::ConverterPre::new(pre).map_err(|e| {
                anyhow!("component does not match the converter world: {e:#}")
            })?)
        }
    };
    let file_stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let info = runtime
        .call_info(&prepared, &file_stem)
        .await
        .map_err(|e| anyhow!("calling info() failed: {e}"))?;
    let manifest = Manifest::from_info(info).map_err(|e| anyhow!(e))?;
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
        loaded_at: SystemTime::now(),
        prepared,
        stats: CallStats::default(),
    })
}
