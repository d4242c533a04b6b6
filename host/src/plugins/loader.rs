//! Turns a component file into a [`LoadedPlugin`]: compile (through wasmtime's
//! code cache), recognise its world, pre-instantiate, and read its manifest.

use super::bindings::{SUPPORTED_VERSIONS, convert_export, render_export, v0_1, v0_2};
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

/// A pre-instantiated component: its world and ABI version.
#[derive(Clone)]
pub enum Prepared {
    FormatV1(v0_1::format::FormatPre<CallState>),
    ConverterV1(v0_1::converter::ConverterPre<CallState>),
    FormatV2(v0_2::format::FormatPre<CallState>),
    ConverterV2(v0_2::converter::ConverterPre<CallState>),
}

/// What a component's exports say about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abi {
    pub kind: PluginKind,
    /// Index into [`SUPPORTED_VERSIONS`].
    pub version: usize,
}

/// A plugin ready to serve: its manifest and its pre-instantiated component.
pub struct LoadedPlugin {
    pub manifest: Manifest,
    pub kind: PluginKind,
    pub path: PathBuf,
    pub sha256: String,
    /// The plugin ABI version it was built against, e.g. "0.2.0".
    pub abi_version: &'static str,
    /// Capabilities granted: declared by the plugin and allowed by the operator.
    pub granted: Vec<String>,
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
pub fn compile(runtime: &PluginRuntime, bytes: &[u8]) -> anyhow::Result<(Component, Abi)> {
    let component = Component::new(runtime.engine(), bytes).map_err(|e| {
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

/// Recognises the world and ABI version from a component's export names.
pub fn detect_abi(exports: &[String]) -> anyhow::Result<Abi> {
    for (version, v) in SUPPORTED_VERSIONS.iter().enumerate().rev() {
        if exports.contains(&render_export(v)) {
            return Ok(Abi {
                kind: PluginKind::Format,
                version,
            });
        }
        if exports.contains(&convert_export(v)) {
            return Ok(Abi {
                kind: PluginKind::Converter,
                version,
            });
        }
    }
    let ours: Vec<&str> = exports
        .iter()
        .filter(|e| e.starts_with("distill:plugin/"))
        .map(String::as_str)
        .collect();
    if ours.is_empty() {
        bail!(
            "component exports no Distill plugin interface (exports: {}); a plugin exports \
             distill:plugin/render or distill:plugin/convert",
            exports.join(", ")
        );
    }
    bail!(
        "component was built for an unsupported plugin ABI ({}); this host supports distill:plugin versions {}",
        ours.join(", "),
        SUPPORTED_VERSIONS.join(", ")
    )
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
        tokio::task::spawn_blocking(move || compile(&runtime, &bytes)).await??
    };
    let kind = abi.kind;
    let abi_version = SUPPORTED_VERSIONS[abi.version];
    let pre = runtime.linker().instantiate_pre(&component).map_err(|e| {
        anyhow!(
            "component imports something this host does not provide: {}",
            one_line(&format!("{e:#}"))
        )
    })?;
    let mismatch = |e: wasmtime::Error| {
        anyhow!(
            "component does not match the {kind:?} world of ABI {abi_version}: {}",
            one_line(&format!("{e:#}"))
        )
    };
    let prepared = match (kind, abi_version) {
        (PluginKind::Format, "0.1.0") => {
            Prepared::FormatV1(v0_1::format::FormatPre::new(pre).map_err(mismatch)?)
        }
        (PluginKind::Converter, "0.1.0") => {
            Prepared::ConverterV1(v0_1::converter::ConverterPre::new(pre).map_err(mismatch)?)
        }
        (PluginKind::Format, _) => Prepared::FormatV2(v0_2::format::FormatPre::new(pre).map_err(mismatch)?),
        (PluginKind::Converter, _) => {
            Prepared::ConverterV2(v0_2::converter::ConverterPre::new(pre).map_err(mismatch)?)
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
    })
}
