//! Host-side bindings for every supported version of the WIT package
//! `distill:plugin`, one module per version (as Zed keeps its extension API),
//! and the one place that dispatches on the version ([`dispatch`]). The
//! newest version's types are the host's own; older versions convert to and
//! from them in [`convert`] (0.1, 0.2), [`convert_v3`] and [`convert_v4`]
//! (what those two share is written once in [`convert_unchanged`]); the
//! current version's `render` is called through [`render_v5`], which checks
//! its type once per component instead of at every call.

pub mod convert;
pub mod convert_unchanged;
pub mod convert_v3;
pub mod convert_v4;
pub mod dispatch;
pub mod render_v5;
pub mod v0_1;
pub mod v0_2;
pub mod v0_3;
pub mod v0_4;
pub mod v0_5;

pub use dispatch::{
    Abi, ConvertOptions, ConverterPre, FormatPre, PluginKind, Prepared, SUPPORTED_VERSIONS, convert_export,
    detect_abi, render_export,
};
pub use v0_5::types::{
    Document, DocumentKind, FileInput, FormatInput, FormatValue, OcrPage, OptionKind, OptionSpec, Page,
    PageTokens, ParserSpec, PluginError, PluginInfo, Rendered, Setting, SettingValue,
};
