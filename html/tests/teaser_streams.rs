//! `onlyMainContent` on article pages: a stream of teaser cards after the story (other
//! stories' headlines with their blurbs) goes even when it says more than the story, once
//! the story is long enough to stand by itself; after a short introduction the same cards
//! are what the page is about and stay.

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
