//! Raw bindings generated from the WIT package `distill:plugin@0.5.0`
//! (`wit/v0.5.0`), one module per world.
//!
//! Plugin authors never touch these: they implement [`crate::FormatPlugin`] or
//! [`crate::ConverterPlugin`] and call [`crate::export_plugin!`].

/// Bindings for the `format` world.
pub mod format {
    wit_bindgen::generate!({
        world: "format",
        path: "../wit/v0.5.0",
        runtime_path: "::distill_sdk::__private::wit_bindgen::rt",
        pub_export_macro: true,
        export_macro_name: "__export_format_world",
        default_bindings_module: "::distill_sdk::bindings::format",
        type_section_suffix: "distill-format",
    });
}

/// Bindings for the `converter` world. Shares the `types` and `log` interfaces
/// with the format world so both kinds of plugin see the same Rust types.
pub mod converter {
    wit_bindgen::generate!({
        world: "converter",
        path: "../wit/v0.5.0",
        runtime_path: "::distill_sdk::__private::wit_bindgen::rt",
        pub_export_macro: true,
        export_macro_name: "__export_converter_world",
        default_bindings_module: "::distill_sdk::bindings::converter",
        type_section_suffix: "distill-converter",
        with: {
            "distill:plugin/types@0.5.0": crate::bindings::format::distill::plugin::types,
            "distill:plugin/log@0.5.0": crate::bindings::format::distill::plugin::log,
            "distill:plugin/llm@0.5.0": crate::bindings::format::distill::plugin::llm,
        },
    });
}
