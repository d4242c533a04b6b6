//! Server configuration: command-line flags, `DISTILL_*` environment variables
//! and an optional TOML file, in that order of precedence, over built-in
//! defaults. Every setting has a default, so `distill` runs with none.

use clap::Parser;
use serde::Deserialize;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Command line and environment. Every field is optional so the TOML file and
/// the defaults can fill the gaps.
#[derive(Parser, Debug, Default)]
#[command(
    name = "distill",
    version,
    about = "Web content extraction server speaking the Firecrawl v2 API"
)]
pub struct Cli {
    /// TOML configuration file (keys as in the table in README.md, snake_case).
    #[arg(long, env = "DISTILL_CONFIG", global = true)]
    pub config: Option<PathBuf>,
    /// Address to listen on.
    #[arg(long, env = "DISTILL_HOST")]
    pub host: Option<IpAddr>,
    /// Port to listen on (0 picks a free port).
    #[arg(long, env = "DISTILL_PORT")]
    pub port: Option<u16>,
    /// Directory of plugin components (*.wasm).
    #[arg(long, env = "DISTILL_PLUGINS_DIR")]
    pub plugins_dir: Option<PathBuf>,
    /// Directory for state: compiled-plugin cache, page cache, keys, limits.
    #[arg(long, env = "DISTILL_DATA_DIR", global = true)]
    pub data_dir: Option<PathBuf>,
    /// Directory of compiled plugin code (default: DATA_DIR/wasm-cache). Several
    /// servers may share one.
    #[arg(long, env = "DISTILL_WASM_CACHE_DIR")]
    pub wasm_cache_dir: Option<PathBuf>,
    /// Allow scraping loopback, private, link-local and metadata addresses.
    #[arg(long, env = "DISTILL_ALLOW_PRIVATE_TARGETS", num_args = 0..=1, default_missing_value = "true")]
    pub allow_private_targets: Option<bool>,
    /// Address ranges allowed even when private targets are refused:
    /// comma-separated CIDRs or addresses, e.g. `10.0.5.0/24,127.0.0.1`.
    #[arg(long, env = "DISTILL_ALLOW_TARGET_CIDRS")]
    pub allow_target_cidrs: Option<String>,
    /// Log filter (tracing env-filter syntax), e.g. "info" or "distill=debug".
    #[arg(long, env = "DISTILL_LOG")]
    pub log: Option<String>,
    /// Log format: "text" or "json".
    #[arg(long, env = "DISTILL_LOG_FORMAT")]
    pub log_format: Option<String>,
    /// Memory cap per plugin call when the plugin declares none, in MiB.
    #[arg(long, env = "DISTILL_PLUGIN_MEMORY_MIB")]
    pub plugin_memory_mib: Option<u64>,
    /// Highest memory cap any plugin call may have, in MiB.
    #[arg(long, env = "DISTILL_PLUGIN_MAX_MEMORY_MIB")]
    pub plugin_max_memory_mib: Option<u64>,
    /// Plugin calls running at once, of formats and of converters each
    /// (default: two per CPU, at least four).
    #[arg(long, env = "DISTILL_PLUGIN_CONCURRENCY")]
    pub plugin_concurrency: Option<usize>,
    /// Address space reserved per plugin memory slot, in MiB (4096: no bounds
    /// checks in plugin code; less: smaller reservations, e.g. for valgrind).
    #[arg(long, env = "DISTILL_PLUGIN_MEMORY_RESERVATION_MIB")]
    pub plugin_memory_reservation_mib: Option<u64>,
    /// Memory kept mapped per plugin memory slot between calls, in KiB.
    #[arg(long, env = "DISTILL_PLUGIN_KEEP_RESIDENT_KIB")]
    pub plugin_keep_resident_kib: Option<usize>,
    /// Idle plugin memory slots kept warm (each keeps up to the resident KiB above).
    #[arg(long, env = "DISTILL_PLUGIN_WARM_SLOTS")]
    pub plugin_warm_slots: Option<u32>,
    /// Largest page body fetched, in bytes.
    #[arg(long, env = "DISTILL_MAX_PAGE_BYTES")]
    pub max_page_bytes: Option<u64>,
    /// User-Agent sent when the request gives none.
    #[arg(long, env = "DISTILL_USER_AGENT")]
    pub user_agent: Option<String>,
    /// Key for the admin API (`Authorization: Bearer KEY`); unset disables it.
    #[arg(long, env = "DISTILL_ADMIN_KEY", hide_env_values = true)]
    pub admin_key: Option<String>,
    /// Watch the plugins directory and hot-swap changed plugins.
    #[arg(long, env = "DISTILL_WATCH_PLUGINS", num_args = 0..=1, default_missing_value = "true")]
    pub watch_plugins: Option<bool>,
    /// Host capabilities plugins may be granted (comma-separated; "none" for none).
    #[arg(long, env = "DISTILL_ALLOWED_CAPABILITIES", value_delimiter = ',')]
    pub allowed_capabilities: Option<Vec<String>>,
    /// OpenAI-compatible endpoint for the `llm` capability, e.g. http://127.0.0.1:8080/v1.
    #[arg(long, env = "DISTILL_LLM_BASE_URL")]
    pub llm_base_url: Option<String>,
    /// API key for the LLM endpoint.
    #[arg(long, env = "DISTILL_LLM_API_KEY", hide_env_values = true)]
    pub llm_api_key: Option<String>,
    /// Model name sent to the LLM endpoint.
    #[arg(long, env = "DISTILL_LLM_MODEL")]
    pub llm_model: Option<String>,
    /// Most tokens one LLM call may generate.
    #[arg(long, env = "DISTILL_LLM_MAX_TOKENS")]
    pub llm_max_tokens: Option<u32>,
    /// Per-format models, e.g. `json=gpt-4o,summary=gpt-4o-mini` (others use DISTILL_LLM_MODEL).
    #[arg(long, env = "DISTILL_LLM_FORMAT_MODELS")]
    pub llm_format_models: Option<String>,
    /// The model's context window in tokens (default 8192); longer prompts are cut to fit.
    #[arg(long, env = "DISTILL_LLM_CONTEXT_TOKENS")]
    pub llm_context_tokens: Option<u32>,
    /// Longest one model request may take, in milliseconds (default 120000).
    #[arg(long, env = "DISTILL_LLM_TIMEOUT_MS")]
    pub llm_timeout_ms: Option<u64>,
    /// Most model requests in flight at once (default 4).
    #[arg(long, env = "DISTILL_LLM_CONCURRENCY")]
    pub llm_concurrency: Option<usize>,
    /// Retries after a 429, a 5xx or a failed connection (default 2).
    #[arg(long, env = "DISTILL_LLM_RETRIES")]
    pub llm_retries: Option<u32>,
    /// The Chromium binary of the browser engine (default /usr/bin/chromium).
    #[arg(long, env = "DISTILL_CHROMIUM")]
    pub chromium: Option<PathBuf>,
    /// Extra Chromium command-line flags, shell-quoted, e.g.
    /// `--host-resolver-rules='MAP *.test 127.0.0.1'` (docs/BROWSER.md).
    #[arg(long, env = "DISTILL_CHROMIUM_ARGS")]
    pub chromium_args: Option<String>,
    /// Most browser pages open at once (default 4).
    #[arg(long, env = "DISTILL_BROWSER_PAGES")]
    pub browser_pages: Option<usize>,
    /// Chromium's memory budget in MiB (PSS of its process tree, default
    /// 1024): over it Chromium is restarted between requests; over twice it
    /// the largest page's renderer is killed at once. 0: no budget.
    #[arg(long, env = "DISTILL_BROWSER_MEMORY_MIB")]
    pub browser_memory_mib: Option<u64>,
    /// The JavaScript heap of one browser page in MiB (default 512).
    #[arg(long, env = "DISTILL_BROWSER_JS_HEAP_MIB")]
    pub browser_js_heap_mib: Option<u64>,
    /// How long the spare browser page (a fresh context opened after a
    /// scrape for the next one) is kept unused, ms (default 1000; 0: no spare).
    #[arg(long, env = "DISTILL_BROWSER_SPARE_IDLE_MS")]
    pub browser_spare_idle_ms: Option<u64>,
    /// Most spare browser pages open at once while scrapes keep coming
    /// (default 1; docs/API.md).
    #[arg(long, env = "DISTILL_BROWSER_SPARE_PAGES")]
    pub browser_spare_pages: Option<usize>,
    /// When a spare opens beside a working page, besides after a scrape:
    /// `never` (default), `waited` (when a request had to wait for its
    /// spare), `always` (docs/API.md).
    #[arg(long, env = "DISTILL_BROWSER_SPARE_AHEAD")]
    pub browser_spare_ahead: Option<String>,
    /// Fetch a page again with the browser when the HTTP engine's result
    /// looks script-rendered (default: on; the browser goes through the same
    /// proxy pools as the HTTP engine).
    #[arg(long, env = "DISTILL_BROWSER_FALLBACK", num_args = 0..=1, default_missing_value = "true")]
    pub browser_fallback: Option<bool>,
    /// The server's address as clients reach it, for media URLs
    /// (default http://HOST:PORT).
    #[arg(long, env = "DISTILL_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Shared page cache, e.g. redis://127.0.0.1:6379/0 (unset: the embedded
    /// store in DATA_DIR/cache).
    #[arg(long, env = "DISTILL_CACHE_URL", hide_env_values = true)]
    pub cache_url: Option<String>,
    /// Cap on the embedded page cache file's contents, in MiB (oldest evicted first).
    #[arg(long, env = "DISTILL_CACHE_MAX_MIB")]
    pub cache_max_mib: Option<u64>,
    /// Cap on the in-memory hot tier of the embedded cache, in MiB.
    #[arg(long, env = "DISTILL_CACHE_HOT_MIB")]
    pub cache_hot_mib: Option<u64>,
    /// How long cached pages are kept, in days (default 730: lockdown's
    /// two-year maxAge reaches them; the size cap evicts oldest first before
    /// that when the cache fills). maxAge still decides what a request accepts.
    #[arg(long, env = "DISTILL_CACHE_TTL_DAYS")]
    pub cache_ttl_days: Option<u64>,
    /// How long change tracking remembers a page's previous scrape, in days.
    #[arg(long, env = "DISTILL_CHANGE_TRACKING_TTL_DAYS")]
    pub change_tracking_ttl_days: Option<u64>,
    /// Largest media file the audio/video formats fetch, in MiB (default 100).
    #[arg(long, env = "DISTILL_MEDIA_MAX_MIB")]
    pub media_max_mib: Option<u64>,
    /// How long signed audio/video links (and their files) live, in seconds (default 3600).
    #[arg(long, env = "DISTILL_MEDIA_LINK_TTL_SECS")]
    pub media_link_ttl_secs: Option<u64>,
    /// Secret signing audio/video links (default: generated into DATA_DIR/media-signing.key).
    #[arg(long, env = "DISTILL_MEDIA_SIGNING_KEY", hide_env_values = true)]
    pub media_signing_key: Option<String>,
    /// The previous signing secret, still accepted while links it signed live (key rotation).
    #[arg(long, env = "DISTILL_MEDIA_SIGNING_KEY_PREVIOUS", hide_env_values = true)]
    pub media_signing_key_previous: Option<String>,
    /// The ffmpeg binary (ffprobe is taken from its directory; default /usr/bin/ffmpeg).
    #[arg(long, env = "DISTILL_FFMPEG")]
    pub ffmpeg: Option<PathBuf>,
    /// ffmpeg's memory (address-space) cap, in MiB (default 1024).
    #[arg(long, env = "DISTILL_FFMPEG_MEMORY_MIB")]
    pub ffmpeg_memory_mib: Option<u64>,
    /// The API keys file (default DATA_DIR/keys.json); `distill keys` writes it.
    #[arg(long, env = "DISTILL_KEYS_FILE", global = true)]
    pub keys_file: Option<PathBuf>,
    /// Serve a non-loopback address without any API key.
    #[arg(long, env = "DISTILL_ALLOW_ANONYMOUS", num_args = 0..=1, default_missing_value = "true")]
    pub allow_anonymous: Option<bool>,
    /// Where rate, credit and concurrency counters live: redis://... (default:
    /// DISTILL_CACHE_URL when set, else the embedded store in DATA_DIR/limits).
    #[arg(long, env = "DISTILL_LIMITS_URL", hide_env_values = true, global = true)]
    pub limits_url: Option<String>,
    /// Scrapes of one key that may wait for a concurrency slot, per server.
    #[arg(long, env = "DISTILL_CONCURRENCY_QUEUE")]
    pub concurrency_queue: Option<usize>,
    /// Audit log file (JSON lines); unset: no audit log.
    #[arg(long, env = "DISTILL_AUDIT_LOG")]
    pub audit_log: Option<PathBuf>,
    /// Rotate the audit log past this size, in MiB.
    #[arg(long, env = "DISTILL_AUDIT_MAX_MIB")]
    pub audit_max_mib: Option<u64>,
    /// Rotated audit files kept.
    #[arg(long, env = "DISTILL_AUDIT_KEEP")]
    pub audit_keep: Option<usize>,
    /// The basic proxy pool: `[CC=]scheme://[user:pass@]host:port` entries,
    /// comma-separated (docs/OPERATORS.md, "Proxies").
    #[arg(long, env = "DISTILL_PROXY_BASIC", hide_env_values = true)]
    pub proxy_basic: Option<String>,
    /// The enhanced proxy pool, in the same format.
    #[arg(long, env = "DISTILL_PROXY_ENHANCED", hide_env_values = true)]
    pub proxy_enhanced: Option<String>,
    /// An operator command instead of serving.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Operator commands.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// API keys: create, list, revoke (the server picks up changes at once).
    Keys {
        #[command(subcommand)]
        action: KeysAction,
    },
}

