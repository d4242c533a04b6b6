//! Development aid: times (thread CPU) the cleaning of a directory of pages with and
//! without main-content extraction, alternating page by page, and repeats it for a
//! profiler. `cargo run --release -p distill-html --example profile_clean -- DIR [ROUNDS]`
use distill_html::{CleanOptions, ParsedPage, decode_html};

fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let rounds: usize = a.get(2).and_then(|r| r.parse().ok()).unwrap_or(3);
    let url = url::Url::parse("https://example.com/").unwrap();
    let mut pages = Vec::new();
    for e in std::fs::read_dir(&a[1]).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "html") {
            let html = decode_html(&std::fs::read(&p).unwrap(), Some("text/html"));
            pages.push(ParsedPage::parse(&html, &url));
        }
    }
    let main = CleanOptions {
        only_main_content: true,
        include_tags: &[],
        exclude_tags: &[],
    };
    let whole = CleanOptions {
        only_main_content: false,
        ..main
    };
    let (mut t_main, mut t_whole) = (0u64, 0u64);
    for _ in 0..rounds {
        for p in &pages {
            let t0 = cpu_ns();
            std::hint::black_box(p.clean(&main).unwrap());
            let t1 = cpu_ns();
            std::hint::black_box(p.clean(&whole).unwrap());
            let t2 = cpu_ns();
            t_main += t1 - t0;
            t_whole += t2 - t1;
        }
    }
    let n = (rounds * pages.len()) as f64;
    eprintln!(
        "CPU per page: clean with main content {:.0} µs, whole page {:.0} µs, extraction {:.0} µs",
        t_main as f64 / 1e3 / n,
        t_whole as f64 / 1e3 / n,
        (t_main as f64 - t_whole as f64) / 1e3 / n
    );
}
