//! Comments under an article, replies named as comments, post footers and small link widgets after the body.

use super::*;

/// A reader's comment: prose, like the article it follows.
pub(super) fn comment(i: u32) -> String {
    format!(
        "<li class='comment'><div class='comment-author'><a href='/u{i}'>Reader {i}</a></div>\
         <div class='comment-body'><p>COMMENT{i} I tried this on my own garden wall last spring, \
         and the grey crust that everybody calls dirt turned out to be three species at least.</p></div></li>"
    )
}

#[test]
fn comments_under_an_article_go_however_long_the_thread() {
    // Thirty comments hold far more text than the post: still not the page's content.
    let comments: String = (0..30).map(comment).collect();
    let body = paras(2);
    let html = format!(
        r#"<body><div id="content"><div class="post"><h1>Lichens on Old Walls</h1>
        <div class="entry-content">{body}</div></div>
        <div id="comments"><h3>30 Responses to “Lichens on Old Walls”</h3><ol class="commentlist">{comments}</ol>
        <div id="respond"><h3>Leave a Reply</h3><p>Your email address will not be published.</p></div></div>
        </div></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1.", "Part 2."],
        &["COMMENT0", "COMMENT29", "Responses to", "Leave a Reply"],
    );
}

#[test]
fn comments_announced_only_by_a_heading_go() {
    // No class names: a heading titles the comments, which follow as plain siblings.
    let comments: String = (0..12)
        .map(|i| {
            format!(
                "<div id='c{i}'><p>COMMENT{i} Same here, the old churchyard wall near us is covered \
                 in orange and grey patches every winter.</p></div><p class='posted'>Posted by: Reader {i}</p>"
            )
        })
        .collect();
    let body = paras(2);
    let html = format!(
        r#"<body><div id="center"><div class="content"><h2>Lichens on Old Walls</h2>{body}
        <p class="posted">Posted by the author</p><h2 id="comments">Comments</h2>{comments}</div></div></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Lichens on Old Walls", "partnership between a fungus"],
        &["COMMENT0", "COMMENT11", ">Comments<"],
    );
}

#[test]
fn forum_replies_named_as_comments_stay() {
    // Forum software names every post, the opening one included, a comment.
    let posts: String = (0..6)
        .map(|i| {
            format!(
                "<article class='post comment' id='comment-{i}'><div class='author'>user{i}</div>\
                 <div class='comment-content'><p>POST{i} {PROSE}</p></div></article>"
            )
        })
        .collect();
    let html =
        format!(r#"<body><main><div class="topic"><h1>Best lichen guide?</h1>{posts}</div></main></body>"#);
    let out = main_content(&html);
    for i in 0..6 {
        assert!(out.contains(&format!("POST{i} ")), "lacks post {i}:\n{out}");
    }
}

#[test]
fn the_post_footer_after_the_body_goes() {
    // Tags, sharing, previous/next and a related list after the last sentence: furniture.
    let related: String = (0..3)
        .map(|i| format!("<li><a href='/r{i}'>RELATED{i} Another story about walls</a></li>"))
        .collect();
    let body = paras(6);
    let html = format!(
        r#"<body><main><article><h1>Lichens on Old Walls</h1>{body}
        <figure><img src="/wall.jpg" alt=""><figcaption>A wall in May.</figcaption></figure>
        <div class="post-tags">Tags: <a href="/t/lichen">TAGLICHEN</a>, <a href="/t/walls">TAGWALLS</a></div>
        <div class="nav-links"><a href="/prev">PREVPOST Moss on roofs</a> <a href="/next">NEXTPOST Ferns in cracks</a></div>
        <h3>You might also enjoy</h3><ul class="list">{related}</ul></article></main></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &[
            "Lichens on Old Walls",
            "partnership between a fungus",
            "A wall in May.",
        ],
        &["TAGLICHEN", "PREVPOST", "RELATED0", "RELATED2"],
    );
}

#[test]
fn a_small_link_widget_is_not_chosen_over_the_long_body() {
    // A column of teaser links whose many links add up to more worth than a short post.
    let teasers: String = (0..40)
        .map(|i| {
            format!(
                "<li class='item'><a href='/s{i}'>WIDGET{i} A teaser headline about another subject</a> \
                 <span>(12)</span></li>"
            )
        })
        .collect();
    let body = paras(5);
    let html = format!(
        r#"<body><div id="page"><div class="story">{body}</div>
        <div id="more"><div class="module-content"><ul class="module-list">{teasers}</ul></div></div></div></body>"#
    );
    let out = main_content(&html);
    assert_kept(&out, &["partnership between a fungus"], &["WIDGET0", "WIDGET39"]);
}
