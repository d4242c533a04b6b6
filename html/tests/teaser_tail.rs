//! `onlyMainContent`: teaser cards closing the container one per block (a linked headline
//! and a blurb in a `div.row` each, rules between them) after a post whose paragraphs are
//! the container's own children go with the heading over them; the same template also
//! writing entries before them (a listicle's items) stays, and so does a page that is
//! mostly the cards.

mod common;

use common::{assert_kept, main_content, paras};

/// A card of the "more guides" template, numbered `i`.
fn card(i: usize) -> String {
    format!(
        r#"<div class="row"><div class="card"><a href="/guides/{i}"><img src="/g{i}.jpg" alt=""></a>
        <h3><a href="/guides/{i}">HEADLINE{i} The ultimate checklist for walls</a></h3>
        <p>BLURB{i} Everything to look at before the mosses come back, from the north face to
        the cracks where the ferns take root, in one printable list.</p></div></div><hr>"#
    )
}

fn page(inner: &str) -> String {
    format!(
        r#"<html><body><header><a href="/">Home</a></header>
        <main><h1>Lichens on Old Walls</h1><div id="lichens-on-old-walls">{inner}</div></main>
        <footer><p>Footer text</p></footer></body></html>"#
    )
}

fn cards(from: usize, to: usize) -> String {
    (from..=to).map(card).collect()
}

#[test]
fn cards_closing_the_post_one_per_block_go_with_their_heading() {
    let inner = format!("{}<h3>MORE Collect them all</h3>{}", paras(10), cards(1, 4));
    let out = main_content(&page(&inner));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 10. Lichens"],
        &["HEADLINE1", "BLURB1", "BLURB4", "MORE Collect"],
    );
}

#[test]
fn the_same_template_writing_entries_before_them_stays() {
    let inner = format!("{}{}{}{}", cards(1, 1), paras(6), cards(2, 2), cards(3, 5));
    let out = main_content(&page(&inner));
    assert_kept(&out, &["Part 1. Lichens", "BLURB1", "BLURB3", "BLURB5"], &[]);
}

#[test]
fn a_short_introduction_to_the_cards_keeps_them() {
    let inner = format!("{}{}", paras(1), cards(1, 6));
    let out = main_content(&page(&inner));
    assert_kept(&out, &["Part 1. Lichens", "BLURB1", "BLURB6"], &[]);
}
