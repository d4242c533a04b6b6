//! Fine print named as such (`class`/`id` "disclaimer", "disclosure") goes from a page that
//! declares itself an article, and stays on a page that does not.

mod common;
use common::{assert_kept, main_content, paras};

const NOTE: &str = "NOTE: The views expressed by the authors of this blog are their own and do not \
    necessarily reflect the views of the publisher, and nothing here is legal advice.";

fn page(head: &str, class: &str) -> String {
    format!(
        r#"<html><head>{head}</head><body><div class="page"><h1>Lichens on Old Walls</h1>
        <div class="entry">{}<p class="{class}">{NOTE}</p></div></div></body></html>"#,
        paras(8)
    )
}

#[test]
fn a_disclaimer_after_a_declared_article_goes() {
    for class in ["disclaimer", "views-disclaimer", "affiliate-disclosures"] {
        let out = main_content(&page(r#"<meta property="og:type" content="article">"#, class));
        assert_kept(
            &out,
            &["Part 1. Lichens", "Part 8. Lichens"],
            &["NOTE: The views"],
        );
    }
}

#[test]
fn a_disclaimer_on_a_page_not_declared_an_article_stays() {
    // A service page's conditions are what the page is about.
    let out = main_content(&page("", "views-disclaimer"));
    assert_kept(&out, &["Part 1. Lichens", "NOTE: The views"], &[]);
}

#[test]
fn a_note_without_the_class_word_stays() {
    let out = main_content(&page(r#"<meta property="og:type" content="article">"#, "note"));
    assert_kept(&out, &["Part 8. Lichens", "NOTE: The views"], &[]);
}
