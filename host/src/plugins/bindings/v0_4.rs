//! Bindings for ABI 0.4.0 (`wit/v0.4.0`): kept so plugins built against it keep
//! loading. Inputs and outputs are converted in [`super::convert_v4`].

/// The `format` world of 0.4.0.
pub mod format {
    wasmtime::component::bindgen!({
        world: "format",
        path: "../wit/v0.4.0",
        imports: {
            "distill:plugin/llm.complete": async,
            "distill:plugin/media.extract": async,
        },
        exports: { default: async },
    });
}

/// The `converter` world of 0.4.0 (shares `types`, `log` and `llm` with its format world).
pub mod converter {
    wasmtime::component::bindgen!({
        world: "converter",
        path: "../wit/v0.4.0",
        exports: { default: async },
        with: {
            "distill:plugin/types": super::format::distill::plugin::types,
            "distill:plugin/log": super::format::distill::plugin::log,
            "distill:plugin/llm": super::format::distill::plugin::llm,
        },
    });
}

pub use format::distill::plugin::types;
