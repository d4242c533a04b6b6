use distill_html::*;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let raw = std::fs::read(&a[1]).unwrap();
    let html = decode_html(&raw, Some("text/html"));
    let doc = dom_query::Document::from(html.as_str());
    let body = doc.select("body");
    println!("body text len {}", body.text().len());
    for sel in a[2..].iter() {
        let s = doc.select(sel);
        for n in s.nodes().iter().take(5) {
            let anc: Vec<String> = n.ancestors(Some(12)).iter().map(|x| format!("{}{}", x.node_name().unwrap_or_default(), x.attr("class").map(|c| format!(".{}", c.split_whitespace().next().unwrap_or(""))).unwrap_or_default())).collect();
            println!("{sel}: text {} anc {:?}", n.text().len(), anc);
        }
    }
}
