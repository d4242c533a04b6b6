//! `onlyMainContent`: a grid of cards under a pointer title after the post ("Related
//! articles", "Discover more") goes even when its cards are not links (a plain heading, a
//! blurb, a byline whose link is the writer's; a picture that is the card's one link), down
//! a chain of wrappers; the same grid under a title that points nowhere stays, and so do
//! cards of several templates.

mod common;

use common::{assert_kept, main_content, paras};

/// A card of class `class` numbered `i`: a plain heading, a blurb and a byline.
fn card(class: &str, i: usize) -> String {
    format!(
        r#"<div class="{class}"><img src="/c{i}.jpg" alt=""><h3>HEADLINE{i} Mosses of the north face</h3>
        <p>BLURB{i} What grows where the sun never reaches, and how to tell one cushion from another.</p>
        <p>by <a href="/writers/{i}">Ann Lee</a></p></div>"#
    )
}

/// A carousel card numbered `i`: a picture as its link, a section link, a plain heading
/// and a blurb.
fn slide(i: usize) -> String {
    format!(
        r#"<div class="strip-entry"><article class="piece"><a href="/posts/{i}"><img src="/p{i}.jpg" alt=""></a>
        <div class="words"><p><a href="/sections/{i}">SECTION{i}</a></p>
        <h3><span>SLIDE{i} Nine hours in a walled garden of ferns</span></h3>
        <p>A day among the fronds with the keeper of the oldest garden in the valley.</p></div></article></div>"#
    )
}

fn page(after: &str) -> String {
    format!(
        r#"<html><body><header><a href="/">Home</a></header>
        <main><h1>Lichens on Old Walls</h1><div class="post">{}</div>{after}</main>
        <footer><p>Footer text</p></footer></body></html>"#,
        paras(40)
    )
}

fn grid(title: &str, cards: &str) -> String {
    format!(r#"<section class="shelf"><h2>{title}</h2><div class="grid">{cards}</div></section>"#)
}

#[test]
fn a_grid_of_cards_under_a_pointer_title_goes() {
    let cards: String = (1..=3).map(|i| card("card", i)).collect();
    let out = main_content(&page(&grid("Related articles that may interest you", &cards)));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 40. Lichens"],
        &["HEADLINE1", "BLURB3", "Related articles"],
    );
}

#[test]
fn a_carousel_under_a_pointer_title_goes_down_its_wrappers() {
    let slides: String = (1..=4).map(slide).collect();
    let after = format!(
        r#"<div class="strip"><h4>Discover More</h4><hr><div class="outer"><div class="inner">
        <div class="entries">{slides}</div></div></div></div>"#
    );
    let out = main_content(&page(&after));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 40. Lichens"],
        &["SLIDE1", "SLIDE4", "Discover More"],
    );
}

#[test]
fn the_same_grid_under_a_plain_title_stays() {
    let cards: String = (1..=3).map(|i| card("card", i)).collect();
    let out = main_content(&page(&grid("The walls we visited", &cards)));
    assert_kept(&out, &["Part 40. Lichens", "HEADLINE1", "BLURB3"], &[]);
}

#[test]
fn cards_of_several_templates_stay() {
    let cards = format!("{}{}{}", card("card-a", 1), card("card-b", 2), card("card-c", 3));
    let out = main_content(&page(&grid("Related reading", &cards)));
    assert_kept(&out, &["Part 40. Lichens", "HEADLINE1", "BLURB3"], &[]);
}
