//! What the parse comparison tools (`parse_diff`, `tree_diff`) share: the pages named on
//! the command line, each read (gunzipped when `.gz`) and decoded as the server decodes
//! it, and a difference between two trees' write-ups printed with its context.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The `.html`/`.htm`/`.html.gz` files the command-line arguments name, directories
/// searched recursively, in sorted order.
pub fn pages() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        collect(Path::new(&arg), &mut files);
    }
    files
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            collect(&e, out);
        }
    } else {
        let name = path.to_string_lossy();
        if name.ends_with(".html") || name.ends_with(".htm") || name.ends_with(".html.gz") {
            out.push(path.to_path_buf());
        }
    }
}

/// The page at `path`, decoded as the server decodes a fetched page; `None` (said on
/// stderr) when it cannot be read.
pub fn decoded(path: &Path) -> Option<String> {
    let read = || -> std::io::Result<Vec<u8>> {
        let bytes = std::fs::read(path)?;
        if path.to_string_lossy().ends_with(".gz") {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut out)?;
            Ok(out)
        } else {
            Ok(bytes)
        }
    };
    match read() {
        Ok(bytes) => Some(distill_html::decode_html(&bytes, None)),
        Err(_) => {
            eprintln!("unreadable: {}", path.display());
            None
        }
    }
}

/// Prints where `ours` and `theirs` first differ, with `before` and `after` bytes of
/// context around it.
pub fn print_difference(path: &Path, ours: &str, theirs: &str, before: usize, after: usize) {
    let at = ours
        .bytes()
        .zip(theirs.bytes())
        .take_while(|(x, y)| x == y)
        .count();
    println!("DIFF {} at byte {at}", path.display());
    println!("  ours:      {:?}", context(ours, at, before, after));
    println!("  html5ever: {:?}", context(theirs, at, before, after));
}

fn context(s: &str, at: usize, before: usize, after: usize) -> &str {
    let mut start = at.saturating_sub(before);
    while !s.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + after).min(s.len());
    while !s.is_char_boundary(end) {
        end += 1;
    }
    &s[start..end]
}
