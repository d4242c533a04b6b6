//! `onlyMainContent` on a short blog post: the blog platform's sentences about the post's
//! responses under it ("You can follow any responses to this entry through the RSS 2.0
//! feed. You can leave a response, or trackback from your own site.") and its comment
//! form's note on markup go, though each is written as a paragraph of prose, and so does
//! the label of a post's trackback address; the same words inside the post stay.

mod common;

use common::{assert_kept, main_content, paras_from};

fn page(post: &str) -> String {
    format!(
        r##"<body><div id="content"><div class="post"><h2>Lichens on Old Walls</h2>
        <div class="entry">{post}</div></div>
        <p class="small">You can follow any responses to this entry through the
        <a href="https://example.com/feed">RSS 2.0</a> feed. You can
        <a href="#respond">leave a response</a>, or <a href="https://example.com/tb">trackback</a>
        from your own site. RESPONSESLINE</p>
        <p>You may use these HTML tags and attributes: a href title abbr acronym b blockquote
        cite code del em i q strike strong, and please be kind. MARKUPNOTE</p>
        </div></body>"##
    )
}

#[test]
fn the_platform_lines_under_a_short_post_go() {
    let out = main_content(&page(&paras_from(1, 2)));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 2. Lichens"],
        &["RESPONSESLINE", "MARKUPNOTE"],
    );
}

#[test]
fn the_same_words_inside_the_post_stay() {
    let post = format!(
        "{}<p>You can leave a response on the club's notice board, the warden wrote in
        the margin of the survey, and we will read it aloud. INSIDELINE</p>{}",
        paras_from(1, 1),
        paras_from(2, 2)
    );
    let out = main_content(&page(&post));
    assert_kept(&out, &["Part 2. Lichens", "INSIDELINE"], &["RESPONSESLINE"]);
}

#[test]
fn a_trackback_address_under_a_post_goes() {
    let out = main_content(&format!(
        r#"<body><div id="content"><div class="post"><h2>Lichens on Old Walls</h2>
        <div class="entry">{}</div></div>
        <div class="after-post"><h3>Pings</h3>
        <p>TrackBack URL for this entry:<br>https://example.com/services/trackback/6a00e5 TBADDRESS</p>
        <p>Listed below are links to weblogs that reference
        <a href="https://example.com/post">Lichens on Old Walls, a Survey of the Churchyard</a>:
        TBLISTED</p></div>
        </div></body>"#,
        paras_from(1, 2)
    ));
    assert_kept(&out, &["Part 1. Lichens", "Part 2. Lichens"], &["TBADDRESS"]);
}
