//! Host-side bindings for every supported version of the WIT package
//! `distill:plugin`, one module per version (as Zed keeps its extension API).
//! The newest version's types are the host's own; older versions convert to
//! and from them in [`convert`].

pub mod convert;
pub mod v0_1;
pub mod v0_2;

pub use v0_2::format::distill::plugin::types::{
    Document, DocumentKind, FileInput, Page, PluginError, PluginInfo,
};

/// ABI versions this host loads, oldest first.
pub const SUPPORTED_VERSIONS: &[&str] = &["0.1.0", "0.2.0"];

/// The export that marks a component's world and ABI version.
pub fn render_export(version: &str) -> String {
    format!("distill:plugin/render@{version}")
}

/// See [`render_export`].
pub fn convert_export(version: &str) -> String {
    format!("distill:plugin/convert@{version}")
}
