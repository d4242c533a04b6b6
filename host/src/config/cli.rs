//! The command line: every server setting as a flag with its `DISTILL_*`
//! environment variable, and the operator subcommands (`distill keys ...`).
//! Every field is optional, so the TOML file and the defaults fill the gaps.

use clap::Parser;
use std::net::IpAddr;
use std::path::PathBuf;

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
    /// Threads serving connections, each with its own single-threaded runtime
    /// (default: one per CPU); 0 serves on the shared multi-thread runtime.
    #[arg(long, env = "DISTILL_SERVING_THREADS")]
    pub serving_threads: Option<usize>,
    /// Largest page body fetched, in bytes.
    #[arg(long, env = "DISTILL_MAX_PAGE_BYTES")]
    pub max_page_bytes: Option<u64>,
    /// Most elements and comments a page's parsed tree may hold.
    #[arg(long, env = "DISTILL_MAX_PAGE_NODES")]
    pub max_page_nodes: Option<usize>,
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
