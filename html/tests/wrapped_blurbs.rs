//! `onlyMainContent` on article pages: teaser cards whose blurb is wrapped in an element
//! of its own (an excerpt's `div` around the paragraph) are still cards, not the story's
//! prose: the post before them is found as the body and the cards after it go. A
//! section whose wrapped paragraph stands beside a list of many links is no card.

mod common;

use common::{assert_kept, main_content, paras};

/// A four-paragraph post and a promotion followed by three briefs of other posts, each
/// blurb in `wrap`.
fn post_then_briefs(wrap: &str) -> String {
    let briefs: String = (1..=3)
        .map(|i| {
            format!(
                r#"<div class="brief post-brief"><h3><a href="/2012/10/{i}/post">HEADLINE{i} The harbour wall
                in autumn</a></h3><p class="date">Wednesday, October {i}, 2012</p>
                <{wrap} class="excerpt"><p>BLURB{i} The harbour wall was cleaned last spring, and
                the mosses are already back on its northern face, as thick as they were before,
                say the people who walk past it every morning.</p></{wrap}></div>"#
            )
        })
        .collect();
    format!(
        r#"<body><div class="beta"><div class="main"><div class="post"><h1>Lichens on Old Walls</h1>
        <div class="post-content">{}</div></div><div class="promo"><p>PROMO The new book on
        walls and what grows on them is out this week, with fifty plates.</p></div></div></div>
        <div class="gamma"><div class="briefs">{briefs}</div></div></body>"#,
        paras(4)
    )
}

#[test]
fn briefs_with_wrapped_blurbs_after_a_short_post_go() {
    let out = main_content(&post_then_briefs("div"));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 4. Lichens"],
        &["HEADLINE1", "BLURB1", "BLURB3"],
    );
}

#[test]
fn a_wrapped_paragraph_beside_many_links_is_no_blurb() {
    // A service page's "areas we serve": a paragraph in its own wrapper beside twenty
    // place links; it stays with the page's copy.
    let places: String = (1..=20)
        .map(|i| format!(r#"<a href="/area/{i}">Valley Town {i}</a> "#))
        .collect();
    let html = format!(
        r#"<body><main><section class="offer"><div class="copy">{}</div></section>
        <section class="areas"><div class="inner"><div class="areas-copy"><p>AREAS We have
        served the valley and the bay for over twenty years, from the old town to the new
        harbour, with the same crews and the same care. Every visit starts with a walk around
        the house and ends with a written plan, and every plan comes with a season of follow-up
        visits at no charge, whatever the valley and the weather bring.</p></div>
        <div class="places">{places}</div></div></section></main></body>"#,
        paras(5)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "AREAS We have"], &[]);
}
