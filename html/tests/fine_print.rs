//! Fine print named as such (`class`/`id` "disclaimer", "disclosure") goes from a page that
//! declares itself an article, and stays inside the body of a page that does not; on an
//! undeclared article page whose body no element narrower than the container holds, it
//! goes once the last paragraph of prose is read.

mod common;
use common::{assert_kept, main_content, paras, paras_from};

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

/// An undeclared page whose prose is split between two sections (no element holds its
/// body), the note between them (`note_between`) or after both.
fn sections_page(note_between: bool) -> String {
    let note = format!(r#"<div id="disclosures"><p>{NOTE}</p></div>"#);
    let (mid, end) = if note_between {
        (note.as_str(), "")
    } else {
        ("", note.as_str())
    };
    format!(
        r#"<html><head></head><body><main><div class="grid">
        <section>{}</section>{mid}<section>{}</section>{end}</div></main></body></html>"#,
        paras_from(1, 5),
        paras_from(6, 10)
    )
}

#[test]
fn a_disclaimer_after_the_last_paragraph_of_an_undeclared_article_goes() {
    let out = main_content(&sections_page(false));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 10. Lichens"],
        &["NOTE: The views"],
    );
}

#[test]
fn a_disclaimer_before_the_last_paragraph_of_an_undeclared_article_stays() {
    let out = main_content(&sections_page(true));
    assert_kept(
        &out,
        &["Part 1. Lichens", "NOTE: The views", "Part 10. Lichens"],
        &[],
    );
}
