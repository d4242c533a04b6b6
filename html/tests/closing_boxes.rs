//! A box named for the post's writer (`blog-post-author-block`, `#author`, `contributor`)
//! or for the slot after the post (`after-content`, `below-post`) after the post's last
//! paragraph goes with the biography or appeal in it; the same box above the post, a short
//! byline so named after it, a box named for neither, and a list's entries classed with
//! their writer's name stay.

mod common;
use common::{assert_kept, main_content, paras};

const BIO: &str = "Ann Lee writes about gardens, old houses and the plants that grow on their \
    walls. She has walked the dry-stone walls of the north for ten years.";

fn page(before: &str, after: &str) -> String {
    format!(
        r#"<html><body><div class="page"><h1>Lichens on Old Walls</h1>
        <div class="entry">{before}{}{after}</div></div></body></html>"#,
        paras(8)
    )
}

fn writer_box(class: &str) -> String {
    format!(r#"<div class="{class}"><h4>Ann Lee</h4><p>Garden writer</p><p>{BIO}</p></div>"#)
}

#[test]
fn a_box_named_for_the_writer_after_the_post_goes() {
    for class in [
        "blog-post-author-block",
        "BlogAuthorProfile",
        "learn-post__contributor",
    ] {
        let out = main_content(&page("", &writer_box(class)));
        assert_kept(
            &out,
            &["Part 1. Lichens", "Part 8. Lichens"],
            &["Ann Lee writes about", "Garden writer"],
        );
    }
}

#[test]
fn a_box_named_by_its_id_goes() {
    let after = format!(r#"<div id="author" class="panel"><p>{BIO}</p></div>"#);
    let out = main_content(&page("", &after));
    assert_kept(&out, &["Part 8. Lichens"], &["Ann Lee writes about"]);
}

#[test]
fn the_same_box_above_the_post_stays() {
    let out = main_content(&page(&writer_box("blog-post-author-block"), ""));
    assert_kept(&out, &["Part 1. Lichens", "Ann Lee writes about"], &[]);
}

#[test]
fn a_box_without_the_writer_named_stays() {
    let out = main_content(&page("", &writer_box("blog-post-block")));
    assert_kept(&out, &["Part 8. Lichens", "Ann Lee writes about"], &[]);
}

#[test]
fn a_short_byline_after_the_post_stays() {
    let after = r#"<div class="post-author">Words and pictures by Ann Lee, Leeds.</div>"#;
    let out = main_content(&page("", after));
    assert_kept(&out, &["Part 8. Lichens", "Words and pictures by Ann Lee"], &[]);
}

#[test]
fn a_list_of_entries_classed_with_their_writer_stays() {
    // A blog's front page: each entry carries its writer's name as a class.
    let entries: String = (1..=4)
        .map(|k| {
            format!(
                r#"<div class="entry author-ann-lee"><h2>Walls, part {k}</h2><p>Entry {k}. {BIO}</p></div>"#
            )
        })
        .collect();
    let out = main_content(&page("", &entries));
    assert_kept(
        &out,
        &["Part 8. Lichens", "Entry 1. Ann Lee", "Entry 4. Ann Lee"],
        &[],
    );
}

const APPEAL: &str = "Since you made it to the bottom of this story, we have a small favour to ask: \
    our reporting is free to read, and readers like you keep it that way. Please give today.";

#[test]
fn the_slot_named_after_the_post_goes() {
    for class in ["silic-after-content", "below-content widget", "under_post"] {
        let after = format!(r#"<section class="{class}"><p>{APPEAL}</p></section>"#);
        let out = main_content(&page("", &after));
        assert_kept(
            &out,
            &["Part 1. Lichens", "Part 8. Lichens"],
            &["Since you made it"],
        );
    }
}

#[test]
fn a_slot_named_for_another_place_stays() {
    // "after" qualifies a part that is not the post ("after-header"), and "content" alone
    // names the post.
    for class in ["after-header", "content-extra"] {
        let after = format!(r#"<section class="{class}"><p>{APPEAL}</p></section>"#);
        let out = main_content(&page("", &after));
        assert_kept(&out, &["Part 8. Lichens", "Since you made it"], &[]);
    }
}
