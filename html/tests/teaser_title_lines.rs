//! `onlyMainContent` on article pages: a column of post cards after the post whose titles
//! are written as a line that is one link (no heading element: a `div` around the link),
//! each with a date and a blurb, is a teaser shelf and goes, though its blurbs outweigh its
//! links and its class names it as content; a column whose linked lines are pictures with
//! their captions is no such shelf.

mod common;

use common::{assert_kept, main_content, paras};

/// A post followed by a column of `n` cards built by `card`.
fn post_with_column(n: usize, card: impl Fn(usize) -> String) -> String {
    let cards: String = (1..=n).map(card).collect();
    format!(
        r#"<body><main><div class="slot"><article class="single"><h1>Lichens on Old Walls</h1>
        <div class="body">{}</div></article></div>
        <div class="posts-slot"><div class="trio">{cards}</div></div></main></body>"#,
        paras(8)
    )
}

#[test]
fn post_cards_titled_by_a_link_line_after_the_post_go() {
    let html = post_with_column(5, |i| {
        format!(
            r#"<article class="card"><div class="categories">Front Page</div>
            <div class="title"><a href="/news/{i}">HEADLINE{i} Mosses return to the harbour wall</a></div>
            <div class="date">December {i}, 2025</div>
            <div class="blurb">BLURB{i} The harbour wall was cleaned last spring, and the mosses
            are already back on its northern face, as thick as before...</div></article>"#
        )
    });
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 8. Lichens"],
        &["HEADLINE1", "BLURB1", "BLURB5"],
    );
}

#[test]
fn cards_whose_link_line_is_a_picture_with_a_caption_stay() {
    // The same column, each linked line a picture with its caption (a customer's photo
    // and role over a quote): no headline, no teaser shelf.
    let html = post_with_column(5, |i| {
        format!(
            r#"<article class="card"><div class="categories">Front Page</div>
            <div class="title"><a href="/people/{i}"><img src="/p{i}.jpg" alt="photo"/>PERSON{i}
            Gardener at the old mill</a></div>
            <div class="date">December {i}, 2025</div>
            <div class="blurb">QUOTE{i} The harbour wall was cleaned last spring, and the mosses
            are already back on its northern face, as thick as before...</div></article>"#
        )
    });
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "QUOTE1", "QUOTE5"], &[]);
}
