//! A deliberately bad format plugin, for sandbox tests only.
//!
//! Format `misbehave` with option `mode`:
//! - `"ok"`: returns `"fine"`;
//! - `"trap"`: panics (a wasm trap);
//! - `"loop"`: spins forever (stopped by the host's deadline);
//! - `"oom"`: allocates without bound (stopped by the host's memory cap);
//! - `"error"`: returns a typed plugin error.

use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value};

struct Misbehave;

impl FormatPlugin for Misbehave {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Test plugin that traps, loops or exhausts memory on request.")
            .format("misbehave")
            .memory_limit_mib(64)
    }

    fn render(_format: &str, _page: &Page, options: &Value) -> Result<Value, PluginError> {
        match options.get("mode").and_then(Value::as_str).unwrap_or("ok") {
            "ok" => Ok(Value::String("fine".into())),
            "trap" => panic!("misbehave: deliberate panic"),
            "loop" => {
                let mut x: u64 = 0;
                loop {
                    x = std::hint::black_box(x.wrapping_add(1));
                }
            }
            "oom" => {
                let mut hoard: Vec<Vec<u8>> = Vec::new();
                loop {
                    hoard.push(vec![1u8; 8 << 20]);
                    std::hint::black_box(&hoard);
                }
            }
            "error" => Err(PluginError::Failed("deliberate failure".into())),
            other => Err(PluginError::InvalidOptions(format!("unknown mode '{other}'"))),
        }
    }
}

distill_sdk::export_plugin!(format: Misbehave);
