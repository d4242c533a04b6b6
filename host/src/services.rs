//! [`Services`]: everything the pipeline needs to do its work, built once from
//! the configuration — the plugin runtime, the fetch engines, local OCR (and,
//! the page cache with its fetch coalescer; later, limits). The pipeline depends on this value,
//! not on the HTTP server, so a crawl worker or a test can run it directly.

use crate::cache::PageCache;
use crate::cache::coalesce::Coalescer;
use crate::config::Config;
use crate::fetch::browser::engine::BrowserEngine;
use crate::fetch::browser::pool::{BrowserPool, PoolSettings};
use crate::fetch::browser::profile::ProfileStore;
use crate::fetch::engine::Engine;
use crate::fetch::http::HttpFetcher;
use crate::fetch::select::Engines;
use crate::fetch::target_guard::TargetGuard;
use crate::fetch::{FetchError, FetchedPage};
use crate::limits::Limits;
use crate::llm::LlmClient;
use crate::media::MediaStore;
use crate::media_capability::signed_store::SignedStore;
use crate::media_capability::signing::SigningKeys;
use crate::media_capability::{MediaService, MediaSettings};
use crate::ocr::Ocr;
use crate::plugins::{HostServices, PluginRuntime, RuntimeLimits};
use std::sync::Arc;

/// What the pipeline works with.
pub struct Services {
    /// Loaded plugins (formats and converters) and the sandbox that runs them.
    pub plugins: PluginRuntime,
    /// Fetch engines, in order of preference.
    pub engines: Engines,
    /// Local OCR tools, when installed.
    pub ocr: Option<Arc<Ocr>>,
    /// Screenshots and PDFs served by `GET /v2/media/{id}`.
    pub media: Arc<MediaStore>,
    /// Extracted audio and video served at signed links (`GET /v2/media/signed/{file}`).
    pub signed_media: Arc<SignedStore>,
    /// The browser engine's Chromium (launched on first need).
    pub browser: Arc<BrowserPool>,
    /// The browser engine itself (interact sessions replay scrapes on it).
    pub browser_engine: Arc<BrowserEngine>,
    /// HTTP results that look script-rendered are fetched again with the
    /// browser (`DISTILL_BROWSER_FALLBACK`).
    pub browser_fallback: bool,
    /// The page cache (docs/CACHE.md); `None` when it could not be opened:
    /// then every request behaves as `maxAge: 0` and cache-only requests
    /// (`minAge`, `lockdown`) answer their 404.
    pub cache: Option<PageCache>,
    /// Concurrent identical fetches (same page key) run once.
    pub fetches: Coalescer<SharedFetch>,
    /// API keys, rate limits, credits and concurrency slots (docs/OPERATORS.md).
    pub limits: Limits,
    /// The audit log, when the operator turned it on.
    pub audit: Option<crate::audit::AuditLog>,
}

/// What a coalesced fetch hands to every caller waiting on it: the page and
/// when it was fetched (Unix ms; the time it is stored under).
pub type SharedFetch = Result<(Arc<FetchedPage>, i64), FetchError>;

