//! Server configuration: command-line flags, `DISTILL_*` environment variables
//! and an optional TOML file, in that order of precedence, over built-in
//! defaults. Every setting has a default, so `distill` runs with none.
//!
//! - [`cli`]: the flags, their environment variables, the subcommands.
//! - [`file`]: the TOML file.
//! - here: the effective [`Config`] and how the three sources resolve into it.

mod cli;
mod file;

pub use cli::{Cli, Command, KeysAction};

use clap::Parser;
use file::{FileConfig, read_file};
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

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
    /// Threads serving connections on their own single-threaded runtimes
    /// ([`crate::serving`]); 0: the shared multi-thread runtime serves them.
    pub serving_threads: usize,
    pub max_page_bytes: u64,
    /// Most elements and comments a page's parsed tree may hold (a page over it
    /// is refused as too large: `pipeline::prepare::set_max_page_nodes`).
    pub max_page_nodes: usize,
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

/// Most elements and comments a page's tree may hold, unless configured. Real pages
/// make ~0.02 nodes a byte (0.045 at the 99th percentile of the corpora; the largest
/// there, 2–3 MB, about 20,000 tags), so this passes a real page of 20–50 MB, while a
/// tree at the limit takes about 170–380 MiB while it is prepared.
pub const DEFAULT_MAX_PAGE_NODES: usize = 1_000_000;

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
            serving_threads: cli
                .serving_threads
                .or(file.serving_threads)
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
            max_page_bytes: cli.max_page_bytes.or(file.max_page_bytes).unwrap_or(50 << 20),
            max_page_nodes: cli
                .max_page_nodes
                .or(file.max_page_nodes)
                .unwrap_or(DEFAULT_MAX_PAGE_NODES),
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
        let dir = crate::test_dir::TestDir::new("config");
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
