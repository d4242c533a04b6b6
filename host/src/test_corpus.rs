//! The corpora's pages beside the checkout, for tests that run real pages through
//! the code: `<corpus>/html/*.html.gz` under `DISTILL_CORPORA` or the checkout's
//! sibling `shared/corpus`; none when that is absent.

use std::io::Read;
use std::path::{Path, PathBuf};

/// Where the corpora are: `DISTILL_CORPORA`, or the checkout's sibling `shared/corpus`.
pub fn root() -> PathBuf {
    std::env::var_os("DISTILL_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus")))
}

/// Every corpus page's path, sorted.
pub fn pages() -> Vec<PathBuf> {
    let mut pages = Vec::new();
    for corpus in std::fs::read_dir(root()).into_iter().flatten().flatten() {
        let dir = corpus.path().join("html");
        for page in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = page.path();
            if path.to_string_lossy().ends_with(".html.gz") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

/// A page's bytes, gunzipped.
pub fn gunzip(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).expect("read page");
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut out)
        .expect("gunzip page");
    out
}
