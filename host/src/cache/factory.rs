//! Opens the cache backend the settings name: Redis for a `redis://` URL,
//! otherwise the embedded store in the data directory. Kept apart from
//! `store.rs` so that the trait does not depend on its implementations.

use super::embedded::{EmbeddedOptions, EmbeddedStore, PURGE_EVERY};
use super::redis_store::RedisStore;
use super::store::{CacheSettings, CacheStore, StoreError};
use std::sync::Arc;

/// Opens the backend the settings name.
pub async fn open(settings: &CacheSettings) -> Result<Arc<dyn CacheStore>, StoreError> {
    match settings.url.as_deref().filter(|u| !u.is_empty()) {
        Some(url) => Ok(Arc::new(RedisStore::connect(url).await?)),
        None => {
            let opts = EmbeddedOptions {
                max_bytes: settings.max_bytes,
                hot_max_bytes: settings.hot_max_bytes,
            };
            let path = settings.path.clone();
            let store = tokio::task::spawn_blocking(move || EmbeddedStore::open(&path, opts))
                .await
                .map_err(|e| StoreError::Backend(e.to_string()))??;
            // Writes commit without fsync; this makes them durable within a
            // second, and purges expired entries hourly.
            let store = Arc::new(store);
            store.start_flusher(PURGE_EVERY);
            Ok(store)
        }
    }
}