/// `distill keys ...`.
#[derive(clap::Subcommand, Debug)]
pub enum KeysAction {
    /// Creates a key and prints it (only it) on stdout; it is shown once.
    Create {
        #[arg(long)]
        name: String,
        /// Credits the key may spend (default: unlimited).
        #[arg(long)]
        credits: Option<u64>,
        /// Requests per minute per endpoint class (default: unlimited).
        #[arg(long)]
        rpm: Option<u64>,
        /// Scrapes running at once (default: unlimited).
        #[arg(long)]
        concurrency: Option<u64>,
    },
    /// Lists keys (id, name, prefix, limits, credits used) as JSON lines.
    List,
    /// Revokes a key by id or name.
    Revoke { id: String },
}

/// The same settings as read from a TOML file.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    host: Option<IpAddr>,
    port: Option<u16>,
    plugins_dir: Option<PathBuf>,
    data_dir: Option<PathBuf>,
    wasm_cache_dir: Option<PathBuf>,
    allow_private_targets: Option<bool>,
    allow_target_cidrs: Option<String>,
    log: Option<String>,
    log_format: Option<String>,
    plugin_memory_mib: Option<u64>,
    plugin_max_memory_mib: Option<u64>,
    plugin_concurrency: Option<usize>,
    plugin_memory_reservation_mib: Option<u64>,
    plugin_keep_resident_kib: Option<usize>,
    plugin_warm_slots: Option<u32>,
    max_page_bytes: Option<u64>,
    user_agent: Option<String>,
    admin_key: Option<String>,
    watch_plugins: Option<bool>,
    allowed_capabilities: Option<Vec<String>>,
    llm_base_url: Option<String>,
    llm_api_key: Option<String>,
    llm_model: Option<String>,
    llm_max_tokens: Option<u32>,
    llm_format_models: Option<String>,
    llm_context_tokens: Option<u32>,
    llm_timeout_ms: Option<u64>,
    llm_concurrency: Option<usize>,
    llm_retries: Option<u32>,
    chromium: Option<PathBuf>,
    chromium_args: Option<String>,
    browser_pages: Option<usize>,
    browser_memory_mib: Option<u64>,
    browser_js_heap_mib: Option<u64>,
    browser_spare_idle_ms: Option<u64>,
    browser_spare_pages: Option<usize>,
    browser_spare_ahead: Option<String>,
    browser_fallback: Option<bool>,
    public_url: Option<String>,
    cache_url: Option<String>,
    cache_max_mib: Option<u64>,
    cache_hot_mib: Option<u64>,
    cache_ttl_days: Option<u64>,
    change_tracking_ttl_days: Option<u64>,
    media_max_mib: Option<u64>,
    media_link_ttl_secs: Option<u64>,
    media_signing_key: Option<String>,
    media_signing_key_previous: Option<String>,
    ffmpeg: Option<PathBuf>,
    ffmpeg_memory_mib: Option<u64>,
    keys_file: Option<PathBuf>,
    allow_anonymous: Option<bool>,
    limits_url: Option<String>,
    concurrency_queue: Option<usize>,
    audit_log: Option<PathBuf>,
    audit_max_mib: Option<u64>,
    audit_keep: Option<usize>,
    proxy_basic: Option<String>,
    proxy_enhanced: Option<String>,
}

