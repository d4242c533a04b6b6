//! `onlyMainContent` on article pages where no element holds the post apart from the
//! container (its paragraphs sit in the container itself): a blog engine's closing call
//! after the last paragraph ("You can follow any responses to this entry …") goes as it
//! does after a body; the same words inside the post, before its last paragraph, stay.

mod common;

use common::{assert_kept, main_content, paras_from};

fn page(inner: &str) -> String {
    format!(
        r#"<body><h1>Lichens on Old Walls</h1>{}{inner}{}
        <p>You can follow any responses by <a href="https://example.com/feed">RSS</a>.
        CLOSINGCALL</p></body>"#,
        paras_from(1, 3),
        paras_from(4, 6)
    )
}

#[test]
fn a_closing_call_after_the_last_paragraph_goes_without_a_body() {
    let out = main_content(&page(""));
    assert_kept(&out, &["Part 1. Lichens", "Part 6. Lichens"], &["CLOSINGCALL"]);
}

#[test]
fn the_same_call_before_the_last_paragraph_stays() {
    let out = main_content(&page(
        "<p>You can follow any responses to this entry by email, said the editor. INSIDECALL</p>",
    ));
    assert_kept(&out, &["Part 6. Lichens", "INSIDECALL"], &["CLOSINGCALL"]);
}
