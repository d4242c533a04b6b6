//! Bindings for ABI 0.1.0 (`wit/v0.1.0`): kept so plugins built against it keep
//! loading. Inputs and outputs are converted to and from the current types in
//! [`super::convert`].

/// The `format` world of 0.1.0.
pub mod format {
    wasmtime::component::bindgen!({
        world: "format",
        path: "../wit/v0.1.0",
        exports: { default: async },
    });
}

/// The `converter` world of 0.1.0 (shares `types` and `log` with its format world).
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

pub use format::distill::plugin::types;
