//! `onlyMainContent` on posts whose pictures carry their credit as a caption: a
//! `<figcaption>` (or a block inside one) opening with a credit label goes; a caption
//! that describes its picture, a chart's source line and a bare agency name stay.

mod common;

use common::{PROSE, assert_kept, main_content, paras_from};

#[test]
fn credit_captions_go_and_source_and_agency_captions_stay() {
    // (The describing caption goes too on this article page, by figure_captions.)
    let html = format!(
        r#"<body><article><h1>Lichens on Old Walls</h1>{}
        <figure><img src="/a.jpg" alt="a wall"><figcaption class="wp-element-caption">Image by
        <a href="https://example.org/ann">Ann &amp; Lee</a> via <a href="https://example.org/fab">CREDITONE</a></figcaption></figure>
        <p>Middle. {PROSE}</p>
        <figure><img src="/b.jpg" alt="a wall"><figcaption><div class="caption">A lichen on a
        churchyard wall in spring DESCRIBES</div><div class="attributions"><p>Image:
        <a href="/producers/ann">Courtesy CREDITTWO</a></p></div></figcaption></figure>
        <figure><img src="/c.jpg" alt="a chart"><figcaption>Source: National Lichen Survey CHARTSOURCE</figcaption></figure>
        <figure><img src="/d.jpg" alt="a wall"><figcaption>Ann Lee / Getty Images AGENCY</figcaption></figure>
        <figure><img src="/e.jpg" alt="a wall"><figcaption>Photo credit: CREDITTHREE</figcaption></figure>
        {}</article></body>"#,
        paras_from(1, 3),
        paras_from(4, 6)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1.", "Middle.", "Part 6.", "CHARTSOURCE", "AGENCY"],
        &["CREDITONE", "CREDITTWO", "CREDITTHREE", "DESCRIBES"],
    );
}

#[test]
fn a_credit_caption_inside_a_span_wrapping_the_post_goes() {
    let html = format!(
        r#"<body><div class="post-content"><span class="stock-content">{}
        <figure><img src="/a.jpg" alt="a wall"><figcaption>Photo by
        <a href="https://example.org/ann">CREDITONE</a></figcaption></figure>
        {}</span></div></body>"#,
        paras_from(1, 3),
        paras_from(4, 6)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1.", "Part 6."], &["CREDITONE"]);
}
