//! Parses every page both ways -- our tokenizer feeding html5ever's tree builder, and
//! html5ever's own `parse_document` -- and compares the serialised trees (with the quirks
//! mode). Prints each differing page with the first differing context, then the counts.
//! With `STRUCTURE=1` it compares the trees node by node instead
//! (`distill_html::parse_both_structure`: text nodes, attributes, template contents).
//!
//! Usage: `cargo run --release -p distill-html --example parse_diff -- PATH...` where each
//! PATH is an `.html`/`.htm`/`.html.gz` file or a directory searched recursively for them.

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

fn first_difference(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

fn context(s: &str, at: usize) -> &str {
    let mut start = at.saturating_sub(80);
    while !s.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + 80).min(s.len());
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
    let structure = std::env::var("STRUCTURE").is_ok_and(|v| v == "1");
    let mut differing = 0;
    for file in &files {
        let Ok(bytes) = read(file) else {
            eprintln!("unreadable: {}", file.display());
            continue;
        };
        // The server decodes before parsing; the comparison does the same.
        let html = distill_html::decode_html(&bytes, None);
        let (ours, theirs) = if structure {
            distill_html::parse_both_structure(&html)
        } else {
            distill_html::parse_both_serialised(&html)
        };
        if ours != theirs {
            differing += 1;
            let at = first_difference(&ours, &theirs);
            println!("DIFF {} at byte {at}", file.display());
            println!("  ours:      {:?}", context(&ours, at));
            println!("  html5ever: {:?}", context(&theirs, at));
        }
    }
    println!("{} pages, {differing} differ", files.len());
}
