//! Checks the token stream handed to format plugins (ABI 0.4
//! `page.cleaned-tokens`) against the HTML it replaces: for every page of a
//! corpus, cleans it as the server does (`onlyMainContent`, whole page when
//! that leaves nothing), then makes markdown (a) from the serialised cleaned
//! HTML and (b) from the token stream, with the markdown plugin's code
//! (native), and counts the pages where they differ, printing where.
//!
//! ```sh
//! cargo run --release -p distill-html --example token_identity -- ../shared/corpus/wcxb-dev [ID…]
//! ```

use std::io::Read;
use std::time::{Duration, Instant};
use std::{env, fs};

use distill_html::{CleanOptions, ParsedPage, decode_html};

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: token_identity CORPUS_DIR [ID…]");
        std::process::exit(2);
    };
    let only = &args[1..];
    let mut files: Vec<_> = fs::read_dir(format!("{dir}/html"))
        .expect("corpus html dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
        .collect();
    files.sort();
    let url = url::Url::parse("https://example.com/page").unwrap();
    let (mut pages, mut differ, mut incomplete) = (0, 0, 0);
    let (mut serialise_t, mut encode_t) = (Duration::ZERO, Duration::ZERO);
    let (mut html_bytes, mut ops_bytes, mut text_bytes) = (0usize, 0usize, 0usize);
    for path in files {
        let id = path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".html.gz")
            .to_string();
        if !only.is_empty() && !only.contains(&id) {
            continue;
        }
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(fs::File::open(&path).unwrap())
            .read_to_end(&mut bytes)
            .unwrap();
        let raw = decode_html(&bytes, Some("text/html"));
        let mut opts = CleanOptions {
            only_main_content: true,
            include_tags: &[],
            exclude_tags: &[],
        };
        let mut cleaned = ParsedPage::parse(&raw, &url).into_clean(&opts).unwrap();
        if !cleaned.has_content() {
            opts.only_main_content = false;
            cleaned = ParsedPage::parse(&raw, &url).into_clean(&opts).unwrap();
        }
        let t = Instant::now();
        let html = cleaned.html();
        serialise_t += t.elapsed();
        let t = Instant::now();
        let (ops, text) = cleaned.tokens();
        encode_t += t.elapsed();
        html_bytes += html.len();
        ops_bytes += ops.len();
        text_bytes += text.len();
        pages += 1;
        let a = distill_markdown::html_to_markdown(&html);
        let Some(b) = distill_markdown::tokens_to_markdown(&ops, &text) else {
            incomplete += 1;
            println!("{id}: the token stream did not decode");
            continue;
        };
        if a != b {
            differ += 1;
            let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
            let from = at.saturating_sub(60);
            let show = |s: &str| {
                let mut lo = from.min(s.len());
                while !s.is_char_boundary(lo) {
                    lo -= 1;
                }
                let mut hi = (at + 60).min(s.len());
                while !s.is_char_boundary(hi) {
                    hi += 1;
                }
                format!("{:?}", &s[lo..hi])
            };
            println!(
                "{id}: differs at byte {at}\n  html:   {}\n  tokens: {}",
                show(&a),
                show(&b)
            );
        }
    }
    println!(
        "{pages} pages: {differ} differ, {incomplete} streams did not decode; serialise {:.1} ms, \
         encode {:.1} ms; HTML {html_bytes} B, tokens {ops_bytes} B ops + {text_bytes} B text",
        serialise_t.as_secs_f64() * 1e3,
        encode_t.as_secs_f64() * 1e3
    );
}
