//! Development aid: the host's HTML stages of one fresh markdown scrape (decode, parse,
//! metadata, clean with only main content, serialise, links) on one page, N times, each
//! stage a never-inlined `stage_*` function, for `valgrind --tool=callgrind` without
//! building the server (the full harness is `bench/src/bin/scrape-instructions.rs`).
//! `cargo run --release -p distill-html --example host_stages -- PAGE.html[.gz] URL N`
use distill_html::{CleanOptions, CleanedHtml, ParsedPage, decode_html};
use serde_json::{Map, Value};
use std::hint::black_box;
use std::io::Read;
use url::Url;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let raw = std::fs::read(&a[1]).expect("page");
    let body = if a[1].ends_with(".gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .expect("gzip");
        out
    } else {
        raw
    };
    let url = Url::parse(&a[2]).expect("url");
    let n: usize = a.get(3).and_then(|n| n.parse().ok()).unwrap_or(2);
    let warm = run(&body, &url);
    for _ in 0..n {
        black_box(scrape_once(&body, &url));
    }
    println!("{n} runs, {warm} bytes of cleaned HTML");
}

#[inline(never)]
fn scrape_once(body: &[u8], url: &Url) -> usize {
    run(body, url)
}

fn run(body: &[u8], url: &Url) -> usize {
    let raw = stage_decode(body);
    let page = stage_parse(&raw, url);
    black_box(stage_metadata(&page));
    let cleaned = stage_clean(page);
    let html = stage_serialise(&cleaned);
    black_box(stage_links(&cleaned));
    html.len()
}

#[inline(never)]
fn stage_decode(body: &[u8]) -> String {
    decode_html(black_box(body), Some("text/html; charset=utf-8"))
}

#[inline(never)]
fn stage_parse(raw: &str, url: &Url) -> ParsedPage {
    ParsedPage::parse(raw, url)
}

#[inline(never)]
fn stage_metadata(page: &ParsedPage) -> Map<String, Value> {
    page.metadata()
}

#[inline(never)]
fn stage_clean(page: ParsedPage) -> CleanedHtml {
    let opts = CleanOptions {
        only_main_content: true,
        include_tags: &[],
        exclude_tags: &[],
    };
    page.into_clean(&opts).expect("no selectors")
}

#[inline(never)]
fn stage_serialise(cleaned: &CleanedHtml) -> String {
    cleaned.html()
}

#[inline(never)]
fn stage_links(cleaned: &CleanedHtml) -> Vec<String> {
    cleaned.links()
}
