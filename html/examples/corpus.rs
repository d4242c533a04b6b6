//! Development aid for main-content extraction: runs the server's HTML step (parse →
//! clean with `onlyMainContent`, whole-page fallback when empty) on a directory of pages,
//! writes the cleaned HTML to `<out>/<id>.html` and its markdown (the markdown plugin's
//! code, native) to `<out>/<id>.md`, and prints timings per step. With
//! `EXPLAIN=N` it also writes `<out>/<id>.explain`: the extractor's scores for elements
//! worth at least N characters.
//!
//! ```sh
//! cargo run --release -p distill-html --example corpus -- PAGES_DIR MANIFEST OUT_DIR [ID…]
//! ```
//! `PAGES_DIR` holds `<id>.html` (gunzipped), `MANIFEST` is the corpus's `manifest.jsonl`
//! (pages without a `url` get a local one).
//! `make quality` measures the whole thing (markdown included) through the real server.

use std::time::{Duration, Instant};
use std::{env, fs};

use distill_html::{CleanOptions, ParsedPage, decode_html};

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: corpus PAGES_DIR MANIFEST OUT_DIR [ID…]");
        std::process::exit(2);
    }
    let (pages, manifest, out) = (&args[0], &args[1], &args[2]);
    let only: Vec<&String> = args[3..].iter().collect();
    fs::create_dir_all(out).expect("create output dir");
    let manifest = fs::read_to_string(manifest).expect("read manifest");
    let (mut parse_t, mut clean_t, mut full_t) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut n, mut fallbacks, mut bytes) = (0usize, 0usize, 0usize);
    for line in manifest.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("manifest line");
        let id = v["id"].as_str().unwrap();
        if !only.is_empty() && !only.iter().any(|o| o.as_str() == id) {
            continue;
        }
        // Some corpora have no URL for a page (`null`): any base does for extraction.
        let url = v["url"]
            .as_str()
            .and_then(|u| url::Url::parse(u).ok())
            .unwrap_or_else(|| url::Url::parse(&format!("http://127.0.0.1/{id}.html")).unwrap());
        let raw = fs::read(format!("{pages}/{id}.html")).expect("read page");
        bytes += raw.len();
        let html = decode_html(&raw, Some("text/html"));
        let t0 = Instant::now();
        let page = ParsedPage::parse(&html, &url);
        let t1 = Instant::now();
        if let Ok(min) = env::var("EXPLAIN") {
            fs::write(
                format!("{out}/{id}.explain"),
                page.explain_main_content(min.parse().unwrap_or(100.0)),
            )
            .expect("write explain");
        }
        let mut opts = CleanOptions {
            only_main_content: false,
            include_tags: &[],
            exclude_tags: &[],
        };
        let whole = page.clean(&opts).unwrap();
        std::hint::black_box(whole.html());
        let t2 = Instant::now();
        opts.only_main_content = true;
        let t3 = Instant::now();
        let mut cleaned = page.clean(&opts).unwrap();
        if !cleaned.has_content() {
            fallbacks += 1;
            opts.only_main_content = false;
            cleaned = page.clean(&opts).unwrap();
        }
        let cleaned_html = cleaned.html();
        let t4 = Instant::now();
        parse_t += t1 - t0;
        full_t += t2 - t1;
        clean_t += t4 - t3;
        n += 1;
        let md = distill_html::remove_base64_images(&distill_markdown::html_to_markdown(&cleaned_html));
        fs::write(format!("{out}/{id}.md"), md).expect("write markdown");
        fs::write(format!("{out}/{id}.html"), cleaned_html).expect("write html");
    }
    let us = |d: Duration| d.as_secs_f64() * 1e6 / n.max(1) as f64;
    eprintln!(
        "{n} pages, {:.0} KB avg: parse {:.0} µs, clean (whole page) {:.0} µs, clean (main content) {:.0} µs per page; {fallbacks} fallbacks",
        bytes as f64 / 1024.0 / n.max(1) as f64,
        us(parse_t),
        us(full_t),
        us(clean_t),
    );
}
