//! The markdown plugin's own HTML tokenizer, tree builder, renderer and
//! post-processing, natively, on arbitrary HTML. Invariants: no panic,
//! bounded time and memory, and the markdown stays within a fixed multiple of
//! the HTML's size (deep nesting must not blow indentation up quadratically).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let html = String::from_utf8_lossy(data);
    let md = distill_markdown::html_to_markdown(&html);
    assert!(
        md.len() <= 64 * html.len() + 4096,
        "{} bytes of HTML gave {} bytes of markdown",
        html.len(),
        md.len()
    );
});
