//! Where the PDF converter's time goes, natively: the bomb pre-check against
//! pdf-inspector. `cargo run --release -p distill-pdf --example timing -- FILE.pdf`
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("usage: timing FILE.pdf");
    let bytes = std::fs::read(&path).expect("reading the PDF");
    let n = 30;
    let t = Instant::now();
    for _ in 0..n {
        distill_pdf::check_inflated_sizes(&bytes).unwrap();
    }
    let check = t.elapsed() / n;
    let opts = distill_pdf::Opts {
        mode: distill_pdf::Mode::Auto,
        max_pages: None,
    };
    let t = Instant::now();
    for _ in 0..n {
        distill_pdf::convert_pdf(&bytes, &opts).unwrap();
    }
    let all = t.elapsed() / n;
    println!("{path}: pre-check {check:?}, whole conversion {all:?}");
}
