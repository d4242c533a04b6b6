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
    /// Enables the `x-distill-fault` request header (tests only).
    pub test_faults: bool,
}

impl AppState {
    /// Builds the services (loading every plugin) from `config`.
    pub async fn new(config: Config) -> anyhow::Result<AppState> {
        let services = Services::start(&config).await?;
        Ok(AppState {
            config: Arc::new(config),
            services: Arc::new(services),
            test_faults: std::env::var("DISTILL_ENABLE_TEST_FAULTS").is_ok_and(|v| v == "true"),
        })
    }
}
