//! Store tests against real backends: a redb file in a temporary directory,
//! a child process killed with SIGKILL mid-write, and a real `redis-server`
//! started on a free loopback port.

mod contract;
mod crash;
mod embedded_tests;
mod redis_tests;

use std::path::PathBuf;

/// A fresh directory under the system temp dir, unique per test and process.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("distill-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Deterministic bytes for entry `i` (HTML-like, so compression applies),
/// 1 to ~60 KB long.
pub(crate) fn value_for(i: u64) -> Vec<u8> {
    let len = 1000 + (i.wrapping_mul(2_654_435_761) % 60_000) as usize;
    let line = format!("<p class=\"row-{i}\">entry {i} of the cache test, some words to compress</p>\n");
    line.bytes().cycle().take(len).collect()
}
