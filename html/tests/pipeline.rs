//! End-to-end golden tests of the public API: parse → metadata → clean → links/images.

use distill_html::{CleanError, CleanOptions, ParsedPage};
use url::Url;

const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en"><head><title>Post</title><base href="/static/">
<meta name="description" content="d"><style>p{}</style><script>var x;</script></head>
<body><header><a href="/home">Home</a></header>
<div class="sidebar"><div id="main"><p>Keep <a href="rel/page">rel</a></p></div></div>
<nav><a href="/nav">nav</a></nav>
<article><h1>Title</h1><img src="a.png" srcset="a.png 1x, a@2x.png 2x"><img src="a@2x.png">
<img src="lazy.gif" data-src="real.jpg"><p>Body <a href="#c">c</a> <a href="https://u:p@x.org/y">x</a></p>
<iframe src="https://video.example/embed"></iframe><div data-original-tag="iframe">inlined</div></article>
<footer>foot <img src="/f.png"></footer></body></html>"##;

fn url() -> Url {
    Url::parse("https://example.com/blog/post").unwrap()
}

fn opts<'a>(main: bool, include: &'a [String], exclude: &'a [String]) -> CleanOptions<'a> {
    CleanOptions {
        only_main_content: main,
        include_tags: include,
        exclude_tags: exclude,
    }
}

#[test]
fn golden_main_content_html_links_images() {
    let page = ParsedPage::parse(PAGE, &url());
    let cleaned = page.clean(&opts(true, &[], &[])).unwrap();
    assert_eq!(
        cleaned.html(),
        "<!DOCTYPE html><html lang=\"en\">\n\
         <body>\n\
         <div class=\"sidebar\"><div id=\"main\"><p>Keep <a href=\"https://example.com/static/rel/page\">rel</a></p></div></div>\n\
         \n\
         <article><h1>Title</h1><img src=\"https://example.com/static/a@2x.png\" srcset=\"a.png 1x, a@2x.png 2x\">\n\
         <img src=\"https://example.com/static/real.jpg\" data-src=\"real.jpg\"><p>Body <a href=\"https://example.com/static/#c\">c</a> \
         <a href=\"https://u:p@x.org/y\">x</a></p>\n\
         <iframe src=\"https://video.example/embed\"></iframe><div data-original-tag=\"iframe\">inlined</div></article>\n\
         </body></html>"
    );
    assert_eq!(
        cleaned.links(),
        [
            "https://example.com/static/rel/page",
            "https://example.com/static/#c",
            "https://x.org/y"
        ]
    );
    // srcset candidates are resolved against the page URL: the <base> went away with <head>.
    assert_eq!(
        cleaned.images(),
        [
            "https://example.com/static/a@2x.png",
            "https://example.com/blog/a.png",
            "https://example.com/blog/a@2x.png",
            "https://example.com/static/real.jpg",
            "https://example.com/blog/real.jpg",
        ]
    );
    assert!(cleaned.has_content());
}

#[test]
fn clean_is_repeatable_and_non_destructive() {
    let page = ParsedPage::parse(PAGE, &url());
    let main = page.clean(&opts(true, &[], &[])).unwrap().html();
    let full = page.clean(&opts(false, &[], &[])).unwrap();
    assert!(full.html().contains("<header>") && full.html().contains("foot"));
    assert!(!main.contains("<header>"));
    assert_eq!(page.clean(&opts(true, &[], &[])).unwrap().html(), main);
    assert!(full.links().contains(&"https://example.com/nav".to_string()));
    assert!(full.images().contains(&"https://example.com/f.png".to_string()));
    assert_eq!(page.metadata()["title"], "Post");
    assert_eq!(page.metadata()["language"], "en");
}

