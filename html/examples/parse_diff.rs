//! Parses every page both ways -- our tokenizer feeding html5ever's tree builder, and
//! html5ever's own `parse_document` -- and compares the serialised trees (with the quirks
//! mode). Prints each differing page with the first differing context, then the counts.
//! With `STRUCTURE=1` it compares the trees node by node instead
//! (`distill_html::parse_both_structure`: text nodes, attributes, template contents).
//!
//! Usage: `cargo run --release -p distill-html --example parse_diff -- PATH...` where each
//! PATH is an `.html`/`.htm`/`.html.gz` file or a directory searched recursively for them.

mod diff_pages;

fn main() {
    let files = diff_pages::pages();
    let structure = std::env::var("STRUCTURE").is_ok_and(|v| v == "1");
    let mut differing = 0;
    for file in &files {
        // The server decodes before parsing; the comparison does the same.
        let Some(html) = diff_pages::decoded(file) else {
            continue;
        };
        let (ours, theirs) = if structure {
            distill_html::parse_both_structure(&html)
        } else {
            distill_html::parse_both_serialised(&html)
        };
        if ours != theirs {
            differing += 1;
            diff_pages::print_difference(file, &ours, &theirs, 80, 80);
        }
    }
    println!("{} pages, {differing} differ", files.len());
}
