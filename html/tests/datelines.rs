//! Datelines before an article's body (a line that is a `<time>` and at most a short label)
//! go; a byline holding a date, a date inside the text and a forum's per-post dates stay.

mod common;
use common::{assert_kept, main_content, paras};

const ARTICLE: &str = r#"<meta property="og:type" content="article">"#;

fn page(meta: &str) -> String {
    format!(
        r#"<html><head>{ARTICLE}</head><body><article><h1>Lichens on Old Walls</h1>
        {meta}<div class="entry">{}</div></article></body></html>"#,
        paras(8)
    )
}

#[test]
fn a_date_line_before_the_body_goes() {
    for meta in [
        r#"<div class="date"><time datetime="2025-12-19">December 19, 2025</time></div>"#,
        r#"<p class="meta">Published <time>December 19, 2025</time></p>"#,
    ] {
        let out = main_content(&page(meta));
        assert_kept(
            &out,
            &["Lichens on Old Walls", "Part 1. Lichens", "Part 8. Lichens"],
            &["December 19"],
        );
    }
}

#[test]
fn a_date_line_inside_the_headline_block_goes_alone() {
    let out = main_content(&format!(
        r#"<html><head>{ARTICLE}</head><body><article><div class="head"><h1>Lichens on Old Walls</h1>
        <time>19 Dec 2025</time></div><div class="entry">{}</div></article></body></html>"#,
        paras(8)
    ));
    assert_kept(
        &out,
        &["Lichens on Old Walls", "Part 1. Lichens"],
        &["19 Dec 2025"],
    );
}

#[test]
fn a_byline_with_a_date_stays() {
    let out = main_content(&page(
        r#"<p class="meta"><time>October 11, 2023</time> by Autumn Huerter, staff writer</p>"#,
    ));
    assert_kept(
        &out,
        &["October 11, 2023", "Autumn Huerter", "Part 1. Lichens"],
        &[],
    );
}

#[test]
fn a_date_on_a_page_not_read_as_an_article_stays() {
    let out = main_content(&format!(
        r#"<html><body><div class="page"><h1>Lichens on Old Walls</h1>
        <div class="date"><time>December 19, 2025</time></div><div class="entry">{}</div></div></body></html>"#,
        paras(2)
    ));
    assert_kept(&out, &["December 19, 2025", "Part 1. Lichens"], &[]);
}

#[test]
fn dates_repeated_by_each_post_stay() {
    let post = |n: usize| {
        format!(
            r#"<div class="post"><div class="when"><time class="posted">March {n}, 2024</time></div>
            <p>Reply {n}: the orange crust on my garden wall came back after the winter rain and I
            still do not know which lichen it is, so any help naming it would be welcome.</p></div>"#
        )
    };
    let posts: String = (1..=6).map(post).collect();
    let out = main_content(&format!(
        r#"<html><head>{ARTICLE}</head><body><article><h1>Which lichen is this?</h1>{posts}</article></body></html>"#
    ));
    assert_kept(&out, &["March 1, 2024", "March 2, 2024", "Reply 1"], &[]);
}
