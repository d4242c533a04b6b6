//! The plugin runtime as the server builds it (`PluginRuntime::new` with the
//! default limits and a code cache, `load_all`), loaded from a bench plugins
//! directory holding copies of the shipped `markdown.wasm` and the test
//! plugin `misbehave.wasm`; plus helpers to build a [`Page`] and call `render`.

use distill::plugins::bindings::{Page, PageTokens};
use distill::plugins::{LoadedPlugin, PluginRuntime, RuntimeLimits};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long any single benchmark plugin call may take before it is abandoned.
pub const CALL_DEADLINE: Duration = Duration::from_secs(60);

/// The runtime and the two plugins the benchmarks call.
pub struct Plugins {
    pub runtime: PluginRuntime,
    pub markdown: Arc<LoadedPlugin>,
    /// `None` when `misbehave.wasm` is not built.
    pub misbehave: Option<Arc<LoadedPlugin>>,
}

impl Plugins {
    /// Copies the components into `work_dir/plugins` and loads them with the
    /// code cache in `work_dir/wasm-cache` (the server's layout).
    pub async fn load(
        markdown_wasm: &Path,
        misbehave_wasm: &Path,
        work_dir: &Path,
    ) -> anyhow::Result<Plugins> {
        let dir = work_dir.join("plugins");
        std::fs::create_dir_all(&dir)?;
        for entry in std::fs::read_dir(&dir)?.flatten() {
            if entry.path().extension().is_some_and(|e| e == "wasm") {
                std::fs::remove_file(entry.path())?;
            }
        }
        std::fs::copy(markdown_wasm, dir.join("markdown.wasm"))
            .map_err(|e| anyhow::anyhow!("{}: {e} (run `make build` first)", markdown_wasm.display()))?;
        let have_misbehave = misbehave_wasm.is_file();
        if have_misbehave {
            std::fs::copy(misbehave_wasm, dir.join("misbehave.wasm"))?;
        }
        let runtime = PluginRuntime::new(&dir, Some(&work_dir.join("wasm-cache")), limits_from_env())?;
        let registry = runtime.load_all().await;
        let markdown = registry
            .format("markdown")
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("markdown plugin did not load from {}", dir.display()))?;
        let misbehave = registry.format("misbehave").cloned();
        if have_misbehave && misbehave.is_none() {
            anyhow::bail!("misbehave plugin did not load from {}", dir.display());
        }
        Ok(Plugins {
            runtime,
            markdown,
            misbehave,
        })
    }

    /// One `render` exactly as the server's pipeline makes it (fresh
    /// instance), the value taken as the pipeline takes it (JSON text parsed,
    /// a text value as it is); a value that is not JSON is an error.
    pub async fn render(
        &self,
        plugin: &LoadedPlugin,
        format: &str,
        page: &Page,
        options: &str,
    ) -> Result<Value, String> {
        let rendered = self
            .runtime
            .render(
                plugin,
                format,
                page,
                options,
                "bench",
                Instant::now() + CALL_DEADLINE,
            )
            .await
            .map_err(|e| e.to_string())?;
        rendered.value.into_value().map_err(|e| e.to_string())
    }
}

/// The default limits, with the server's pool settings taken from the same
/// environment variables (`DISTILL_PLUGIN_KEEP_RESIDENT_KIB`,
/// `DISTILL_PLUGIN_MEMORY_RESERVATION_MIB`) so their effect can be measured.
fn limits_from_env() -> RuntimeLimits {
    let mut limits = RuntimeLimits::default();
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    if let Some(kib) = var("DISTILL_PLUGIN_KEEP_RESIDENT_KIB") {
        limits.keep_resident_kib = kib as usize;
    }
    if let Some(mib) = var("DISTILL_PLUGIN_MEMORY_RESERVATION_MIB") {
        limits.memory_reservation_mib = mib;
    }
    limits
}

/// A page record whose `cleaned_html` is `html` (what the markdown plugin
/// converts); `raw_html` is left empty so both benchmark paths get the same input.
pub fn page_with_cleaned(url: &str, html: &str) -> Page {
    page(url, "", html, "{}")
}

/// A page record carrying the cleaned page as tokens only (ABI 0.4), as the
/// server fills it for a plugin that reads `page:cleaned-tokens`.
pub fn page_with_tokens(url: &str, (ops, text): &(Vec<u8>, String)) -> Page {
    let mut page = page(url, "", "", "{}");
    page.cleaned_tokens = PageTokens {
        ops: ops.clone(),
        text: text.clone(),
    };
    page
}

/// A page record as the server's pipeline fills it for a 200 `text/html` response.
/// (The one place the bench builds the host's `Page` type.)
pub fn page(url: &str, raw_html: &str, cleaned_html: &str, metadata_json: &str) -> Page {
    Page {
        requested_url: url.to_string(),
        final_url: url.to_string(),
        status_code: 200,
        content_type: Some("text/html; charset=utf-8".into()),
        raw_html: raw_html.to_string(),
        cleaned_html: cleaned_html.to_string(),
        cleaned_tokens: PageTokens {
            ops: Vec::new(),
            text: String::new(),
        },
        metadata: metadata_json.to_string(),
        inputs: Vec::new(),
    }
}
