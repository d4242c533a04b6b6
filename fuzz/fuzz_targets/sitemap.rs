//! Sitemap reading on arbitrary bytes: gunzip (capped) then `<loc>`
//! extraction from urlsets and indexes. Invariants: no panic, bounded time
//! and memory (a gzip bomb stops at the cap), every location is trimmed text.
#![no_main]

use distill::crawl::sitemap::{decompress, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(xml) = decompress(data) else { return };
    let parsed = parse(&xml);
    for loc in parsed.pages.iter().chain(parsed.sitemaps.iter()) {
        assert_eq!(loc.trim(), loc, "untrimmed location");
    }
});
