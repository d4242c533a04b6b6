//! Test fixture: converter for `.crashy` files with a 32 MiB memory cap of its
//! own. The file's first line says what to do: `panic`, `loop` (spin until the
//! deadline), `grow` (allocate 256 MiB), `fail` (return a failure); anything
//! else is returned as a paragraph.

use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value};

struct Crashy;

impl ConverterPlugin for Crashy {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Test converter that misbehaves on request.")
            .extension("crashy")
            .memory_limit_mib(32)
    }

    fn convert(file: &FileInput, _options: &Value) -> Result<Document, PluginError> {
        let text = String::from_utf8_lossy(&file.bytes);
        match text.lines().next().unwrap_or("").trim() {
            "panic" => panic!("crashy was asked to panic"),
            "loop" => {
                let mut x: u64 = 0;
                loop {
                    x = std::hint::black_box(x.wrapping_add(1));
                }
            }
            "grow" => {
                let big = vec![1u8; 256 << 20];
                Ok(Document::html(format!(
                    "<p>{}</p>",
                    std::hint::black_box(big).len()
                )))
            }
            "fail" => Err(PluginError::Failed("crashy failed on purpose".into())),
            other => Ok(Document::html(format!("<p>{}</p>", other.replace('<', "&lt;")))),
        }
    }
}

distill_sdk::export_plugin!(converter: Crashy);
