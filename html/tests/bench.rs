//! Timing and robustness runs over real pages (ignored by default). Put `*.html` files in
//! `$DISTILL_BENCH_DIR` (default `/tmp/distill-bench`) and run:
//! `cargo test -p distill-html --release --test bench -- --ignored --nocapture`

use std::hint::black_box;
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
                    (p.display().to_string(), decode_html(&bytes, Some("text/html")))
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

/// CPU time of this thread in ns (`/proc/thread-self/schedstat`), robust to other load.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Runs `f` `rounds` times; returns (CPU µs, wall µs) per call of `f` divided by `per`.
fn measure(rounds: usize, per: usize, mut f: impl FnMut()) -> (f64, f64) {
    let (cpu, wall) = (thread_cpu_ns(), Instant::now());
    for _ in 0..rounds {
        f();
    }
    let n = (rounds * per) as f64;
    (
        (thread_cpu_ns() - cpu) as f64 / 1e3 / n,
        wall.elapsed().as_secs_f64() * 1e6 / n,
    )
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
    let whole = CleanOptions {
        only_main_content: false,
        ..opts
    };
    let rounds = std::env::var("BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    let n = pages.len();
    let bytes: usize = pages.iter().map(|(_, h)| h.len()).sum();
    let parsed: Vec<ParsedPage> = pages.iter().map(|(_, h)| ParsedPage::parse(h, &url)).collect();
    let cleaned: Vec<_> = parsed.iter().map(|p| p.clean(&opts).unwrap()).collect();
    let stages = [
        (
            "parse",
            measure(rounds, n, || {
                pages
                    .iter()
                    .for_each(|(_, h)| drop(black_box(ParsedPage::parse(h, &url))))
            }),
        ),
        (
            "metadata",
            measure(rounds, n, || {
                parsed.iter().for_each(|p| drop(black_box(p.metadata())))
            }),
        ),
        (
            "clean",
            measure(rounds, n, || {
                parsed
                    .iter()
                    .for_each(|p| drop(black_box(p.clean(&opts).unwrap())))
            }),
        ),
        (
            // Not part of the total: the same cleaning without main-content extraction,
            // so "clean" minus this is what extraction costs.
            "(whole page)",
            measure(rounds, n, || {
                parsed
                    .iter()
                    .for_each(|p| drop(black_box(p.clean(&whole).unwrap())))
            }),
        ),
        (
            "html()",
            measure(rounds, n, || {
                cleaned.iter().for_each(|c| drop(black_box(c.html())))
            }),
        ),
        (
            "links",
            measure(rounds, n, || {
                cleaned.iter().for_each(|c| drop(black_box(c.links())))
            }),
        ),
        (
            "images",
            measure(rounds, n, || {
                cleaned.iter().for_each(|c| drop(black_box(c.images())))
            }),
        ),
        (
            "has_content",
            measure(rounds, n, || {
                cleaned.iter().for_each(|c| {
                    black_box(c.has_content());
                })
            }),
        ),
    ];
    println!("{n} pages, mean size {:.1} KB", bytes as f64 / n as f64 / 1024.0);
    let (mut cpu, mut wall) = (0.0, 0.0);
    for (name, (c, w)) in stages {
        println!("{name:>12}: {c:8.1} µs CPU/page  ({w:8.1} µs wall)");
        if !name.starts_with('(') {
            cpu += c;
            wall += w;
        }
    }
    let per_30k = 30.0 * 1024.0 * n as f64 / bytes as f64;
    println!(
        "{:>12}: {cpu:8.1} µs CPU/page  ({wall:8.1} µs wall); {:.1} µs CPU per 30 KB, {:.1} without parse",
        "total",
        cpu * per_30k,
        (cpu - stages[0].1.0) * per_30k
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
        assert!(meta.values().all(|v| v.is_string() || v.is_array()), "{name}");
        for main in [true, false] {
            let opts = CleanOptions {
                only_main_content: main,
                include_tags: &[],
                exclude_tags: &[],
            };
            let cleaned = page.clean(&opts).unwrap();
            let out = cleaned.html();
            assert!(!out.contains("<script") && !out.contains("<head>"), "{name}");
            let links = cleaned.links();
            let unique: std::collections::HashSet<_> = links.iter().collect();
            assert_eq!(unique.len(), links.len(), "{name}");
            cleaned.images();
            if main && !cleaned.has_content() {
                empty_main += 1;
                if std::env::var("BENCH_VERBOSE").is_ok() {
                    println!("empty main content: {name}");
                }
            }
        }
    }
    println!("{} pages ok, {empty_main} with empty main content", pages.len());
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
            black_box((doc, copy));
        }
    }
    let n = (pages.len() * 10) as f64;
    println!(
        "reparse {:.1} µs/page, clone {:.1} µs/page",
        parse.as_secs_f64() * 1e6 / n,
        clone.as_secs_f64() * 1e6 / n
    );
}
