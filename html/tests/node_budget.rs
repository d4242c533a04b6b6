//! `ParsedPage::parse_html_within`: a page whose markup makes more elements and comments
//! than the budget is refused (the parse stops there); a page within it parses to the
//! same page as without a budget.

use distill_html::{CleanOptions, PageText, ParsedPage, TooManyNodes};
use url::Url;

fn url() -> Url {
    Url::parse("https://example.com/page").unwrap()
}

fn within(html: &str, most: usize) -> Result<ParsedPage, TooManyNodes> {
    ParsedPage::parse_html_within(&PageText::new(html).open(), &url(), most)
}

/// The whole page cleaned to HTML (no main-content filter).
fn html_of(page: ParsedPage) -> String {
    page.into_clean(&CleanOptions::default()).unwrap().html()
}

/// `open` formatting elements left open inside a paragraph, then `paragraphs` paragraphs
/// of text: each paragraph makes all of them again (a page of kilobytes, a tree of
/// `open * paragraphs` elements).
fn reopened(open: usize, paragraphs: usize) -> String {
    let opened: String = (0..open).map(|i| format!("<b id=b{i}>")).collect();
    format!("<html><body><p>{opened}</p>{}", "<p>x</p>".repeat(paragraphs))
}

#[test]
fn markup_that_multiplies_is_refused() {
    let page = reopened(200, 1_000);
    assert!(page.len() < 20_000);
    // Without a budget it makes ~200,000 elements.
    let all = html_of(ParsedPage::parse_html(&PageText::new(&page).open(), &url()));
    assert!(all.matches("<b ").count() > 190_000, "{}", all.len());
    match within(&page, 50_000) {
        Err(e) => {
            assert_eq!(e, TooManyNodes { most: 50_000 });
            assert!(e.to_string().contains("more than 50000 elements"), "{e}");
        }
        Ok(_) => panic!("a page making ~200,000 elements passed a budget of 50,000"),
    }
}

#[test]
fn many_plain_elements_or_comments_are_refused_too() {
    for page in [
        format!("<html><body>{}", "<i></i>".repeat(20_001)),
        format!("<html><body>{}", "<!---->".repeat(20_001)),
        format!("<html><body>{}", "<br>x".repeat(20_001)),
    ] {
        assert!(within(&page, 20_000).is_err(), "{}", &page[..40]);
        assert!(within(&page, 21_000).is_ok(), "{}", &page[..40]);
    }
}

#[test]
fn the_fallback_tree_builder_is_held_to_the_budget() {
    // A frameset after body content: our tree builder hands the page to html5ever's.
    let page = format!(
        "<html><head></head><frameset>{}</frameset>",
        "<!---->".repeat(5_000)
    );
    assert!(within(&page, 1_000).is_err());
    assert!(within(&page, 10_000).is_ok());
}

#[test]
fn a_page_within_the_budget_is_the_same_page() {
    let page = "<html><head><title>T</title></head><body><nav>menu</nav>\
        <article><h1>Head</h1><p>Some <b>bold <i>text</i></b> and <a href=/x>a link</a>.</p>\
        <!-- a comment --><ul><li>one<li>two</ul></article></body></html>";
    let plain = ParsedPage::parse_html(&PageText::new(page).open(), &url());
    let counted = within(page, 100).expect("a small page within 100 nodes");
    assert_eq!(plain.metadata(), counted.metadata());
    assert_eq!(html_of(plain), html_of(counted));
    // 14 elements (html head title body nav article h1 p b i a ul li li) and the comment:
    // a budget of exactly that passes, one less does not.
    assert!(within(page, 15).is_ok());
    assert!(within(page, 14).is_err());
}
