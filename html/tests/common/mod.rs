//! What the `onlyMainContent` test files share: a page's main content as
//! HTML, a check of what stays and what goes, and paragraphs of prose to
//! build pages from.

use distill_html::{CleanOptions, ParsedPage};
use url::Url;

/// `onlyMainContent` of `html`, as served from a neutral URL.
pub fn main_content(html: &str) -> String {
    let url = Url::parse("https://example.com/page").unwrap();
    let page = ParsedPage::parse(html, &url);
    let opts = CleanOptions {
        only_main_content: true,
        include_tags: &[],
        exclude_tags: &[],
    };
    page.clean(&opts).unwrap().html()
}

/// Asserts every `kept` string is in `out` and no `removed` one is.
pub fn assert_kept(out: &str, kept: &[&str], removed: &[&str]) {
    for k in kept {
        assert!(out.contains(k), "lacks {k:?}:\n{out}");
    }
    for r in removed {
        assert!(!out.contains(r), "contains {r:?}:\n{out}");
    }
}

/// A sentence-rich paragraph's text: prose by every measure the extractor takes.
#[allow(dead_code)] // not every test file builds pages from it
pub const PROSE: &str = "Lichens grow slowly on old stone, and a wall can carry dozens of species. \
    Each one is a partnership between a fungus and an alga, which is why they survive where \
    nothing else does.";

/// Paragraphs of prose, "Part first." to "Part last." (distinct: identical ones would be
/// pruned as repeats).
#[allow(dead_code)]
pub fn paras_from(first: usize, last: usize) -> String {
    (first..=last)
        .map(|i| format!("<p>Part {i}. {PROSE}</p>"))
        .collect()
}

/// `n` paragraphs of prose, "Part 1." to "Part n.".
#[allow(dead_code)]
pub fn paras(n: usize) -> String {
    paras_from(1, n)
}
