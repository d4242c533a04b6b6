//! Parses every page with our own tree builder and with html5ever's (both fed by our
//! tokenizer) and compares the trees node by node, node ids included
//! (`distill_html::parse_own_structure`). Prints each differing page with the first
//! differing context, then the counts of pages built, differing, and given up on by reason
//! (with `VERBOSE=1` also each page given up on).
//!
//! Usage: `cargo run --release -p distill-html --example tree_diff -- PATH...` where each
//! PATH is an `.html`/`.htm`/`.html.gz` file or a directory searched recursively for them.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

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

fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    let bytes = std::fs::read(path)?;
    if path.to_string_lossy().ends_with(".gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut out)?;
        Ok(out)
    } else {
        Ok(bytes)
    }
}

fn context(s: &str, at: usize) -> &str {
    let mut start = at.saturating_sub(200);
    while !s.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + 120).min(s.len());
    while !s.is_char_boundary(end) {
        end += 1;
    }
    &s[start..end]
}

fn main() {
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        collect(Path::new(&arg), &mut files);
    }
    let verbose = std::env::var("VERBOSE").is_ok_and(|v| v == "1");
    let (mut built, mut differing) = (0, 0);
    let mut bails: BTreeMap<&str, usize> = BTreeMap::new();
    for file in &files {
        let Ok(bytes) = read(file) else {
            eprintln!("unreadable: {}", file.display());
            continue;
        };
        let html = distill_html::decode_html(&bytes, None);
        let (ours, theirs) = distill_html::parse_own_structure(&html);
        match ours {
            Err(reason) => {
                if verbose {
                    println!("BAIL {reason}: {}", file.display());
                }
                *bails.entry(reason).or_default() += 1;
            }
            Ok(ours) if ours == theirs => built += 1,
            Ok(ours) => {
                differing += 1;
                let at = ours
                    .bytes()
                    .zip(theirs.bytes())
                    .take_while(|(x, y)| x == y)
                    .count();
                println!("DIFF {} at byte {at}", file.display());
                println!("  ours:      {:?}", context(&ours, at));
                println!("  html5ever: {:?}", context(&theirs, at));
            }
        }
    }
    println!(
        "{} pages: {built} built identically, {differing} differ, gave up on:",
        files.len()
    );
    for (reason, n) in &bails {
        println!("  {n:5} {reason}");
    }
}
