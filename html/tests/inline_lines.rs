//! `onlyMainContent` on article pages: a footer line written as an inline element straight
//! inside the post's wrapper after its last paragraph (`<span class="posted">Posted by …
//! at <date></span>`, `<small>© …</small>`) goes like the same line written as a block; an
//! inline element sharing its line with the post's text, or inside the post's prose, stays.

mod common;

use common::{assert_kept, main_content, paras_from};

#[test]
fn a_posted_by_span_after_the_last_paragraph_goes() {
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="blogbody">{}
        <a name="more"></a>
        <span class="posted">Posted by Ann POSTEDSPAN at December 16, 2025 11:15 AM <br></span>
        </div></div></body>"#,
        paras_from(1, 8)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "Part 8. Lichens"], &["POSTEDSPAN"]);
}

#[test]
fn a_copyright_line_in_small_type_after_the_post_goes_and_a_shared_line_stays() {
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}
        Closing words SHAREDLINE <em>posted by Ann at May 2, 2012</em> as the walls dried.
        <br><small>&copy; 2012 Coast Media NOTICESPAN</small></div></div></body>"#,
        paras_from(1, 8)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &[
            "Part 1. Lichens",
            "Part 8. Lichens",
            "SHAREDLINE",
            "posted by Ann",
        ],
        &["NOTICESPAN"],
    );
}

#[test]
fn a_dated_written_by_span_after_the_post_goes_and_an_undated_byline_stays() {
    let page = |line: &str| {
        format!(
            r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}
            <span class="small">{line}</span></div></div></body>"#,
            paras_from(1, 8)
        )
    };
    let out = main_content(&page("written by Ann WRITTENSPAN, October 20, 2012"));
    assert_kept(&out, &["Part 1. Lichens", "Part 8. Lichens"], &["WRITTENSPAN"]);
    let out = main_content(&page("Written by Ann Lee BYLINESPAN"));
    assert_kept(&out, &["Part 8. Lichens", "BYLINESPAN"], &[]);
}