/// Log output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

/// The effective configuration.
#[derive(Debug, Clone)]
pub struct Config {
    pub host: IpAddr,
    pub port: u16,
    pub plugins_dir: PathBuf,
    pub data_dir: PathBuf,
    /// Compiled plugin code (wasmtime's cache).
    pub wasm_cache_dir: PathBuf,
    pub allow_private_targets: bool,
    /// Ranges allowed even when private targets are refused.
    pub allow_target_cidrs: &'static [ipnet::IpNet],
    pub log: String,
    pub log_format: LogFormat,
    pub plugin_memory_mib: u64,
    pub plugin_max_memory_mib: u64,
    pub plugin_concurrency: usize,
    /// See [`crate::plugins::RuntimeLimits::memory_reservation_mib`].
    pub plugin_memory_reservation_mib: u64,
    /// See [`crate::plugins::RuntimeLimits::keep_resident_kib`].
    pub plugin_keep_resident_kib: usize,
    /// See [`crate::plugins::RuntimeLimits::warm_slots`].
    pub plugin_warm_slots: u32,
    pub max_page_bytes: u64,
    pub user_agent: String,
    pub admin_key: Option<String>,
    pub watch_plugins: bool,
    /// Capabilities the operator lets plugins have (a plugin still has to ask).
    pub allowed_capabilities: Vec<String>,
    /// The LLM behind the `llm` capability, if configured.
    pub llm: Option<crate::llm::LlmConfig>,
    /// The browser engine's Chromium binary.
    pub chromium: PathBuf,
    /// Extra Chromium flags (`DISTILL_CHROMIUM_ARGS`).
    pub chromium_args: Vec<String>,
    /// Most browser pages open at once.
    pub browser_pages: usize,
    /// Chromium's memory budget in MiB (0: none).
    pub browser_memory_mib: u64,
    /// One page's JavaScript heap in MiB.
    pub browser_js_heap_mib: u64,
    /// How long an unused spare browser page is kept, ms (0: no spare).
    pub browser_spare_idle_ms: u64,
    /// Most spare browser pages at once.
    pub browser_spare_pages: usize,
    /// When spares open beside working pages: `waited`, `always` or `never`.
    pub browser_spare_ahead: String,
    /// Script-rendered HTTP results are fetched again with the browser.
    pub browser_fallback: bool,
    /// Base of the URLs of media files (screenshots, PDFs), no trailing
    /// slash; `None`: `http://` + the address the server is bound to.
    pub public_url: Option<String>,
    /// The page cache: backend, file, caps, time to live.
    pub cache: crate::cache::CacheSettings,
    /// How long change-tracking records live.
    pub change_tracking_ttl: Duration,
    /// API keys and the counters of their limits.
    pub limits: crate::limits::LimitSettings,
    /// Serve a non-loopback address without keys.
    pub allow_anonymous: bool,
    /// The audit log, when on.
    pub audit: Option<crate::audit::AuditSettings>,
    /// The audio/video formats' media settings (docs/MEDIA.md).
    pub media: MediaConfig,
    /// The operator's forward proxy pools (empty: fetch directly).
    pub proxies: std::sync::Arc<crate::proxy::ProxyPools>,
}

