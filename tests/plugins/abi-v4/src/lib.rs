//! A plugin as it was built for ABI `distill:plugin@0.4.0`, before `rendered`
//! got its typed value (0.5.0): raw wit-bindgen against `wit/v0.4.0`. It reads
//! the cleaned tokens and returns JSON text, as 0.4 plugins do: format
//! `v4-echo` an object `{"abi":"0.4.0","tokenOps":N}`, format `v4-string` a
//! JSON string with escapes. Used by tests that check the host still loads
//! 0.4 plugins and parses their values.

// Raw wit-bindgen exports only link as a wasm component; natively the crate is empty.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({ world: "format", path: "../../../wit/v0.4.0" });

use distill::plugin::types::{Page, PluginError, PluginInfo, Rendered};
use exports::distill::plugin::render::Guest;

struct AbiV4;

impl Guest for AbiV4 {
    fn info() -> PluginInfo {
        PluginInfo {
            name: "abi-v4".into(),
            version: "0.4.0".into(),
            description: "Test fixture built for ABI 0.4.0".into(),
            formats: vec!["v4-echo".into(), "v4-string".into()],
            extensions: vec![],
            content_types: vec![],
            capabilities: vec![],
            memory_limit_mib: Some(32),
            timeout_ms: None,
            consumes: vec!["page:cleaned-tokens".into()],
            parser: None,
        }
    }

    fn render(format: String, page: Page, _options: String) -> Result<Rendered, PluginError> {
        let value = match format.as_str() {
            "v4-echo" => format!(
                "{{\"abi\":\"0.4.0\",\"tokenOps\":{}}}",
                page.cleaned_tokens.ops.len()
            ),
            "v4-string" => "\"0.4 says \\\"hi\\\"\\nline two\"".to_string(),
            other => return Err(PluginError::InvalidOptions(format!("unknown format {other}"))),
        };
        Ok(Rendered {
            value,
            warnings: vec![],
        })
    }
}

export!(AbiV4);
