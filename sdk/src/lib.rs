//! # distill-sdk: write Distill plugins in Rust
//!
//! A Distill plugin is a WebAssembly component. There are two kinds:
//!
//! - a **format** renders an output format (markdown, summary, reading-time, ...)
//!   from a page the host has fetched and cleaned: implement [`FormatPlugin`];
//! - a **converter** turns an input document (PDF, DOCX, ...) into HTML or markdown:
//!   implement [`ConverterPlugin`].
//!
//! Then export it with one macro and build with
//! `cargo build --target wasm32-wasip2 --release`:
//!
//! ```ignore
//! use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value};
//!
//! struct Shout;
//!
//! impl FormatPlugin for Shout {
//!     fn info() -> PluginInfo {
//!         PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")).format("shout")
//!     }
//!     fn render(_format: &str, page: &Page, _options: &Value) -> Result<Value, PluginError> {
//!         Ok(Value::String(page.cleaned_html.to_uppercase()))
//!     }
//! }
//!
//! distill_sdk::export_plugin!(format: Shout);
//! ```
//!
//! The plugin runs sandboxed: no files, network, environment or clock. Use
//! [`log`] to write to the host's log, [`llm`] to ask the operator's
//! language model (declare the "llm" capability in [`PluginInfo`]) and
//! [`media`] to have the host fetch and extract a media file (the "media"
//! capability).
//!
//! Formats can read other formats' values (declare them with
//! [`PluginInfo::consumes`], read them with [`Page::input`] or
//! [`Page::markdown`]); converters declare their options with
//! [`PluginInfo::parser`] and read them with [`Options`]. Unit-test a format
//! natively with [`Page::builder`] and a mocked model ([`llm::mock`]).
//!
//! A format can read the cleaned page pre-tokenised instead of as HTML
//! (declare [`PagePart::CleanedTokens`], read [`Page::tokens`]; the format is
//! described in [`tokens`]).
//!
//! This SDK builds plugins for ABI `distill:plugin@0.5.0`.

extern crate self as distill_sdk;

pub mod bindings;
#[cfg(any(feature = "documents", feature = "bytes", feature = "cfb"))]
pub mod documents;
pub mod llm;
pub mod log;
pub mod media;
mod options;
mod page;
mod plugin;
pub mod simd_scan;
mod types;

/// The cleaned page as tokens ([`Page::tokens`]): the decoder and the names
/// of the format `page.cleaned-tokens` uses (`distill_page_tokens`).
pub mod tokens {
    pub use distill_page_tokens::*;
}

pub use plugin::{ConverterPlugin, FormatPlugin, take_warnings, warning};
pub use serde_json::{self, Value, json};

/// The plugin ABI version this SDK targets.
pub const ABI_VERSION: &str = "0.5.0";
pub use options::Options;
pub use page::PageBuilder;
pub use types::{
    Document, DocumentKind, FileInput, FormatInput, FormatValue, OcrPage, OptionKind, OptionSpec, Page,
    PagePart, PageTokens, ParserSpec, PluginError, PluginInfo, Rendered, Setting, SettingValue,
};

/// Not public API: used by the code [`export_plugin!`] expands to.
#[doc(hidden)]
pub mod __private {
    pub use crate::plugin::{convert_entry, render_entry};
    pub use wit_bindgen;
}

/// Exports a plugin type as the component's implementation.
///
/// Use exactly once per plugin crate:
/// `distill_sdk::export_plugin!(format: MyFormat);` or
/// `distill_sdk::export_plugin!(converter: MyConverter);`.
#[macro_export]
macro_rules! export_plugin {
    (format: $plugin:ty) => {
        #[doc(hidden)]
        pub struct __DistillFormatExport;

        impl $crate::bindings::format::exports::distill::plugin::render::Guest for __DistillFormatExport {
            fn info() -> $crate::PluginInfo {
                <$plugin as $crate::FormatPlugin>::info()
            }

            fn render(
                format: ::std::string::String,
                page: $crate::Page,
                options: ::std::string::String,
            ) -> ::std::result::Result<$crate::Rendered, $crate::PluginError> {
                $crate::__private::render_entry::<$plugin>(&format, &page, &options)
            }
        }

        // Native builds (unit tests, benchmarks) compile the glue but export nothing.
        #[cfg(target_arch = "wasm32")]
        $crate::bindings::format::__export_format_world!(__DistillFormatExport);
    };
    (converter: $plugin:ty) => {
        #[doc(hidden)]
        pub struct __DistillConverterExport;

        impl $crate::bindings::converter::exports::distill::plugin::convert::Guest
            for __DistillConverterExport
        {
            fn info() -> $crate::PluginInfo {
                <$plugin as $crate::ConverterPlugin>::info()
            }

            fn convert(
                file: $crate::FileInput,
                options: ::std::vec::Vec<$crate::Setting>,
            ) -> ::std::result::Result<$crate::Document, $crate::PluginError> {
                $crate::__private::convert_entry::<$plugin>(&file, &options)
            }
        }

        #[cfg(target_arch = "wasm32")]
        $crate::bindings::converter::__export_converter_world!(__DistillConverterExport);
    };
}
