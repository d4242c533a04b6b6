//! Host-side bindings for the WIT package `distill:plugin@0.1.0`, one module per
//! world. The converter world reuses the format world's `types` and `log`, so
//! both kinds of plugin share one set of Rust types and one logging implementation.

/// The `format` world: plugins that render output formats.
pub mod format {
    wasmtime::component::bindgen!({
        world: "format",
        path: "../wit/v0.1.0",
        exports: { default: async },
    });
}

/// The `converter` world: plugins that turn documents into HTML or markdown.
pub mod converter {
    wasmtime::component::bindgen!({
        world: "converter",
        path: "../wit/v0.1.0",
        exports: { default: async },
        with: {
            "distill:plugin/types": super::format::distill::plugin::types,
            "distill:plugin/log": super::format::distill::plugin::log,
        },
    });
}

pub use format::distill::plugin::types::{
    Document, DocumentKind, FileInput, Page, PluginError, PluginInfo,
};

/// Export names by which a component's world is recognised.
pub const RENDER_EXPORT: &str = "distill:plugin/render@0.1.0";
pub const CONVERT_EXPORT: &str = "distill:plugin/convert@0.1.0";