#[test]
fn include_then_exclude_then_main_content() {
    let page = ParsedPage::parse(PAGE, &url());
    let include = ["article".to_string(), "footer".to_string(), "header".to_string()];
    let exclude = ["h1".to_string(), "iframe".to_string()];
    let cleaned = page.clean(&opts(false, &include, &exclude)).unwrap();
    let html = cleaned.html();
    assert!(html.starts_with("<html><body><div><article><img"));
    assert!(html.contains("</article><footer>foot"));
    assert!(
        html.ends_with("<header><a href=\"https://example.com/home\">Home</a></header></div></body></html>")
    );
    assert!(!html.contains("iframe"));
    // onlyMainContent still applies to the included elements.
    let main = page.clean(&opts(true, &include, &exclude)).unwrap().html();
    assert!(main.contains("<article>") && !main.contains("<footer>") && !main.contains("<header>"));
}

#[test]
fn include_iframe_selects_both_forms() {
    let page = ParsedPage::parse(PAGE, &url());
    let cleaned = page.clean(&opts(true, &["iframe".to_string()], &[])).unwrap();
    assert_eq!(
        cleaned.html(),
        "<html><body><div><iframe src=\"https://video.example/embed\"></iframe>\
         <div data-original-tag=\"iframe\">inlined</div></div></body></html>"
    );
}

#[test]
fn invalid_selectors_error() {
    let page = ParsedPage::parse(PAGE, &url());
    for (include, exclude) in [(vec!["p[".to_string()], vec![]), (vec![], vec!["::".to_string()])] {
        let err = page.clean(&opts(true, &include, &exclude)).err().unwrap();
        let CleanError::InvalidSelector { ref selector, .. } = err;
        assert!(selector == "p[" || selector == "::");
        assert!(err.to_string().starts_with("invalid CSS selector"));
    }
}

#[test]
fn empty_main_content_is_detectable() {
    let page = ParsedPage::parse(
        "<body><nav><a href='/a'>A</a></nav><div class='cookie'>ok</div>\n  </body>",
        &url(),
    );
    let main = page.clean(&opts(true, &[], &[])).unwrap();
    assert!(!main.has_content());
    assert!(main.links().is_empty());
    assert!(page.clean(&opts(false, &[], &[])).unwrap().has_content());
    let image_only = ParsedPage::parse("<img src=x.png>", &url());
    assert!(image_only.clean(&opts(true, &[], &[])).unwrap().has_content());
}

#[test]
fn base_in_body_survives_cleaning_like_upstream() {
    let page = ParsedPage::parse(
        "<body><base href='https://cdn.example/d/'><img srcset='a.png 2x'><a href='x'>x</a></body>",
        &url(),
    );
    let cleaned = page.clean(&opts(true, &[], &[])).unwrap();
    assert_eq!(cleaned.links(), ["https://cdn.example/d/x"]);
    assert_eq!(cleaned.images(), ["https://cdn.example/d/a.png"]);
}

#[test]
fn a_plain_text_page_in_a_legacy_encoding_is_decoded() {
    // A `text/plain` response without a charset (scrapes of .txt files go through the HTML
    // step): no BOM, no `<meta>`, not UTF-8 — the detector's guess decodes it, as for HTML.
    let text = "お知らせ\n\n本日の営業時間は午前十時から午後六時までです。\n\
                駐車場は建物の裏にございます。ご来店をお待ちしております。\n";
    let (bytes, _, lossy) = encoding_rs::SHIFT_JIS.encode(text);
    assert!(!lossy && std::str::from_utf8(&bytes).is_err());
    let decoded = distill_html::decode_html(&bytes, Some("text/plain"));
    assert!(
        decoded.contains("本日の営業時間は午前十時から午後六時までです。"),
        "{decoded}"
    );
    let (bytes, _, _) = encoding_rs::WINDOWS_1250.encode("Příliš žluťoučký kůň úpěl ďábelské ódy.\n");
    let decoded = distill_html::decode_html(&bytes, Some("text/plain"));
    assert!(decoded.contains("Příliš žluťoučký kůň"), "{decoded}");
}
