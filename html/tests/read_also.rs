//! `onlyMainContent` on article pages: the site's "read also" lines among a post's
//! paragraphs ("Also read: <a headline>", "Related: <a headline>") go; a sentence that
//! opens with the same words, and a labelled line that is mostly the author's text, stay;
//! reading-time lines ("5 min read") and a post's dated "Posted by" footer go too.

mod common;

use common::{assert_kept, main_content, paras_from};

#[test]
fn a_read_also_line_inside_the_post_goes_and_a_sentence_opening_so_stays() {
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}
        <p><strong>Also read:</strong> <a href="/mosses">ALSOLINK Mosses of the Old Mill</a></p>{}
        <p>Related: <a href="/ferns">RELATEDLINK Ferns in the Cracks of Bridges</a></p>
        <p>Read more INSIDELINE about the survey in the council's <a href="/report">report</a>,
        which lists every wall.</p>{}</div></div></body>"#,
        paras_from(1, 3),
        paras_from(4, 6),
        paras_from(7, 9)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 9. Lichens", "INSIDELINE"],
        &["ALSOLINK", "RELATEDLINK"],
    );
}

#[test]
fn a_labelled_line_that_is_mostly_the_authors_text_stays() {
    // "Related:" opens a line whose words are the author's, a link among them: it is
    // part of the post.
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}
        <p>Related: OWNLINE the walls facing north hold twice the species, as the
        <a href="/survey">survey</a> found.</p>{}</div></div></body>"#,
        paras_from(1, 4),
        paras_from(5, 8)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "OWNLINE"], &[]);
}

#[test]
fn a_reading_time_line_goes_and_a_sentence_about_reading_times_stays() {
    // A theme's "5 min read" by the post's date, and a "Reading time" line; a paragraph of
    // the post that talks about reading times stays.
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1>
        <div class="meta"><span>May 2, 2024</span><div>5 min read MINREAD</div></div>
        <div class="entry"><p>Reading time: 11 minutes</p>{}
        <p>The reading times INSIDELINE of a survey of old walls run to several hours, and the
        council keeps them all in its archive of the town.</p>{}</div></div></body>"#,
        paras_from(1, 4),
        paras_from(5, 8)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 8. Lichens", "INSIDELINE"],
        &["MINREAD", "11 minutes"],
    );
}

#[test]
fn a_dated_posted_by_line_after_the_post_goes_and_a_signature_stays() {
    // A blog theme's footer under the post ("Posted by … at <date>", "Labels: …"); on
    // another post, the author's signature without a date stays.
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}</div>
        <p>Posted by Ann POSTEDLINE at May 2, 2012 9:01 AM</p>
        <p>Labels: <a href="/l/walls">walls</a>, <a href="/l/lichens">LABELLINE</a></p>
        </div></body>"#,
        paras_from(1, 8)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 8. Lichens"],
        &["POSTEDLINE", "LABELLINE"],
    );
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}</div>
        <p>Posted by Ann Lee SIGNATURE, Product Manager</p></div></body>"#,
        paras_from(1, 8)
    );
    assert_kept(&main_content(&html), &["SIGNATURE"], &[]);
}

#[test]
fn must_read_recommended_and_dont_miss_lines_go_and_a_sentence_opening_so_stays() {
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}
        <p><strong>Must read: </strong><a href="/mosses"><strong>MUSTLINK Mosses of the Old Mill</strong></a></p>{}
        <p><strong>Recommended:</strong> <a href="/ferns">RECLINK Ferns in the Cracks of Bridges</a></p>
        <ul><li><strong>Don’t Miss:</strong> <a href="/moss">MISSLINK Moss on Roofs</a></li></ul>
        <p>Recommended INSIDELINE reading for the survey is the council's <a href="/report">report</a>,
        which lists every wall.</p>{}</div></div></body>"#,
        paras_from(1, 3),
        paras_from(4, 6),
        paras_from(7, 9)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 9. Lichens", "INSIDELINE"],
        &["MUSTLINK", "RECLINK", "MISSLINK"],
    );
}

#[test]
fn a_see_also_line_goes_only_with_its_label_in_bold() {
    // "See also: …" set in bold is the site's pointer; written plain, a newspaper's
    // in-story pointer that the post keeps.
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}
        <p><strong>See also:</strong> <a href="/mosses">BOLDSEE Mosses of the Old Mill</a></p>{}
        <p>See also: <a href="/ferns">PLAINSEE Ferns in the Cracks of Bridges</a></p>{}</div></div></body>"#,
        paras_from(1, 3),
        paras_from(4, 6),
        paras_from(7, 9)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 9. Lichens", "PLAINSEE"],
        &["BOLDSEE"],
    );
}
