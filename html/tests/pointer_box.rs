//! `onlyMainContent` on article pages: a box named as the site's (`promo`) right after a
//! line titling pointers to other pages ("Also on …:") goes with its title, even when it
//! is prose (another story's slideshow written into the post's element); the same box
//! without the title, and a pointer-titled section without such a class, stay.

mod common;

use common::{PROSE, assert_kept, main_content, paras};

/// A slideshow of `n` slides, each a heading and a paragraph of prose.
fn slides(n: usize) -> String {
    (1..=n)
        .map(|i| format!("<li><h4>Slide {i} heading</h4><p>Slide {i} text. {PROSE}</p></li>"))
        .collect()
}

#[test]
fn a_promo_box_after_an_also_on_title_goes_with_it() {
    let html = format!(
        r#"<body><div class="entry"><div class="articleBody" itemprop="articleBody">{}
        <div class="clear"></div><p>Also on Example:</p>
        <div class="promo_holder clearfix"><ul class="slideshow">{}</ul></div>
        </div></div></body>"#,
        paras(3),
        slides(8)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 3. Lichens"],
        &["Also on Example", "Slide 1 text", "Slide 8 text"],
    );
}

#[test]
fn the_box_without_the_title_and_a_titled_section_without_the_class_stay() {
    let html = format!(
        r#"<body><div class="entry"><div class="articleBody" itemprop="articleBody">{}
        <div class="promo_holder clearfix"><ul class="slideshow">{}</ul></div>
        <p>Related reading:</p><div class="reading"><p>Further text. {PROSE}</p></div>
        </div></div></body>"#,
        paras(3),
        slides(3)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &[
            "Part 3. Lichens",
            "Slide 1 text",
            "Slide 3 text",
            "Related reading",
            "Further text",
        ],
        &[],
    );
}
