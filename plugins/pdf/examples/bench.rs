//! Pages per second of the converter (native): cargo run --release --example bench -- FILE...
fn main() {
    'files: for path in std::env::args().skip(1).collect::<Vec<_>>() {
        let bytes = std::fs::read(&path).unwrap();
        let opts = distill_pdf::Opts {
            mode: distill_pdf::Mode::Auto,
            max_pages: None,
        };
        let t = std::time::Instant::now();
        let runs = 10;
        let mut pages = 0u64;
        for _ in 0..runs {
            let d = match distill_pdf::convert_pdf(&bytes, &opts) {
                Ok(d) => d,
                Err(e) => {
                    println!("{path}: refused in {:?}: {e:?}", t.elapsed());
                    continue 'files;
                }
            };
            let m: distill_sdk::Value = distill_sdk::serde_json::from_str(&d.metadata).unwrap();
            pages += m["numPages"].as_u64().unwrap();
        }
        let el = t.elapsed();
        println!(
            "{path}: {:.1} ms/file, {:.0} pages/s",
            el.as_secs_f64() * 1000.0 / runs as f64,
            pages as f64 / el.as_secs_f64()
        );
    }
}
