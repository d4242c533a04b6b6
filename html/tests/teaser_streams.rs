//! `onlyMainContent` on article pages: a stream of teaser cards after the story (other
//! stories' headlines with their blurbs) goes even when it says more than the story, once
//! the story is long enough to stand by itself; after a short introduction the same cards
//! are what the page is about and stay. Cards titled by a plain heading whose one link is
//! the blurb's "Read more" are teasers as much as cards with a linked headline.

mod common;

use common::{assert_kept, main_content, paras};

/// A story of `n` paragraphs followed by a stream of 20 teaser cards.
fn story_then_stream(n: usize) -> String {
    let cards: String = (1..=20)
        .map(|i| {
            format!(
                r#"<li class="stream-item"><h3><a href="/news/{i}">HEADLINE{i} Mosses return to the
                harbour wall after a year</a></h3><p>BLURB{i} The harbour wall was cleaned last
                spring, and the mosses are already back on its northern face, as thick as before,
                say the people who walk past it every morning on their way to work.</p>
                <span class="source">Morning Show</span></li>"#
            )
        })
        .collect();
    format!(
        r#"<body><div id="page"><div class="story"><h1>Lichens on Old Walls</h1>
        <div class="story-body">{}</div></div>
        <div class="stream"><ul class="stream-items">{cards}</ul></div></div></body>"#,
        paras(n)
    )
}

#[test]
fn a_stream_saying_more_than_a_full_story_goes() {
    let out = main_content(&story_then_stream(10));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 10. Lichens"],
        &["HEADLINE1", "BLURB1", "BLURB20"],
    );
}

#[test]
fn the_stream_after_a_short_introduction_stays() {
    let out = main_content(&story_then_stream(2));
    assert_kept(&out, &["Part 1. Lichens", "BLURB1", "BLURB20"], &[]);
}

/// A story followed by five news cards, each an unlinked headline and a blurb whose one
/// link is `link`.
fn story_then_excerpts(link: &str) -> String {
    let cards: String = (1..=5)
        .map(|i| {
            format!(
                r#"<li><h3>HEADLINE{i} Mosses return to the harbour wall</h3><p class="text">
                BLURB{i} The harbour wall was cleaned last spring, and the mosses are back.
                <a href="/news/{i}">{link}</a></p><p class="date">2012-11-0{i}</p></li>"#
            )
        })
        .collect();
    format!(
        r#"<body><div id="articleBlock"><div id="mainPrimary"><h3>Lichens on Old Walls</h3>{}</div>
        <div id="secondary"><ul>{cards}</ul></div></div></body>"#,
        paras(6)
    )
}

#[test]
fn excerpts_titled_by_a_plain_heading_with_a_read_more_link_go() {
    let out = main_content(&story_then_excerpts("Read more..."));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 6. Lichens"],
        &["HEADLINE1", "BLURB1", "BLURB5"],
    );
}

#[test]
fn cards_whose_one_link_is_no_read_more_stay() {
    // The same cards, each linking a source by its name: no pointer to another post.
    let out = main_content(&story_then_excerpts("the harbour survey of 2011"));
    assert_kept(&out, &["Part 1. Lichens", "BLURB1", "BLURB5"], &[]);
}
