//! Sitemap reading on arbitrary bytes: gunzip (capped) then `<loc>`
//! extraction from urlsets and indexes. Invariants: no panic, bounded time
//! and memory (a gzip bomb stops at the cap), every location is trimmed text.
#![no_main]

/// A stand-in for the crawl fetcher (only the sitemap module's network walk
/// `collect` uses it; never called here).
#[allow(dead_code)]
mod fetcher {
    pub struct RawFetcher;
    impl RawFetcher {
        pub async fn get_ok(&self, _url: &url::Url) -> Option<Vec<u8>> {
            None
        }
    }
}

/// The server's sitemap module, compiled from its source file.
#[path = "../../host/src/crawl/sitemap.rs"]
#[allow(dead_code)]
mod sitemap;

use libfuzzer_sys::fuzz_target;
use sitemap::{decompress, parse};

fuzz_target!(|data: &[u8]| {
    let Some(xml) = decompress(data) else { return };
    let parsed = parse(&xml);
    for loc in parsed.pages.iter().chain(parsed.sitemaps.iter()) {
        assert_eq!(loc.trim(), loc, "untrimmed location");
    }
});
