//! [`AppState`]: what every handler can reach — the configuration and the
//! pipeline's [`Services`].

use crate::config::Config;
use crate::services::Services;
use std::sync::Arc;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub services: Arc<Services>,
    /// Crawl and batch scrape jobs (docs/CRAWL.md).
    pub crawls: Arc<crate::crawl::Crawls>,
    /// Interact sessions on scrapes (docs/BROWSER.md).
    pub interact: Arc<crate::fetch::browser::sessions::Interact>,
    /// Job watchers open per key (`watch_slots::PER_KEY` at most).
    pub watchers: Arc<super::watch_slots::WatchSlots>,
    /// Enables the `x-distill-fault` request header (tests only).
    pub test_faults: bool,
}

impl AppState {
    /// Builds the services (loading every plugin) from `config`.
    pub async fn new(config: Config) -> anyhow::Result<AppState> {
        let services = Arc::new(Services::start(&config).await?);
        let describe: crate::crawl::DescribeError = Arc::new(|e| {
            let api = super::error_map::api_error(e);
            (api.code.to_string(), api.message)
        });
        let crawls = crate::crawl::Crawls::start(services.clone(), &config, describe).await?;
        let interact = crate::fetch::browser::sessions::Interact::start(
            services.browser_engine.clone(),
            services.browser.clone(),
            crate::fetch::browser::node_code::NodeSettings::from_env(&config.data_dir),
            services.plugins.services().llm.clone(),
        );
        Ok(AppState {
            config: Arc::new(config),
            services,
            crawls,
            interact,
            watchers: Default::default(),
            test_faults: std::env::var("DISTILL_ENABLE_TEST_FAULTS").is_ok_and(|v| v == "true"),
        })
    }
}
