//! Parses every page with our own tree builder and with html5ever's (both fed by our
//! tokenizer) and compares the trees node by node, node ids included
//! (`distill_html::parse_own_structure`). Prints each differing page with the first
//! differing context, then the counts of pages built, differing, and given up on by reason
//! (with `VERBOSE=1` also each page given up on).
//!
//! Usage: `cargo run --release -p distill-html --example tree_diff -- PATH...` where each
//! PATH is an `.html`/`.htm`/`.html.gz` file or a directory searched recursively for them.

use std::collections::BTreeMap;

mod diff_pages;

fn main() {
    let files = diff_pages::pages();
    let verbose = std::env::var("VERBOSE").is_ok_and(|v| v == "1");
    let (mut built, mut differing) = (0, 0);
    let mut bails: BTreeMap<&str, usize> = BTreeMap::new();
    for file in &files {
        let Some(html) = diff_pages::decoded(file) else {
            continue;
        };
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
                diff_pages::print_difference(file, &ours, &theirs, 200, 120);
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
