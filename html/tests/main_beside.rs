//! What stands beside the page's `main` when `main` holds the named body
//! (`main_content::main_beside`).

mod common;

use common::{PROSE, assert_kept, main_content, paras};

/// A post inside a `role=main` element, a "Best of" box beside it, and a column of an
/// issue's essays (more prose than the post) beside their wrapper; `body_class` names the
/// post's body.
fn post_in_main_beside_columns(body_class: &str) -> String {
    let issue: String = (1..=6)
        .map(|i| {
            format!(
                "<p>Essay {i} of the issue. Mosses hold water for weeks, and the stones under them \
                 stay cool through the summer while the walls dry out.</p>"
            )
        })
        .collect();
    format!(
        "<html><body><div id=\"wrap\"><div id=\"left\"><div id=\"content\" role=\"main\"><div class=\"post\">\
         <h1>Walls</h1><div class=\"{body_class}\">{}</div></div></div><div id=\"bestof\"><h3>Best of</h3>\
         <p>Our best essay on stones, read by many readers. {PROSE}</p></div></div>\
         <div id=\"right\"><div id=\"issue\">{issue}</div></div></div></body></html>",
        paras(3),
    )
}

#[test]
fn columns_beside_a_main_holding_the_named_body_go() {
    let out = main_content(&post_in_main_beside_columns("entry-content"));
    assert_kept(
        &out,
        &["Walls", "Part 1.", "Part 3."],
        &["Essay 2 of the issue", "Our best essay"],
    );
}

#[test]
fn columns_beside_a_main_without_a_named_body_stay() {
    let out = main_content(&post_in_main_beside_columns("text"));
    assert_kept(&out, &["Part 1.", "Part 3.", "Essay 2 of the issue"], &[]);
}
