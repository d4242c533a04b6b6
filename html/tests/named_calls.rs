//! `onlyMainContent`: a box the site names a call to action (`blog-cta`,
//! `call-to-action`) inside a long post goes, even with a content word beside the name and
//! no button in it; the same box on a page of little prose stays, and so does a
//! `<section>` the page names so (a service page's own band).

mod common;

use common::{assert_kept, main_content, paras, paras_from};

fn page(inner: &str) -> String {
    format!(
        r#"<html><body><header><a href="/">Home</a></header>
        <main><h1>Lichens on Old Walls</h1><div class="post-body">{inner}</div></main>
        <footer><p>Footer text</p></footer></body></html>"#
    )
}

fn cta_box(class: &str) -> String {
    format!(
        r#"<div class="{class}"><h3>PROMO Plan your wall with us</h3>
        <p>PROMO-LINE Our free planner maps every stone of your garden wall in minutes.</p></div>"#
    )
}

#[test]
fn a_named_box_inside_a_long_post_goes() {
    for class in ["blog-cta", "cta-text", "inline-call-to-action"] {
        let inner = format!("{}{}{}", paras(16), cta_box(class), paras_from(17, 32));
        let out = main_content(&page(&inner));
        assert_kept(&out, &["Part 1. Lichens", "Part 16.", "Part 32."], &["PROMO"]);
    }
}

#[test]
fn a_named_box_on_a_page_of_little_prose_stays() {
    let inner = format!("{}{}{}", paras(3), cta_box("blog-cta"), paras_from(4, 5));
    let out = main_content(&page(&inner));
    assert_kept(&out, &["Part 1. Lichens", "PROMO-LINE"], &[]);
}

#[test]
fn a_section_named_so_stays_with_what_it_holds() {
    let band = format!(
        r#"<section class="content-cta-band">{}</section>"#,
        cta_box("cta-text")
    );
    let inner = format!("{}{}{}", paras(16), band, paras_from(17, 32));
    let out = main_content(&page(&inner));
    assert_kept(&out, &["Part 1. Lichens", "PROMO-LINE", "Part 32."], &[]);
}

#[test]
fn other_words_with_call_or_action_are_no_box() {
    let inner = format!(
        "{}{}{}",
        paras(16),
        cta_box("call-log action-list"),
        paras_from(17, 32)
    );
    let out = main_content(&page(&inner));
    assert_kept(&out, &["PROMO-LINE"], &[]);
}
