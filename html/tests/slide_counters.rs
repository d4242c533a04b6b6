//! `onlyMainContent` on article pages: a slideshow's slides, each opened by a heading
//! counting its place in the show ("3/8 …"), go; a story's numbered sections ("3. …")
//! stay.

mod common;

use common::{PROSE, assert_kept, main_content, paras};

fn show(n: usize, heading: impl Fn(usize) -> String) -> String {
    (1..=n)
        .map(|i| {
            format!(
                "<li><h2>{}</h2><p>Slide caption {i}. {PROSE}</p></li>",
                heading(i)
            )
        })
        .collect()
}

#[test]
fn a_slideshows_numbered_slides_go() {
    let html = format!(
        r#"<body><div class="text" itemprop="articleBody">{}<div class="gallery"><ul class="legends">{}</ul></div>{}</div></body>"#,
        paras(4),
        show(8, |i| format!(
            "<span class=\"counter\">{i}/8</span> Picture title {i}"
        )),
        common::paras_from(5, 6)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 6. Lichens"],
        &["Slide caption 1.", "Slide caption 8.", "Picture title"],
    );
}

#[test]
fn a_storys_numbered_sections_stay() {
    let html = format!(
        r#"<body><div class="text" itemprop="articleBody">{}<ol>{}</ol></div></body>"#,
        paras(4),
        show(8, |i| format!("{i}. Take any blankets off the bed, number {i}"))
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Slide caption 1.", "Slide caption 8."],
        &[],
    );
}
