//! Formats whose plugin stores files on the server (it declares the `media`
//! capability: `audio`, `video`, docs/MEDIA.md): zero data retention refuses
//! them, and their responses are never cached (their links expire).

use crate::api::ScrapeOptions;
use crate::plugins::Registry;

/// The first requested format whose plugin stores files on the server (it
/// declares the `media` capability: `audio`, `video`). Such a response holds
/// links that expire, so it is never kept in the cache, and zero data
/// retention refuses it.
pub fn media_format(registry: &Registry, opts: &ScrapeOptions) -> Option<String> {
    opts.formats
        .iter()
        .find(|f| {
            registry
                .format(&f.name)
                .is_some_and(|p| p.manifest.capabilities.iter().any(|c| c == "media"))
        })
        .map(|f| f.name.clone())
}
