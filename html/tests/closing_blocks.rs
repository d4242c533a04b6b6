//! `onlyMainContent` on article pages: the short titled boxes a site puts after a post's
//! last paragraph ("About This Blog", "About the author") go; the same words inside the
//! post, and a sentence that merely starts with "About", stay.

mod common;

use common::{assert_kept, main_content};

/// Paragraphs of prose, "Part a." to "Part b.".
fn paras(a: usize, b: usize) -> String {
    (a..=b)
        .map(|i| {
            format!(
                "<p>Part {i}. Lichens grow slowly on old stone, and a wall can carry dozens of \
                 species. Each one is a partnership between a fungus and an alga, which is why \
                 they survive where nothing else does.</p>"
            )
        })
        .collect()
}

#[test]
fn an_about_box_after_the_post_goes_and_one_inside_it_stays() {
    // A blog's "About …" box under every post, its title a heading, in the post's wrapper
    // with no class to tell it. An "About …" section among the post's paragraphs stays, and
    // so does a short closing sentence that opens with "About".
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}
        <h3>About the INSIDEHEAD species</h3>{}
        <p>About INSIDELINE two hundred walls were surveyed.</p></div>
        <div><h4>About ABOUTHEAD Gadget Blog</h4><p>ABOUTLINE is a blog about everything related
        to buying and using tech products, with a mix of information and opinion.</p></div>
        </div></body>"#,
        paras(1, 4),
        paras(5, 8)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "INSIDEHEAD", "INSIDELINE"],
        &["ABOUTHEAD", "ABOUTLINE"],
    );
}