/// Settings of the `media` capability.
#[derive(Debug, Clone)]
pub struct MediaConfig {
    pub max_bytes: u64,
    pub link_ttl: Duration,
    pub signing_key: Option<String>,
    pub signing_key_previous: Option<String>,
    pub ffmpeg: PathBuf,
    pub ffmpeg_memory_bytes: u64,
}

/// Sent when the request has no User-Agent header of its own.
pub const DEFAULT_USER_AGENT: &str =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

impl Config {
    /// Reads flags and environment, then the TOML file if one is named.
    pub fn load() -> anyhow::Result<Config> {
        Config::from_cli(Cli::parse())
    }

    /// Resolves a parsed command line against the TOML file and the defaults.
    pub fn from_cli(cli: Cli) -> anyhow::Result<Config> {
        let file = match &cli.config {
            Some(path) => read_file(path)?,
            None => FileConfig::default(),
        };
        let log_format = match cli.log_format.or(file.log_format).as_deref() {
            None | Some("text") => LogFormat::Text,
            Some("json") => LogFormat::Json,
            Some(other) => anyhow::bail!("log format must be \"text\" or \"json\", not {other:?}"),
        };
        let config = Config {
            host: cli.host.or(file.host).unwrap_or(IpAddr::from([127, 0, 0, 1])),
            port: cli.port.or(file.port).unwrap_or(3002),
            plugins_dir: cli
                .plugins_dir
                .or(file.plugins_dir)
                .unwrap_or_else(default_plugins_dir),
            data_dir: cli
                .data_dir
                .or(file.data_dir)
                .unwrap_or_else(|| PathBuf::from("distill-data")),
            wasm_cache_dir: cli.wasm_cache_dir.or(file.wasm_cache_dir).unwrap_or_default(),
            allow_private_targets: cli
                .allow_private_targets
                .or(file.allow_private_targets)
                .unwrap_or(false),
            allow_target_cidrs: &[],
            log: cli.log.or(file.log).unwrap_or_else(|| "info".to_string()),
            log_format,
            plugin_memory_mib: cli.plugin_memory_mib.or(file.plugin_memory_mib).unwrap_or(256),
            plugin_max_memory_mib: cli
                .plugin_max_memory_mib
                .or(file.plugin_max_memory_mib)
                .unwrap_or(1024),
            plugin_concurrency: cli
                .plugin_concurrency
                .or(file.plugin_concurrency)
                .unwrap_or_else(crate::plugins::limits::default_concurrent_calls),
            plugin_memory_reservation_mib: cli
                .plugin_memory_reservation_mib
                .or(file.plugin_memory_reservation_mib)
                .unwrap_or(crate::plugins::limits::DEFAULT_MEMORY_RESERVATION_MIB),
            plugin_keep_resident_kib: cli
                .plugin_keep_resident_kib
                .or(file.plugin_keep_resident_kib)
                .unwrap_or(crate::plugins::limits::DEFAULT_KEEP_RESIDENT_KIB),
            plugin_warm_slots: cli
                .plugin_warm_slots
                .or(file.plugin_warm_slots)
                .unwrap_or(crate::plugins::limits::DEFAULT_WARM_SLOTS),
            max_page_bytes: cli.max_page_bytes.or(file.max_page_bytes).unwrap_or(50 << 20),
            user_agent: cli
                .user_agent
                .or(file.user_agent)
                .unwrap_or_else(|| DEFAULT_USER_AGENT.to_string()),
            admin_key: cli.admin_key.or(file.admin_key).filter(|k| !k.is_empty()),
            watch_plugins: cli.watch_plugins.or(file.watch_plugins).unwrap_or(true),
            allowed_capabilities: cli
                .allowed_capabilities
                .or(file.allowed_capabilities)
                .unwrap_or_else(|| vec!["llm".to_string(), "media".to_string()])
                .into_iter()
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty() && c != "none")
                .collect(),
            llm: cli
                .llm_base_url
                .or(file.llm_base_url)
                .filter(|u| !u.is_empty())
                .map(|base_url| crate::llm::LlmConfig {
                    base_url,
                    api_key: cli.llm_api_key.or(file.llm_api_key).filter(|k| !k.is_empty()),
                    model: cli
                        .llm_model
                        .or(file.llm_model)
                        .unwrap_or_else(|| "default".to_string()),
                    max_tokens_cap: cli.llm_max_tokens.or(file.llm_max_tokens).unwrap_or(1024),
                    format_models: crate::llm::parse_format_models(
                        cli.llm_format_models
                            .as_deref()
                            .or(file.llm_format_models.as_deref()),
                    ),
                    context_tokens: cli.llm_context_tokens.or(file.llm_context_tokens).unwrap_or(8192),
                    timeout: Duration::from_millis(
                        cli.llm_timeout_ms.or(file.llm_timeout_ms).unwrap_or(120_000),
                    ),
                    concurrency: cli.llm_concurrency.or(file.llm_concurrency).unwrap_or(4).max(1),
                    retries: cli.llm_retries.or(file.llm_retries).unwrap_or(2),
                }),
            chromium: cli
                .chromium
                .or(file.chromium)
                .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium")),
            chromium_args: Vec::new(),
            browser_pages: cli.browser_pages.or(file.browser_pages).unwrap_or(4),
            browser_memory_mib: cli.browser_memory_mib.or(file.browser_memory_mib).unwrap_or(1024),
            browser_js_heap_mib: cli
                .browser_js_heap_mib
                .or(file.browser_js_heap_mib)
                .unwrap_or(512),
            browser_spare_idle_ms: cli
                .browser_spare_idle_ms
                .or(file.browser_spare_idle_ms)
                .unwrap_or(1000),
            browser_spare_pages: cli.browser_spare_pages.or(file.browser_spare_pages).unwrap_or(1),
            browser_spare_ahead: cli
                .browser_spare_ahead
                .or(file.browser_spare_ahead)
                .unwrap_or_else(|| "never".into()),
            // Set below (the command line wins over the file).
            browser_fallback: false,
            public_url: cli.public_url.or(file.public_url).filter(|u| !u.is_empty()),
            cache: crate::cache::CacheSettings {
                url: cli.cache_url.or(file.cache_url).filter(|u| !u.is_empty()),
                // Set below, once data_dir is absolute.
                path: PathBuf::new(),
                max_bytes: cli
                    .cache_max_mib
                    .or(file.cache_max_mib)
                    .unwrap_or(1024)
                    .saturating_mul(1 << 20),
                hot_max_bytes: cli
                    .cache_hot_mib
                    .or(file.cache_hot_mib)
                    .unwrap_or(crate::cache::store::DEFAULT_HOT_MIB)
                    .saturating_mul(1 << 20),
                ttl: days(
                    cli.cache_ttl_days
                        .or(file.cache_ttl_days)
                        .unwrap_or(crate::cache::store::DEFAULT_RETENTION_DAYS),
                ),
            },
            change_tracking_ttl: days(
                cli.change_tracking_ttl_days
                    .or(file.change_tracking_ttl_days)
                    .unwrap_or(3650),
            ),
            media: MediaConfig {
                max_bytes: cli
                    .media_max_mib
                    .or(file.media_max_mib)
                    .unwrap_or(100)
                    .saturating_mul(1 << 20),
                link_ttl: Duration::from_secs(
                    cli.media_link_ttl_secs
                        .or(file.media_link_ttl_secs)
                        .unwrap_or(3600),
                ),
                signing_key: cli
                    .media_signing_key
                    .or(file.media_signing_key)
                    .filter(|k| !k.is_empty()),
                signing_key_previous: cli
                    .media_signing_key_previous
                    .or(file.media_signing_key_previous)
                    .filter(|k| !k.is_empty()),
                ffmpeg: cli
                    .ffmpeg
                    .or(file.ffmpeg)
                    .unwrap_or_else(|| PathBuf::from("/usr/bin/ffmpeg")),
                ffmpeg_memory_bytes: cli
                    .ffmpeg_memory_mib
                    .or(file.ffmpeg_memory_mib)
                    .unwrap_or(1024)
                    .saturating_mul(1 << 20),
            },
            limits: crate::limits::LimitSettings {
                keys_file: cli.keys_file.or(file.keys_file).unwrap_or_default(),
                url: cli.limits_url.or(file.limits_url).filter(|u| !u.is_empty()),
                path: PathBuf::new(),
                queue_per_key: cli.concurrency_queue.or(file.concurrency_queue).unwrap_or(100),
            },
            allow_anonymous: cli.allow_anonymous.or(file.allow_anonymous).unwrap_or(false),
            audit: cli
                .audit_log
                .or(file.audit_log)
                .filter(|p| !p.as_os_str().is_empty())
                .map(|path| crate::audit::AuditSettings {
                    path,
                    max_bytes: cli
                        .audit_max_mib
                        .or(file.audit_max_mib)
                        .unwrap_or(100)
                        .max(1)
                        .saturating_mul(1 << 20),
                    keep: cli.audit_keep.or(file.audit_keep).unwrap_or(5),
                }),
            proxies: std::sync::Arc::new(crate::proxy::ProxyPools::parse(
                cli.proxy_basic.or(file.proxy_basic).as_deref(),
                cli.proxy_enhanced.or(file.proxy_enhanced).as_deref(),
            )?),
        };
        let mut config = config;
        config.browser_fallback = cli.browser_fallback.or(file.browser_fallback).unwrap_or(true);
        if let Some(list) = cli.allow_target_cidrs.or(file.allow_target_cidrs) {
            let parsed = crate::fetch::allowed_cidrs::parse(&list)
                .map_err(|e| anyhow::anyhow!("allow_target_cidrs: {e}"))?;
            // Parsed once per process; the guard is `Copy` and holds it by reference.
            config.allow_target_cidrs = parsed.leak();
        }
        if let Some(args) = cli.chromium_args.or(file.chromium_args) {
            config.chromium_args = shlex::split(&args)
                .ok_or_else(|| anyhow::anyhow!("chromium_args: unbalanced quotes in {args:?}"))?;
        }
        config.public_url = config.public_url.map(|u| u.trim_end_matches('/').to_string());
        // Relative paths are taken from the working directory at start.
        config.data_dir = std::path::absolute(&config.data_dir)?;
        if config.wasm_cache_dir.as_os_str().is_empty() {
            config.wasm_cache_dir = config.data_dir.join("wasm-cache");
        }
        config.wasm_cache_dir = std::path::absolute(&config.wasm_cache_dir)?;
        config.plugins_dir = std::path::absolute(&config.plugins_dir)?;
        config.cache.path = config.data_dir.join("cache").join("cache.redb");
        if config.limits.keys_file.as_os_str().is_empty() {
            config.limits.keys_file = config.data_dir.join("keys.json");
        }
        config.limits.keys_file = std::path::absolute(&config.limits.keys_file)?;
        config.limits.path = config.data_dir.join("limits").join("counters.redb");
        if config.limits.url.is_none() {
            config.limits.url = config.cache.url.clone();
        }
        if let Some(audit) = &mut config.audit {
            audit.path = std::path::absolute(&audit.path)?;
        }
        if let Some(url) = &config.cache.url {
            anyhow::ensure!(
                url.starts_with("redis://") || url.starts_with("rediss://") || url.starts_with("unix://"),
                "cache_url must be a redis:// URL"
            );
        }
        anyhow::ensure!(
            config.cache.max_bytes >= 1 << 20,
            "cache_max_mib must be at least 1"
        );
        anyhow::ensure!(
            config.plugin_memory_mib >= 1,
            "plugin_memory_mib must be at least 1"
        );
        anyhow::ensure!(
            config.plugin_max_memory_mib >= config.plugin_memory_mib,
            "plugin_max_memory_mib must be at least plugin_memory_mib"
        );
        anyhow::ensure!(
            config.plugin_memory_reservation_mib >= config.plugin_max_memory_mib,
            "plugin_memory_reservation_mib must be at least plugin_max_memory_mib"
        );
        anyhow::ensure!(config.browser_pages >= 1, "browser_pages must be at least 1");
        anyhow::ensure!(
            ["waited", "always", "never"].contains(&config.browser_spare_ahead.as_str()),
            "browser_spare_ahead must be waited, always or never"
        );
        anyhow::ensure!(
            config.browser_js_heap_mib >= 16,
            "browser_js_heap_mib must be at least 16"
        );
        anyhow::ensure!(
            config.media.max_bytes >= 1 << 20,
            "media_max_mib must be at least 1"
        );
        anyhow::ensure!(
            config.media.link_ttl >= Duration::from_secs(1),
            "media_link_ttl_secs must be at least 1"
        );
        anyhow::ensure!(
            config.media.ffmpeg_memory_bytes >= 64 << 20,
            "ffmpeg_memory_mib must be at least 64"
        );
        anyhow::ensure!(
            config.plugin_concurrency >= 1,
            "plugin_concurrency must be at least 1"
        );
        Ok(config)
    }
}

