//! The only place that knows which ABI versions exist: recognising a
//! component's world and version from its exports, linking every version's
//! host interfaces, and one enum per world whose methods call the right
//! version's bindings, converting to and from the host's (newest) types.

use super::convert::{from_v1, from_v2};
use super::convert_v3 as from_v3;
use super::convert_v4 as from_v4;
use super::render_v5::FormatV5;
use super::v0_5::types::{
    Document, FileInput, FormatValue, Page, PluginError, PluginInfo, Rendered, Setting,
};
use super::{v0_1, v0_2, v0_3, v0_4, v0_5};
use crate::plugins::sandbox::CallState;
use anyhow::bail;
use wasmtime::Store;
use wasmtime::component::{HasSelf, InstancePre, Linker};

/// ABI versions this host loads, oldest first.
pub const SUPPORTED_VERSIONS: &[&str] = &["0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0"];

/// Which world a plugin implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PluginKind {
    Format,
    Converter,
}

/// What a component's exports say about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abi {
    pub kind: PluginKind,
    /// Index into [`SUPPORTED_VERSIONS`].
    pub version: usize,
}

impl Abi {
    /// The version string, e.g. "0.3.0".
    pub fn version_name(&self) -> &'static str {
        SUPPORTED_VERSIONS[self.version]
    }
}

/// The export that marks a component's world and ABI version.
pub fn render_export(version: &str) -> String {
    format!("distill:plugin/render@{version}")
}

