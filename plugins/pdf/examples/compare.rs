use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show = std::env::var("SHOW").is_ok();
    for path in args {
        let bytes = std::fs::read(&path).unwrap();
        let t = Instant::now();
        let r = pdf_inspector::process_pdf_mem(&bytes);
        let el = t.elapsed();
        match r {
            Ok(r) => {
                let md = r.markdown.clone().unwrap_or_default();
                println!(
                    "== {path}: inspector {:?} pages={} type={:?} ocr={:?} title={:?} chars={} ({:.1} pages/s)",
                    el,
                    r.page_count,
                    r.pdf_type,
                    r.pages_needing_ocr,
                    r.title,
                    md.len(),
                    r.page_count as f64 / el.as_secs_f64()
                );
                if show {
                    println!("{md}");
                }
            }
            Err(e) => println!("== {path}: inspector error {e} in {el:?}"),
        }
        let t = Instant::now();
        match lopdf::Document::load_mem(&bytes) {
            Ok(doc) => {
                let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
                let txt = doc.extract_text(&pages).unwrap_or_default();
                let el = t.elapsed();
                println!(
                    "   lopdf extract_text {:?} chars={} ({:.1} pages/s)",
                    el,
                    txt.len(),
                    pages.len() as f64 / el.as_secs_f64()
                );
                if show && std::env::var("SHOWLOPDF").is_ok() {
                    println!("{txt}");
                }
            }
            Err(e) => println!("   lopdf error {e} in {:?}", t.elapsed()),
        }
    }
}