fn days(n: u64) -> Duration {
    Duration::from_secs(n.saturating_mul(86_400))
}

fn read_file(path: &Path) -> anyhow::Result<FileConfig> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("reading config file {}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| anyhow::anyhow!("config file {}: {e}", path.display()))
}

/// `plugins/` next to the executable: `make` puts the built components there.
fn default_plugins_dir() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join("plugins")))
        .unwrap_or_else(|| PathBuf::from("plugins"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_without_anything() {
        let c = Config::from_cli(Cli::default()).unwrap();
        assert_eq!(c.port, 3002);
        assert_eq!(c.host.to_string(), "127.0.0.1");
        assert!(!c.allow_private_targets);
        assert!(c.plugins_dir.ends_with("plugins"));
        assert_eq!(c.cache.url, None);
        assert!(c.cache.path.ends_with("distill-data/cache/cache.redb"));
        assert_eq!((c.cache.max_bytes, c.cache.hot_max_bytes), (1 << 30, 4 << 20));
        assert_eq!(c.cache.ttl, Duration::from_secs(730 * 86_400));
        // Lockdown's default maxAge reaches what the default retention keeps.
        let lockdown = Duration::from_millis(crate::api::scrape_request::LOCKDOWN_MAX_AGE_MS as u64);
        assert!(c.cache.ttl >= lockdown);
    }

    #[test]
    fn target_cidrs_and_chromium_args_are_parsed_or_refused() {
        let c = Config::from_cli(Cli {
            allow_target_cidrs: Some("127.0.0.1/32, 10.0.5.0/24".into()),
            chromium_args: Some("--host-resolver-rules='MAP ads.test 127.0.0.1' --foo".into()),
            ..Cli::default()
        })
        .unwrap();
        assert_eq!(c.allow_target_cidrs.len(), 2);
        assert_eq!(
            c.chromium_args,
            ["--host-resolver-rules=MAP ads.test 127.0.0.1", "--foo"]
        );
        let bad = Config::from_cli(Cli {
            allow_target_cidrs: Some("10.0.0.0/8,intranet".into()),
            ..Cli::default()
        })
        .unwrap_err();
        assert!(bad.to_string().contains("intranet"), "{bad}");
        let unbalanced = Cli {
            chromium_args: Some("--x='a".into()),
            ..Cli::default()
        };
        assert!(Config::from_cli(unbalanced).is_err());
        let defaults = Config::from_cli(Cli::default()).unwrap();
        assert!(defaults.allow_target_cidrs.is_empty() && defaults.chromium_args.is_empty());
    }

    #[test]
    fn the_browser_fallback_is_on_unless_turned_off() {
        assert!(Config::from_cli(Cli::default()).unwrap().browser_fallback);
        let proxied = |fallback| Cli {
            proxy_basic: Some("http://127.0.0.1:3128".into()),
            browser_fallback: fallback,
            ..Cli::default()
        };
        assert!(Config::from_cli(proxied(None)).unwrap().browser_fallback);
        assert!(Config::from_cli(proxied(Some(true))).unwrap().browser_fallback);
        let off = Cli {
            browser_fallback: Some(false),
            ..Cli::default()
        };
        assert!(!Config::from_cli(off).unwrap().browser_fallback);
    }

    #[test]
    fn cache_settings() {
        let c = Config::from_cli(Cli {
            cache_url: Some("redis://127.0.0.1:6379/2".into()),
            cache_max_mib: Some(10),
            cache_ttl_days: Some(2),
            ..Cli::default()
        })
        .unwrap();
        assert_eq!(c.cache.url.as_deref(), Some("redis://127.0.0.1:6379/2"));
        assert_eq!(c.cache.max_bytes, 10 << 20);
        assert_eq!(c.cache.ttl, Duration::from_secs(2 * 86_400));
        let err = Config::from_cli(Cli {
            cache_url: Some("http://x".into()),
            ..Cli::default()
        })
        .unwrap_err();
        assert!(err.to_string().contains("redis://"), "{err}");
    }

    #[test]
    fn file_fills_gaps_and_flags_win() {
        let dir = std::env::temp_dir().join(format!("distill-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("distill.toml");
        std::fs::write(
            &path,
            "port = 4000\nallow_private_targets = true\nlog = \"debug\"\n",
        )
        .unwrap();
        let cli = Cli {
            config: Some(path.clone()),
            log: Some("warn".into()),
            ..Cli::default()
        };
        let c = Config::from_cli(cli).unwrap();
        assert_eq!(c.port, 4000);
        assert!(c.allow_private_targets);
        assert_eq!(c.log, "warn");
        std::fs::write(&path, "prot = 1\n").unwrap();
        let err = Config::from_cli(Cli {
            config: Some(path),
            ..Cli::default()
        })
        .unwrap_err();
        assert!(err.to_string().contains("unknown field"), "{err}");
    }
}