/// See [`render_export`].
pub fn convert_export(version: &str) -> String {
    format!("distill:plugin/convert@{version}")
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

/// Adds WASI and every version's host interfaces to `linker` (the worlds of
/// one version share interfaces, hence shadowing).
pub fn add_to_linker(linker: &mut Linker<CallState>) -> anyhow::Result<()> {
    linker.allow_shadowing(true);
    wasmtime_wasi::p2::add_to_linker_async(linker)?;
    v0_1::format::Format::add_to_linker::<CallState, HasSelf<CallState>>(linker, |s| s)?;
    v0_1::converter::Converter::add_to_linker::<CallState, HasSelf<CallState>>(linker, |s| s)?;
    v0_2::format::Format::add_to_linker::<CallState, HasSelf<CallState>>(linker, |s| s)?;
    v0_2::converter::Converter::add_to_linker::<CallState, HasSelf<CallState>>(linker, |s| s)?;
    v0_3::format::Format::add_to_linker::<CallState, HasSelf<CallState>>(linker, |s| s)?;
    v0_3::converter::Converter::add_to_linker::<CallState, HasSelf<CallState>>(linker, |s| s)?;
    v0_4::format::Format::add_to_linker::<CallState, HasSelf<CallState>>(linker, |s| s)?;
    v0_4::converter::Converter::add_to_linker::<CallState, HasSelf<CallState>>(linker, |s| s)?;
    v0_5::format::Format::add_to_linker::<CallState, HasSelf<CallState>>(linker, |s| s)?;
    v0_5::converter::Converter::add_to_linker::<CallState, HasSelf<CallState>>(linker, |s| s)?;
    Ok(())
}

/// A pre-instantiated format plugin, by ABI version.
#[derive(Clone)]
pub enum FormatPre {
    V1(v0_1::format::FormatPre<CallState>),
    V2(v0_2::format::FormatPre<CallState>),
    V3(v0_3::format::FormatPre<CallState>),
    V4(v0_4::format::FormatPre<CallState>),
    V5(FormatV5),
}

/// A pre-instantiated converter plugin, by ABI version.
#[derive(Clone)]
pub enum ConverterPre {
    V1(v0_1::converter::ConverterPre<CallState>),
    V2(v0_2::converter::ConverterPre<CallState>),
    V3(v0_3::converter::ConverterPre<CallState>),
    V4(v0_4::converter::ConverterPre<CallState>),
    V5(v0_5::converter::ConverterPre<CallState>),
}

/// A pre-instantiated plugin of either world.
#[derive(Clone)]
pub enum Prepared {
    Format(FormatPre),
    Converter(ConverterPre),
}

/// A call's outcome: a wasmtime error (trap, interrupt, instantiation) or the
/// plugin's own answer.
pub type CallResult<T> = wasmtime::Result<Result<T, PluginError>>;

impl Prepared {
    /// Checks that `pre` matches `abi`'s world and wraps it.
    pub fn new(pre: InstancePre<CallState>, abi: Abi) -> wasmtime::Result<Prepared> {
        Ok(match (abi.kind, abi.version_name()) {
            (PluginKind::Format, "0.1.0") => {
                Prepared::Format(FormatPre::V1(v0_1::format::FormatPre::new(pre)?))
            }
            (PluginKind::Format, "0.2.0") => {
                Prepared::Format(FormatPre::V2(v0_2::format::FormatPre::new(pre)?))
            }
            (PluginKind::Format, "0.3.0") => {
                Prepared::Format(FormatPre::V3(v0_3::format::FormatPre::new(pre)?))
            }
            (PluginKind::Format, "0.4.0") => {
                Prepared::Format(FormatPre::V4(v0_4::format::FormatPre::new(pre)?))
            }
            (PluginKind::Format, version) => Prepared::Format(FormatPre::V5(FormatV5::new(
                v0_5::format::FormatPre::new(pre)?,
                &render_export(version),
            )?)),
            (PluginKind::Converter, "0.1.0") => {
                Prepared::Converter(ConverterPre::V1(v0_1::converter::ConverterPre::new(pre)?))
            }
            (PluginKind::Converter, "0.2.0") => {
                Prepared::Converter(ConverterPre::V2(v0_2::converter::ConverterPre::new(pre)?))
            }
            (PluginKind::Converter, "0.3.0") => {
                Prepared::Converter(ConverterPre::V3(v0_3::converter::ConverterPre::new(pre)?))
            }
            (PluginKind::Converter, "0.4.0") => {
                Prepared::Converter(ConverterPre::V4(v0_4::converter::ConverterPre::new(pre)?))
            }
            (PluginKind::Converter, _) => {
                Prepared::Converter(ConverterPre::V5(v0_5::converter::ConverterPre::new(pre)?))
            }
        })
    }

    pub fn kind(&self) -> PluginKind {
        match self {
            Prepared::Format(_) => PluginKind::Format,
            Prepared::Converter(_) => PluginKind::Converter,
        }
    }

    /// Instantiates and calls `info`.
    pub async fn info(&self, store: &mut Store<CallState>) -> wasmtime::Result<PluginInfo> {
        match self {
            Prepared::Format(FormatPre::V1(pre)) => {
                let i = pre.instantiate_async(&mut *store).await?;
                Ok(from_v1::info(i.distill_plugin_render().call_info(store).await?))
            }
            Prepared::Format(FormatPre::V2(pre)) => {
                let i = pre.instantiate_async(&mut *store).await?;
                Ok(from_v2::info(i.distill_plugin_render().call_info(store).await?))
            }
            Prepared::Format(FormatPre::V3(pre)) => {
                let i = pre.instantiate_async(&mut *store).await?;
                Ok(from_v3::info(i.distill_plugin_render().call_info(store).await?))
            }
            Prepared::Format(FormatPre::V4(pre)) => {
                let i = pre.instantiate_async(&mut *store).await?;
                Ok(from_v4::info(i.distill_plugin_render().call_info(store).await?))
            }
            Prepared::Format(FormatPre::V5(pre)) => {
                let i = pre.bindings().instantiate_async(&mut *store).await?;
                i.distill_plugin_render().call_info(store).await
            }
            Prepared::Converter(ConverterPre::V1(pre)) => {
                let i = pre.instantiate_async(&mut *store).await?;
                Ok(from_v1::info(i.distill_plugin_convert().call_info(store).await?))
            }
            Prepared::Converter(ConverterPre::V2(pre)) => {
                let i = pre.instantiate_async(&mut *store).await?;
                Ok(from_v2::info(i.distill_plugin_convert().call_info(store).await?))
            }
            Prepared::Converter(ConverterPre::V3(pre)) => {
                let i = pre.instantiate_async(&mut *store).await?;
                Ok(from_v3::info(i.distill_plugin_convert().call_info(store).await?))
            }
            Prepared::Converter(ConverterPre::V4(pre)) => {
                let i = pre.instantiate_async(&mut *store).await?;
                Ok(from_v4::info(i.distill_plugin_convert().call_info(store).await?))
            }
            Prepared::Converter(ConverterPre::V5(pre)) => {
                let i = pre.instantiate_async(&mut *store).await?;
                i.distill_plugin_convert().call_info(store).await
            }
        }
    }
}

impl FormatPre {
    /// Instantiates and renders `format` for `page`; `options` is JSON text.
    pub async fn render(
        &self,
        store: &mut Store<CallState>,
        format: &str,
        page: &Page,
        options: &str,
    ) -> CallResult<Rendered> {
        match self {
            FormatPre::V1(pre) => {
                let i = pre.instantiate_async(&mut *store).await?;
                let out = i
                    .distill_plugin_render()
                    .call_render(store, format, &from_v1::page(page), options)
                    .await?;
                Ok(out.map(legacy_rendered).map_err(from_v1::error))
            }
            FormatPre::V2(pre) => {
                let i = pre.instantiate_async(&mut *store).await?;
                let out = i
                    .distill_plugin_render()
                    .call_render(store, format, &from_v2::page(page), options)
                    .await?;
                Ok(out.map(legacy_rendered).map_err(from_v2::error))
            }
            FormatPre::V3(pre) => {
                let i = pre.instantiate_async(&mut *store).await?;
                let out = i
                    .distill_plugin_render()
                    .call_render(store, format, &from_v3::page(page), options)
                    .await?;
                Ok(out.map(from_v3::rendered).map_err(from_v3::error))
            }
            FormatPre::V4(pre) => {
                let i = pre.instantiate_async(&mut *store).await?;
                let out = i
                    .distill_plugin_render()
                    .call_render(store, format, &from_v4::page(page), options)
                    .await?;
                Ok(out.map(from_v4::rendered).map_err(from_v4::error))
            }
            FormatPre::V5(pre) => pre.render(store, format, page, options).await,
        }
    }
}

/// An 0.1 / 0.2 format's value: JSON text, no warnings.
fn legacy_rendered(value: String) -> Rendered {
    Rendered {
        value: FormatValue::Json(value),
        warnings: Vec::new(),
    }
}

/// A converter's options in each ABI's form.
pub struct ConvertOptions<'a> {
    /// 0.3.0 and later: typed settings from the request's `parsers` entry.
    pub settings: &'a [Setting],
    /// 0.1.0 / 0.2.0: a JSON object (`{"parsers": [...]}` plus the settings as keys).
    pub legacy_json: &'a str,
}

