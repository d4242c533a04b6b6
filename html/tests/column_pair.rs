//! `onlyMainContent`: a short post in a column named as the content, with an unnamed
//! column of links after it (a theme's second column), loses that column; the post's
//! header before its text (a linked title, a byline and a category) stays.

mod common;

use common::{PROSE, assert_kept, main_content};

fn links(n: usize) -> String {
    (1..=n)
        .map(|i| format!(r#"<li><a href="/story-{i}">Most read story number {i} of the week</a></li>"#))
        .collect()
}

#[test]
fn a_link_column_after_the_column_named_as_content_goes() {
    let html = format!(
        r#"<body><div class="v5-content"><div class="cols">
        <div class="col1 main-content"><h1>Midfielder out for six weeks</h1>
        <div class="art-body"><p>The midfielder is out. {PROSE}</p><p>He will be back. {PROSE}</p></div></div>
        <div class="col2"><ol>{}</ol><p>Claim your bet now at the bookmaker.</p></div>
        </div></div></body>"#,
        links(8)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["The midfielder is out", "He will be back"],
        &["Most read story", "Claim your bet"],
    );
}

#[test]
fn the_posts_header_before_its_text_stays() {
    let html = format!(
        r#"<body><div class="main"><div class="post">
        <div class="postinfo"><span>Nov 05 2012</span><a href="/toggle">hide</a><a href="/side">sidebars</a>
        <h2><a href="/post">Updates from the course</a></h2><small>Posted by
        <a href="/author">Tom</a> in <a href="/cat">News and Reviews</a></small></div>
        <div class="entry"><p>The course was wet. {PROSE}</p><p>We played on. {PROSE}</p></div>
        </div></div></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Updates from the course", "The course was wet", "We played on"],
        &[],
    );
}

#[test]
fn a_link_column_before_a_wrapper_of_the_named_post_goes() {
    let html = format!(
        r#"<body><div class="page"><div class="cols">
        <div id="rightsideBlock"><ul>{}</ul><p>Sign up for our monthly newsletter of design news, reviews and stuff to make you smarter.</p></div>
        <div id="permalink"><div class="post"><h1>Filming a car chase</h1>
        <p>The chase was shot cheaply. {PROSE}</p><p>It took a day. {PROSE}</p></div></div>
        </div></div></body>"#,
        links(12)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["The chase was shot cheaply", "It took a day"],
        &["Most read story", "monthly newsletter"],
    );
}
