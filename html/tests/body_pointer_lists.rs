//! `onlyMainContent` on article pages: a list of links to other stories written into the
//! story's element after its last paragraph, under a pointer title of the form "More
//! <kind> stories from …", goes with its title even when it is a fifth of the page; a
//! list under "More about …" (the story's own further reading) stays.

mod common;

use common::{PROSE, assert_kept, main_content, paras};

/// A list of `n` links to other stories, each with a headline-long title.
fn story_links(n: usize) -> String {
    (1..=n)
        .map(|i| {
            format!(
                r#"<li><a href="https://example.com/news/{i}">Other story {i}: the harbour reopens</a></li>"#
            )
        })
        .collect()
}

fn page(title: &str) -> String {
    format!(
        r#"<body><div class="viewport"><article><h1>Lichens on Old Walls</h1>
        <p class="byline">By A. Writer, July 24</p><div class="articleText">{}
        <p><em><strong>{title}</strong></em></p><ul>{}</ul>
        <p>Explore related topics: <a href="/t/harbour">harbour</a>, <a href="/t/storms">storms</a></p>
        </div></article><article class="notes"><p>Note. {PROSE}</p></article></div></body>"#,
        paras(6),
        story_links(5)
    )
}

#[test]
fn a_long_list_under_a_more_stories_from_title_after_the_story_goes() {
    let out = main_content(&page("More world stories from Example News:"));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 6. Lichens"],
        &["More world stories", "Other story 1", "Other story 5"],
    );
}

#[test]
fn a_list_under_a_more_about_title_stays() {
    let out = main_content(&page("More about the lichens of the north:"));
    assert_kept(
        &out,
        &[
            "Part 6. Lichens",
            "More about the lichens",
            "Other story 1",
            "Other story 5",
        ],
        &[],
    );
}
