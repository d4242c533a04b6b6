//! Test fixture: format `strict` declares its own limits — 1500 ms per call and
//! 16 MiB of memory — so tests can show that a plugin's declared limits are
//! enforced even when the request would allow more. Option `mode`: "loop"
//! (spin forever), "grow" (allocate 32 MiB), anything else returns "ok".

use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value};

struct Strict;

impl FormatPlugin for Strict {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Test plugin with a 1500 ms / 16 MiB limit of its own.")
            .format("strict")
            .timeout_ms(1500)
            .memory_limit_mib(16)
    }

    fn render(_format: &str, _page: &Page, options: &Value) -> Result<Value, PluginError> {
        match options.get("mode").and_then(Value::as_str) {
            Some("loop") => {
                let mut x: u64 = 0;
                loop {
                    x = std::hint::black_box(x.wrapping_add(1));
                }
            }
            Some("grow") => {
                let big = vec![7u8; 32 << 20];
                Ok(Value::from(std::hint::black_box(big).len()))
            }
            _ => Ok(Value::String("ok".into())),
        }
    }
}

distill_sdk::export_plugin!(format: Strict);
