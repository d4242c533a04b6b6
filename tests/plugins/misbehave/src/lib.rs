//! A deliberately bad format plugin, for sandbox tests only.
//!
//! Format `misbehave` with option `mode`:
//! - `"ok"`: returns `"fine"`;
//! - `"trap"`: panics (a wasm trap);
//! - `"loop"`: spins forever (stopped by the host's deadline);
//! - `"oom"`: allocates without bound (stopped by the host's memory cap);
//! - `"error"`: returns a typed plugin error;
//! - `"llm"`: calls the `llm` capability (declared) and reports `{"ok": text}`
//!   or `{"error": why}`;
//! - `"escape"`: tries the filesystem, the network, the environment and the
//!   clock, and reports what it got as `{"fs": ..., "net": ..., "env": ..., "clock": ...}`
//!   (option `target`: a `host:port` to try connecting to).

use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value};

struct Misbehave;

impl FormatPlugin for Misbehave {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Test plugin that traps, loops or exhausts memory on request.")
            .format("misbehave")
            .memory_limit_mib(64)
            .capability("llm")
    }

    fn render(_format: &str, page: &Page, options: &Value) -> Result<Value, PluginError> {
        match options.get("mode").and_then(Value::as_str).unwrap_or("ok") {
            "ok" => Ok(Value::String("fine".into())),
            // Logs the page's URL and the start of its HTML, by the log API
            // and on stderr (the zero-data-retention tests grep for them).
            "log" => {
                let head: String = page.raw_html.chars().take(60).collect();
                distill_sdk::log::info(&format!("misbehave log: {} {head}", page.final_url));
                eprintln!("misbehave stderr: {}", page.final_url);
                Ok(Value::String("logged".into()))
            }
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
            "llm" => {
                let request =
                    distill_sdk::llm::Request::new(vec![distill_sdk::llm::Message::new("user", "Say hi.")])
                        .max_tokens(8);
                Ok(match distill_sdk::llm::complete(&request) {
                    Ok(text) => distill_sdk::json!({ "ok": text }),
                    Err(e) => distill_sdk::json!({ "error": e }),
                })
            }
            "escape" => Ok(escape(
                options
                    .get("target")
                    .and_then(Value::as_str)
                    .unwrap_or("127.0.0.1:80"),
            )),
            other => Err(PluginError::InvalidOptions(format!("unknown mode '{other}'"))),
        }
    }
}

/// Tries every way out of the sandbox and reports the outcome of each.
fn escape(target: &str) -> Value {
    let fs = match std::fs::read_dir("/") {
        Ok(entries) => format!("listed {} entries of /", entries.count()),
        Err(e) => format!("error: {e}"),
    };
    let fs_write = match std::fs::write("/tmp/distill-escape", b"x") {
        Ok(()) => "wrote /tmp/distill-escape".to_string(),
        Err(e) => format!("error: {e}"),
    };
    let net = match std::net::TcpStream::connect(target) {
        Ok(_) => format!("connected to {target}"),
        Err(e) => format!("error: {e}"),
    };
    let env: Vec<String> = std::env::vars().map(|(k, _)| k).collect();
    let args: Vec<String> = std::env::args().collect();
    let clock = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    distill_sdk::json!({
        "fs": fs,
        "fsWrite": fs_write,
        "net": net,
        "env": env,
        "args": args,
        "clock": clock,
    })
}

distill_sdk::export_plugin!(format: Misbehave);
