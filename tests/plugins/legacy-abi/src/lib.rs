//! A plugin as it was built for ABI `distill:plugin@0.1.0`, before the SDK moved
//! on: raw wit-bindgen against `wit/v0.1.0`. Format `legacy-echo` returns
//! `{"abi":"0.1.0","finalUrl":...,"cleanedBytes":N}`. Used by tests that check
//! the host still loads and calls plugins of older ABI versions.

// Raw wit-bindgen exports only link as a wasm component; natively the crate is empty.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({ world: "format", path: "../../../wit/v0.1.0" });

use distill::plugin::types::{Page, PluginError, PluginInfo};
use exports::distill::plugin::render::Guest;

struct Legacy;

impl Guest for Legacy {
    fn info() -> PluginInfo {
        PluginInfo {
            name: "legacy-abi".into(),
            version: "0.1.0".into(),
            description: "Test fixture built for ABI 0.1.0".into(),
            formats: vec!["legacy-echo".into()],
            extensions: vec![],
            content_types: vec![],
            capabilities: vec![],
            memory_limit_mib: Some(32),
            timeout_ms: None,
        }
    }

    fn render(format: String, page: Page, _options: String) -> Result<String, PluginError> {
        if format != "legacy-echo" {
            return Err(PluginError::InvalidOptions(format!("unknown format {format}")));
        }
        distill::plugin::log::log(distill::plugin::log::Level::Info, "legacy plugin called");
        Ok(format!(
            "{{\"abi\":\"0.1.0\",\"finalUrl\":{:?},\"cleanedBytes\":{}}}",
            page.final_url,
            page.cleaned_html.len()
        ))
    }
}

export!(Legacy);
