//! Side columns named as such beside a short post's named body
//! (`main_content::sidebar_beside`).

mod common;

use common::{PROSE, assert_kept, main_content, paras};

/// A short post (`entry-content`, two paragraphs) beside a `#sidebar` whose text widgets
/// say more than the post; or the same widgets as a call-out inside the post.
fn short_post_with_sidebar(inside: bool) -> String {
    let widgets = format!(
        "<div class=\"widget\"><h2>About:</h2><p>This blog is edited by a photo editor. {PROSE}</p></div>\
         <div class=\"widget\"><h2>Write to me</h2><p>All letters are read, and answered on the blog. {PROSE}</p></div>\
         <div class=\"widget\"><h2>Elsewhere</h2><p>Other writing by the editor appears weekly. {PROSE}</p></div>"
    );
    let (side, callout) = if inside {
        (String::new(), format!("<div class=\"sidebar\">{widgets}</div>"))
    } else {
        (
            format!("<div id=\"sidebar\" class=\"sidebar\">{widgets}</div>"),
            String::new(),
        )
    };
    format!(
        "<html><body><div id=\"page\"><div class=\"post\"><h1>Walls</h1>\
         <div class=\"entry-content\">{}{callout}</div></div>{side}</div></body></html>",
        paras(2),
    )
}

#[test]
fn a_sidebar_beside_a_short_posts_named_body_goes() {
    let out = main_content(&short_post_with_sidebar(false));
    assert_kept(
        &out,
        &["Part 1.", "Part 2."],
        &["edited by a photo editor", "All letters are read"],
    );
}

#[test]
fn a_sidebar_call_out_inside_the_post_stays() {
    let out = main_content(&short_post_with_sidebar(true));
    assert_kept(&out, &["Part 1.", "Part 2.", "edited by a photo editor"], &[]);
}
