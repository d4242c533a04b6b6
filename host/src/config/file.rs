//! The optional TOML configuration file (`--config`, `DISTILL_CONFIG`): the same
//! settings as the command line, snake_case keys, unknown keys refused.

use serde::Deserialize;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

/// The same settings as read from a TOML file.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct FileConfig {
    pub(super) host: Option<IpAddr>,
    pub(super) port: Option<u16>,
    pub(super) plugins_dir: Option<PathBuf>,
    pub(super) data_dir: Option<PathBuf>,
    pub(super) wasm_cache_dir: Option<PathBuf>,
    pub(super) allow_private_targets: Option<bool>,
    pub(super) allow_target_cidrs: Option<String>,
    pub(super) log: Option<String>,
    pub(super) log_format: Option<String>,
    pub(super) plugin_memory_mib: Option<u64>,
    pub(super) plugin_max_memory_mib: Option<u64>,
    pub(super) plugin_concurrency: Option<usize>,
    pub(super) plugin_memory_reservation_mib: Option<u64>,
    pub(super) plugin_keep_resident_kib: Option<usize>,
    pub(super) plugin_warm_slots: Option<u32>,
    pub(super) serving_threads: Option<usize>,
    pub(super) max_page_bytes: Option<u64>,
    pub(super) max_page_nodes: Option<usize>,
    pub(super) user_agent: Option<String>,
    pub(super) admin_key: Option<String>,
    pub(super) watch_plugins: Option<bool>,
    pub(super) allowed_capabilities: Option<Vec<String>>,
    pub(super) llm_base_url: Option<String>,
    pub(super) llm_api_key: Option<String>,
    pub(super) llm_model: Option<String>,
    pub(super) llm_max_tokens: Option<u32>,
    pub(super) llm_format_models: Option<String>,
    pub(super) llm_context_tokens: Option<u32>,
    pub(super) llm_timeout_ms: Option<u64>,
    pub(super) llm_concurrency: Option<usize>,
    pub(super) llm_retries: Option<u32>,
    pub(super) chromium: Option<PathBuf>,
    pub(super) chromium_args: Option<String>,
    pub(super) browser_pages: Option<usize>,
    pub(super) browser_memory_mib: Option<u64>,
    pub(super) browser_js_heap_mib: Option<u64>,
    pub(super) browser_spare_idle_ms: Option<u64>,
    pub(super) browser_spare_pages: Option<usize>,
    pub(super) browser_spare_ahead: Option<String>,
    pub(super) browser_fallback: Option<bool>,
    pub(super) public_url: Option<String>,
    pub(super) cache_url: Option<String>,
    pub(super) cache_max_mib: Option<u64>,
    pub(super) cache_hot_mib: Option<u64>,
    pub(super) cache_ttl_days: Option<u64>,
    pub(super) change_tracking_ttl_days: Option<u64>,
    pub(super) media_max_mib: Option<u64>,
    pub(super) media_link_ttl_secs: Option<u64>,
    pub(super) media_signing_key: Option<String>,
    pub(super) media_signing_key_previous: Option<String>,
    pub(super) ffmpeg: Option<PathBuf>,
    pub(super) ffmpeg_memory_mib: Option<u64>,
    pub(super) keys_file: Option<PathBuf>,
    pub(super) allow_anonymous: Option<bool>,
    pub(super) limits_url: Option<String>,
    pub(super) concurrency_queue: Option<usize>,
    pub(super) audit_log: Option<PathBuf>,
    pub(super) audit_max_mib: Option<u64>,
    pub(super) audit_keep: Option<usize>,
    pub(super) proxy_basic: Option<String>,
    pub(super) proxy_enhanced: Option<String>,
}

pub(super) fn read_file(path: &Path) -> anyhow::Result<FileConfig> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("reading config file {}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| anyhow::anyhow!("config file {}: {e}", path.display()))
}
