//! robots.txt parsing and matching on arbitrary text: no panic, bounded time
//! (wildcard patterns must not backtrack exponentially), sitemap lines kept
//! non-empty.
#![no_main]

/// The server's robots.txt module, compiled from its source file.
#[path = "../../host/src/crawl/robots.rs"]
#[allow(dead_code)]
mod robots;

use libfuzzer_sys::fuzz_target;
use robots::Robots;

fuzz_target!(|data: &[u8]| {
    // The first line is a path to test; the rest is the robots file.
    let text = String::from_utf8_lossy(data);
    let (path, file) = text.split_once('\n').unwrap_or(("/", &text));
    let robots = Robots::parse(file, "distill");
    let _ = robots.allows(path);
    let _ = robots.allows("/");
    for sitemap in &robots.sitemaps {
        assert!(!sitemap.is_empty());
    }
});
