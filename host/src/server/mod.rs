//! The HTTP server: shared state, the router and its middleware.
//!
//! - [`routes`]: `/v2/scrape` and the health endpoints.
//! - [`parse_route`]: `POST /v2/parse` (multipart upload).
//! - [`admin`]: the operator API (`/admin/plugins`), behind the admin key.
//! - [`access_log`]: one log line per request with its outcome and time.

pub mod access_log;
pub mod admin;
pub mod parse_route;
pub mod routes;

use crate::config::Config;
use crate::fetch::http::HttpFetcher;
use crate::fetch::target_guard::TargetGuard;
use crate::llm::LlmClient;
use crate::ocr::Ocr;
use crate::plugins::{HostServices, PluginRuntime, RuntimeLimits};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use std::sync::Arc;

/// JSON bodies up to 10 MB, as upstream accepts.
pub const MAX_JSON_BODY: usize = 10 * 1024 * 1024;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub runtime: PluginRuntime,
    pub fetcher: Arc<HttpFetcher>,
    /// Enables the `x-distill-fault` request header (tests only).
    pub test_faults: bool,
    /// Local OCR tools, when installed.
    pub ocr: Option<Arc<Ocr>>,
}

impl AppState {
    /// Builds the runtime (loading every plugin) and the fetch engine.
    pub async fn new(config: Config) -> anyhow::Result<AppState> {
        let limits = RuntimeLimits {
            default_memory_mib: config.plugin_memory_mib,
            max_memory_mib: config.plugin_max_memory_mib,
            max_concurrent_calls: config.plugin_concurrency,
        };
        std::fs::create_dir_all(&config.data_dir)
            .map_err(|e| anyhow::anyhow!("creating the data dir {}: {e}", config.data_dir.display()))?;
        let cache_dir = config.wasm_cache_dir.clone();
        let services = HostServices {
            allowed_capabilities: config.allowed_capabilities.clone(),
            llm: match &config.llm {
                Some(llm) => Some(Arc::new(LlmClient::new(llm.clone())?)),
                None => None,
            },
        };
        let runtime = PluginRuntime::with_services(&config.plugins_dir, Some(&cache_dir), limits, services)?;
        runtime.load_all().await;
        if config.watch_plugins {
            // The task keeps the watcher alive for the life of the process.
            runtime.watch()?;
        }
        let guard = TargetGuard {
            allow_private: config.allow_private_targets,
        };
        let fetcher = HttpFetcher::new(guard, config.max_page_bytes, &config.user_agent)?;
        let ocr = Ocr::detect(&config.data_dir.join("tmp")).map(Arc::new);
        if ocr.is_none() {
            tracing::warn!("OCR unavailable: install tesseract-ocr and poppler-utils for scanned PDFs");
        }
        Ok(AppState {
            ocr,
            config: Arc::new(config),
            runtime,
            fetcher: Arc::new(fetcher),
            test_faults: std::env::var("DISTILL_ENABLE_TEST_FAULTS").is_ok_and(|v| v == "true"),
        })
    }
}

/// The application's router.
pub fn router(state: AppState) -> Router {
    routes::routes()
        .merge(admin::routes())
        .merge(parse_route::routes())
        .layer(DefaultBodyLimit::max(MAX_JSON_BODY))
        .layer(axum::middleware::from_fn(access_log::log_request))
        .with_state(state)
}
