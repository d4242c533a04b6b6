//! Timing and robustness runs over real pages (ignored by default). Put `*.html` files in
//! `$DISTILL_BENCH_DIR` (default `/tmp/distill-bench`) and run:
//! `cargo test -p distill-html --release --test bench -- --ignored --nocapture`

use std::time::{Duration, Instant};

use distill_html::{CleanOptions, ParsedPage, decode_html};
use url::Url;

fn pages(dir: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "html"))
                .map(|p| {
                    let bytes = std::fs::read(&p).unwrap();
                    (
                        p.display().to_string(),
                        decode_html(&bytes, Some("text/html")),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

fn bench_dir() -> String {
    std::env::var("DISTILL_BENCH_DIR").unwrap_or_else(|_| "/tmp/distill-bench".into())
}

#[test]
#[ignore]
fn timing() {
    let pages = pages(&bench_dir());
    assert!(!pages.is_empty(), "no *.html in {}", bench_dir());
    let url = Url::parse("https://example.com/some/page").unwrap();
    let opts = CleanOptions {
        only_main_content: true,
        include_tags: &[],
        exclude_tags: &[],
    };
    let rounds = 20;
    let mut t = [Duration::ZERO; 7];
    let mut bytes = 0usize;
    for _ in 0..rounds {
        for (_, html) in &pages {
            bytes += html.len();
            let s = Instant::now();
            let page = ParsedPage::parse(html, &url);
            t[0] += s.elapsed();
            let s = Instant::now();
            let meta = page.metadata();
            t[1] += s.elapsed();
            let s = Instant::now();
            let cleaned = page.clean(&opts).unwrap();
            t[2] += s.elapsed();
            let s = Instant::now();
            let out = cleaned.html();
            t[3] += s.elapsed();
            let s = Instant::now();
            let links = cleaned.links();
            t[4] += s.elapsed();
            let s = Instant::now();
            let images = cleaned.images();
            t[5] += s.elapsed();
            let s = Instant::now();
            let content = cleaned.has_content();
            t[6] += s.elapsed();
            std::hint::black_box((meta, out, links, images, content));
        }
    }
    let n = (rounds * pages.len()) as f64;
    let names = [
        "parse",
        "metadata",
        "clean",
        "html()",
        "links",
        "images",
        "has_content",
    ];
    let total: Duration = t.iter().sum();
    println!(
        "{} pages, mean size {:.1} KB",
        pages.len(),
        bytes as f64 / n / 1024.0
    );
    for (name, d) in names.iter().zip(t) {
        println!("{name:>12}: {:8.1} µs/page", d.as_secs_f64() * 1e6 / n);
    }
    println!(
        "{:>12}: {:8.1} µs/page ({:.1} µs per 30 KB)",
        "total",
        total.as_secs_f64() * 1e6 / n,
        total.as_secs_f64() * 1e6 / (bytes as f64 / 30720.0)
    );
}

#[test]
#[ignore]
fn robustness_all_pages() {
    let dir = format!("{}/all", bench_dir());
    let pages = pages(&dir);
    let url = Url::parse("https://example.com/some/page").unwrap();
    let mut empty_main = 0;
    for (name, html) in &pages {
        let page = ParsedPage::parse(html, &url);
        let meta = page.metadata();
        assert!(
            meta.values().all(|v| v.is_string() || v.is_array()),
            "{name}"
        );
        for main in [true, false] {
            let opts = CleanOptions {
                only_main_content: main,
                include_tags: &[],
                exclude_tags: &[],
            };
            let cleaned = page.clean(&opts).unwrap();
            let out = cleaned.html();
            assert!(
                !out.contains("<script") && !out.contains("<head>"),
                "{name}"
            );
            let links = cleaned.links();
            let unique: std::collections::HashSet<_> = links.iter().collect();
            assert_eq!(unique.len(), links.len(), "{name}");
            cleaned.images();
            if main && !cleaned.has_content() {
                empty_main += 1;
            }
        }
    }
    println!(
        "{} pages ok, {empty_main} with empty main content",
        pages.len()
    );
}

#[test]
#[ignore]
fn clone_vs_reparse() {
    let pages = pages(&bench_dir());
    let (mut parse, mut clone) = (Duration::ZERO, Duration::ZERO);
    for (_, html) in &pages {
        for _ in 0..10 {
            let s = Instant::now();
            let doc = dom_query::Document::from(html.as_str());
            parse += s.elapsed();
            let s = Instant::now();
            let copy = doc.clone();
            clone += s.elapsed();
            std::hint::black_box((doc, copy));
        }
    }
    let n = (pages.len() * 10) as f64;
    println!(
        "reparse {:.1} µs/page, clone {:.1} µs/page",
        parse.as_secs_f64() * 1e6 / n,
        clone.as_secs_f64() * 1e6 / n
    );
}