impl Services {
    /// Builds every service from `config`: creates the data directory, loads
    /// every plugin (and starts the hot-swap watcher when configured).
    pub async fn start(config: &Config) -> anyhow::Result<Services> {
        crate::telemetry::install();
        std::fs::create_dir_all(&config.data_dir)
            .map_err(|e| anyhow::anyhow!("creating the data dir {}: {e}", config.data_dir.display()))?;
        let limits = RuntimeLimits {
            default_memory_mib: config.plugin_memory_mib,
            max_memory_mib: config.plugin_max_memory_mib,
            max_concurrent_calls: config.plugin_concurrency,
            memory_reservation_mib: config.plugin_memory_reservation_mib,
            keep_resident_kib: config.plugin_keep_resident_kib,
            warm_slots: config.plugin_warm_slots,
        };
        let media = MediaStore::open(&config.data_dir.join("media"), config.public_url.as_deref())?;
        media.start_sweeper();
        let guard = TargetGuard {
            allow_private: config.allow_private_targets,
            allowed: config.allow_target_cidrs,
        };
        let signed_media = SignedStore::open(
            &config.data_dir.join("media-signed"),
            SigningKeys::configured_or_stored(
                config.media.signing_key.as_deref(),
                config.media.signing_key_previous.as_deref(),
                &config.data_dir,
            )?,
            config.media.link_ttl,
            media.clone(),
        )?;
        signed_media.start_sweeper();
        let media_service = MediaService::new(
            MediaSettings {
                max_bytes: config.media.max_bytes,
                ffmpeg_memory_bytes: config.media.ffmpeg_memory_bytes,
                ffmpeg: config.media.ffmpeg.clone(),
                tmp_dir: config.data_dir.join("tmp"),
                guard,
                user_agent: config.user_agent.clone(),
            },
            signed_media.clone(),
        )?;
        let host = HostServices {
            allowed_capabilities: config.allowed_capabilities.clone(),
            llm: match &config.llm {
                Some(llm) => Some(Arc::new(LlmClient::new(llm.clone())?)),
                None => None,
            },
            media: Some(media_service),
        };
        let plugins =
            PluginRuntime::with_services(&config.plugins_dir, Some(&config.wasm_cache_dir), limits, host)?;
        plugins.load_all().await;
        if config.watch_plugins {
            // The task keeps the watcher alive for the life of the process.
            plugins.watch()?;
        }
        crate::pipeline::prepare::set_max_page_nodes(config.max_page_nodes);
        let http = HttpFetcher::new(guard, config.max_page_bytes, &config.user_agent)?
            .with_lanes(config.serving_threads)?
            .with_proxies(config.proxies.clone())?;
        let ocr = Ocr::detect(&config.data_dir.join("tmp")).map(Arc::new);
        if ocr.is_none() {
            tracing::warn!("OCR unavailable: install tesseract-ocr and poppler-utils for scanned PDFs");
        }
        let browser = Arc::new(BrowserPool::new(PoolSettings {
            executable: config.chromium.clone(),
            profiles_dir: config.data_dir.join("browser"),
            max_pages: config.browser_pages,
            memory_budget: config.browser_memory_mib << 20,
            kill_renderer_over: config.browser_memory_mib << 21,
            js_heap_mib: config.browser_js_heap_mib,
            spare_idle: std::time::Duration::from_millis(config.browser_spare_idle_ms),
            spare_pages: config.browser_spare_pages,
            spare_ahead: crate::fetch::browser::pool::Ahead::from_setting(&config.browser_spare_ahead)
                .unwrap_or(crate::fetch::browser::pool::Ahead::Never),
            extra_args: config.chromium_args.clone(),
        }));
        let profiles = ProfileStore::open(&config.data_dir.join("profiles"))?;
        let browser_engine = Arc::new(
            BrowserEngine::new(browser.clone(), guard, media.clone(), &config.user_agent)
                .with_profiles(Arc::new(profiles))
                .with_proxies(config.proxies.clone()),
        );
        // HTTP first: the default; the browser for what only it can do.
        let engines = Engines::new(vec![
            Arc::new(http) as Arc<dyn Engine>,
            browser_engine.clone() as Arc<dyn Engine>,
        ]);
        let cache = match PageCache::open(&config.cache, config.change_tracking_ttl).await {
            Ok(cache) => {
                tracing::info!(backend = cache.store().backend(), "page cache ready");
                Some(cache)
            }
            Err(e) => {
                tracing::error!("page cache unavailable, running without it: {e}");
                None
            }
        };
        let limits = Limits::open(&config.limits)
            .await
            .map_err(|e| anyhow::anyhow!("opening the limits store: {e}"))?;
        tracing::info!(
            backend = limits.backend(),
            auth = limits.keys.auth_required(),
            "limits ready"
        );
        let audit = config
            .audit
            .clone()
            .map(crate::audit::AuditLog::open)
            .transpose()?;
        Ok(Services {
            plugins,
            engines,
            ocr,
            media,
            signed_media,
            browser,
            browser_engine,
            browser_fallback: config.browser_fallback,
            cache,
            fetches: Coalescer::new(),
            limits,
            audit,
        })
    }
}
