//! What the `onlyMainContent` test files share: a page's main content as
//! HTML, and a check of what stays and what goes.

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