impl ConverterPre {
    /// Instantiates and converts `file`.
    pub async fn convert(
        &self,
        store: &mut Store<CallState>,
        file: &FileInput,
        options: ConvertOptions<'_>,
    ) -> CallResult<Document> {
        match self {
            ConverterPre::V1(pre) => {
                let i = pre.instantiate_async(&mut *store).await?;
                let out = i
                    .distill_plugin_convert()
                    .call_convert(store, &from_v1::file(file), options.legacy_json)
                    .await?;
                Ok(out.map(from_v1::document).map_err(from_v1::error))
            }
            ConverterPre::V2(pre) => {
                let i = pre.instantiate_async(&mut *store).await?;
                let out = i
                    .distill_plugin_convert()
                    .call_convert(store, &from_v2::file(file), options.legacy_json)
                    .await?;
                Ok(out.map(from_v2::document).map_err(from_v2::error))
            }
            ConverterPre::V3(pre) => {
                let i = pre.instantiate_async(&mut *store).await?;
                let out = i
                    .distill_plugin_convert()
                    .call_convert(store, &from_v3::file(file), &from_v3::settings(options.settings))
                    .await?;
                Ok(out.map(from_v3::document).map_err(from_v3::error))
            }
            ConverterPre::V4(pre) => {
                let i = pre.instantiate_async(&mut *store).await?;
                let out = i
                    .distill_plugin_convert()
                    .call_convert(store, &from_v4::file(file), &from_v4::settings(options.settings))
                    .await?;
                Ok(out.map(from_v4::document).map_err(from_v4::error))
            }
            ConverterPre::V5(pre) => {
                let i = pre.instantiate_async(&mut *store).await?;
                i.distill_plugin_convert()
                    .call_convert(store, file, options.settings)
                    .await
            }
        }
    }
}
