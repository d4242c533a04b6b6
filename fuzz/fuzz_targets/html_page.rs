//! A fetched page as the server sees it: charset decoding of the raw bytes
//! (with a declared Content-Type), parsing, metadata, cleaning with
//! `onlyMainContent` and user `includeTags`/`excludeTags`, links, images and
//! the base64-image fix-up. Invariants: no panic; metadata serialises to JSON;
//! every link and image is an absolute URL; bounded time and memory.
//!
//! Input layout: byte 0 = flags (bit 0 onlyMainContent, bit 1 declare a
//! charset, bits 2-3 which one); then, up to the first NUL, selector lines
//! (odd lines include, even lines exclude, at most 4); then the page bytes.
#![no_main]

use distill_html::{CleanOptions, ParsedPage, decode_html, remove_base64_images};
use libfuzzer_sys::fuzz_target;

const CHARSETS: [&str; 4] = [
    "text/html",
    "text/html; charset=utf-8",
    "text/html; charset=windows-1252",
    "text/html; charset=shift_jis",
];

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let (selectors, body) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (&[][..], rest),
    };
    let (mut include, mut exclude) = (Vec::new(), Vec::new());
    for (i, line) in String::from_utf8_lossy(selectors).lines().take(4).enumerate() {
        if i % 2 == 0 {
            include.push(line.to_string())
        } else {
            exclude.push(line.to_string())
        }
    }
    let content_type = (flags & 2 != 0).then(|| CHARSETS[(flags as usize >> 2) & 3]);
    let text = decode_html(body, content_type);
    let url = url::Url::parse("https://example.com/dir/page.html").unwrap();
    let page = ParsedPage::parse(&text, &url);
    serde_json::to_string(&page.metadata()).expect("metadata serialises");
    let opts = CleanOptions {
        only_main_content: flags & 1 != 0,
        include_tags: &include,
        exclude_tags: &exclude,
    };
    let Ok(cleaned) = page.clean(&opts) else { return };
    let html = cleaned.html();
    let _ = remove_base64_images(&html);
    let _ = cleaned.has_content();
    for link in cleaned.links().iter().chain(cleaned.images().iter()) {
        assert!(url::Url::parse(link).is_ok(), "not an absolute URL: {link:?}");
    }
});
