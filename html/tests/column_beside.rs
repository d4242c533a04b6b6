//! `onlyMainContent` on article pages: a short post and a column of post cards in one
//! wrapper, the cards' blurbs holding as much prose as the post (so the wrapper is taken
//! as the article's body): the column after the post goes whole (cards, call, quote); the
//! same column before the post stays.

mod common;

use common::{PROSE, assert_kept, main_content, paras};

/// A blurbed post card, numbered `i`.
fn card(i: usize) -> String {
    format!(
        r#"<article class="post-card"><h3 class="post-title"><a href="/news/{i}">HEADLINE{i}
        Mosses return to the harbour wall</a></h3><div class="excerpt"><p>BLURB{i} The harbour
        wall was cleaned last spring, and the mosses are already back on its northern face, as
        thick as before, with ferns in the cracks and a lichen nobody had recorded there.</p>
        </div></article>"#
    )
}

/// An article page whose wrapper holds `first` then `second`.
fn page(first: &str, second: &str) -> String {
    format!(
        r#"<html><head><meta property="og:type" content="article"></head><body>
        <header><a href="/">Home</a></header>
        <div class="template"><h1>Lichens on Old Walls</h1>
        <div class="row">{first}{second}</div></div>
        <footer><p>Footer text</p></footer></body></html>"#
    )
}

fn post() -> String {
    format!(r#"<div class="col post">{}</div>"#, paras(5))
}

fn column(cards: &str) -> String {
    format!(
        r#"<div class="col side"><p>CALL Get in touch with our team about your walls today.</p>
        <h2>Latest News</h2><div class="posts">{cards}</div>
        <div class="quote"><p>QUOTE {PROSE}</p></div></div>"#
    )
}

#[test]
fn a_column_of_blurbed_post_cards_after_the_post_goes() {
    let cards: String = (1..=4).map(card).collect();
    let out = main_content(&page(&post(), &column(&cards)));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 5. Lichens"],
        &["HEADLINE1", "BLURB1", "BLURB4", "QUOTE"],
    );
}

#[test]
fn the_same_column_before_the_post_stays() {
    let cards: String = (1..=4).map(card).collect();
    let out = main_content(&page(&column(&cards), &post()));
    assert_kept(&out, &["Part 1. Lichens", "BLURB1", "QUOTE"], &[]);
}
