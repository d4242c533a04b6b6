//! Output formats of `/v2/scrape` against the fixture site: markdown, cleaned
//! html, rawHtml, links, images, onlyMainContent, include/exclude tags,
//! removeBase64Images and JSON pages (compat notes §1.5–1.9, §1.11).
//! onlyMainContent and include/exclude tags are in `selection.rs`.

use distill_e2e::fixture::JSON_BODY;
use distill_e2e::{read_fixture, scrape, shared, site};
use serde_json::{Value, json};
use std::collections::HashSet;

mod selection;

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array, got {v}"))
        .iter()
        .map(|s| s.as_str().expect("array of strings").to_string())
        .collect()
}

#[tokio::test]
async fn markdown_is_the_default_format_and_follows_firecrawl_conventions() {
    let r = scrape(shared().url(), &json!({ "url": site().url("/article.html") })).await;
    r.assert_ok();
    let data = r.data().as_object().unwrap();
    // Only markdown and metadata by default.
    let keys: HashSet<&str> = data.keys().map(String::as_str).collect();
    assert_eq!(keys, HashSet::from(["markdown", "metadata"]), "{}", r.pretty());
    let md = r.markdown();
    let base = site().base();
    for expected in [
        "# Lichens on Old Walls",
        "## Common species",
        "**composite organisms**",
        "- Xanthoria parietina",
        "- Lecanora muralis",
        "```python\nprint(\"lichen\")\n```",
    ] {
        assert!(md.contains(expected), "markdown lacks {expected:?}:\n{md}");
    }
    // Links and images are absolute (resolved against the page URL).
    assert!(
        md.contains(&format!(
            "[identification guide]({base}/guide/identification.html#keys)"
        )),
        "{md}"
    );
    assert!(
        md.contains(&format!("[the appendix]({base}/notes/appendix.html)")),
        "{md}"
    );
    assert!(
        md.contains(&format!("![A yellow lichen]({base}/img/lichen.jpg)")),
        "{md}"
    );
    // Scripts, styles, noscript and comments never reach markdown; neither does
    // page chrome with the default onlyMainContent: true.
    for absent in [
        "SCRIPTMARKER",
        "STYLEMARKER",
        "NOSCRIPTMARKER",
        "COMMENTMARKER",
        "HEADERMARKER",
        "NAVMARKER",
        "ASIDEMARKER",
        "FOOTERMARKER",
    ] {
        assert!(!md.contains(absent), "markdown contains {absent}:\n{md}");
    }
    // A GFM table (cell padding aside).
    let squeezed: String = md
        .split(' ')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    for row in [
        "| Species | Colour |",
        "| Xanthoria | Orange |",
        "| Lecanora | Grey |",
    ] {
        assert!(squeezed.contains(row), "markdown lacks table row {row:?}:\n{md}");
    }
    assert!(
        md.lines().any(|l| l.starts_with("| -") && l.ends_with("- |")),
        "no table separator:\n{md}"
    );
    assert!(
        !md.starts_with('\n') && !md.ends_with('\n'),
        "markdown is not trimmed: {md:?}"
    );
    assert!(
        !md.contains("\n\n\n"),
        "markdown has 3+ newlines in a row: {md:?}"
    );
}

#[tokio::test]
async fn markdown_emphasis_uses_underscores_like_upstream() {
    // Upstream (Go html-to-markdown and turndown) writes <em> as _x_ (compat
    // notes §2 and "Top 15 facts" #9); **x** for <strong>.
    let r = scrape(shared().url(), &json!({ "url": site().url("/article.html") })).await;
    r.assert_ok();
    let md = r.markdown();
    assert!(md.contains("**composite organisms**"), "{md}");
    assert!(
        md.contains("_They grow slowly._"),
        "<em> should become _..._:\n{md}"
    );
}

#[tokio::test]
async fn all_host_formats_at_once_in_a_stable_order() {
    let r = scrape(
        shared().url(),
        &json!({
            "url": site().url("/article.html"),
            "formats": ["images", "links", "rawHtml", "html", "markdown"]
        }),
    )
    .await;
    r.assert_ok();
    let keys: Vec<&str> = r.data().as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["markdown", "html", "rawHtml", "links", "images", "metadata"],
        "{}",
        r.pretty()
    );
}

#[tokio::test]
async fn formats_accept_the_object_form() {
    let r = scrape(
        shared().url(),
        &json!({
            "url": site().url("/article.html"),
            "formats": [{ "type": "markdown" }, { "type": "links" }]
        }),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("# Lichens on Old Walls"));
    assert!(r.data()["links"].is_array(), "{}", r.pretty());
    assert!(
        r.data().get("html").is_none(),
        "html was not requested: {}",
        r.pretty()
    );
}

#[tokio::test]
async fn html_is_cleaned_and_absolutized() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/article.html"), "formats": ["html"] }),
    )
    .await;
    r.assert_ok();
    assert!(
        r.data().get("markdown").is_none(),
        "markdown was not requested: {}",
        r.pretty()
    );
    let html = r.data_str("html");
    let lower = html.to_ascii_lowercase();
    for tag in [
        "<script",
        "<style",
        "<head",
        "<noscript",
        "<meta",
        "<link",
        "<!--",
    ] {
        assert!(!lower.contains(tag), "cleaned html contains {tag}:\n{html}");
    }
    for absent in [
        "SCRIPTMARKER",
        "STYLEMARKER",
        "NOSCRIPTMARKER",
        "COMMENTMARKER",
        "NAVMARKER",
        "FOOTERMARKER",
    ] {
        assert!(!html.contains(absent), "cleaned html contains {absent}:\n{html}");
    }
    let base = site().base();
    assert!(
        html.contains(&format!("href=\"{base}/guide/identification.html#keys\"")),
        "{html}"
    );
    assert!(
        html.contains(&format!("href=\"{base}/notes/appendix.html\"")),
        "{html}"
    );
    assert!(html.contains(&format!("src=\"{base}/img/lichen.jpg\"")), "{html}");
    assert!(html.contains("<h1>Lichens on Old Walls</h1>"), "{html}");
    assert!(lower.contains("<body>"), "{html}");
}

#[tokio::test]
async fn raw_html_is_the_page_exactly_as_served() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/article.html"), "formats": ["rawHtml"] }),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.data_str("rawHtml"), read_fixture("article.html"));
}

#[tokio::test]
async fn links_are_absolute_deduplicated_and_filtered() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/links/page.html"), "formats": ["links"] }),
    )
    .await;
    r.assert_ok();
    let base = site().base();
    assert_eq!(
        strings(&r.data()["links"]),
        [
            format!("{base}/abs-path"),
            format!("{base}/links/relative/page.html"),
            format!("{base}/up.html"),
            "https://example.com/external?q=1".to_string(),
            // As upstream: the cleaned html absolutizes every a[href] before links
            // are read, so a fragment-only href becomes the page URL + fragment.
            format!("{base}/links/page.html#section-2"),
            format!("{base}/with-fragment#frag"),
            "mailto:someone@example.org".to_string(),
            "https://example.com/private".to_string(),
            format!("{base}/trimmed"),
        ],
        "{}",
        r.pretty()
    );
}

#[tokio::test]
async fn base_href_is_honoured_for_links_html_and_images() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/links/base.html"), "formats": ["links", "html", "images"] }),
    )
    .await;
    r.assert_ok();
    let base = site().base();
    assert_eq!(
        strings(&r.data()["links"]),
        [
            format!("{base}/assets/v2/doc.html"),
            format!("{base}/rooted.html")
        ],
        "{}",
        r.pretty()
    );
    let html = r.data_str("html");
    assert!(
        html.contains(&format!("src=\"{base}/assets/v2/pic.png\"")),
        "{html}"
    );
    assert!(
        strings(&r.data()["images"]).contains(&format!("{base}/assets/v2/pic.png")),
        "{}",
        r.pretty()
    );
}

#[tokio::test]
async fn links_come_from_the_cleaned_html() {
    let url = site().url("/article.html");
    let main_only = scrape(shared().url(), &json!({ "url": url, "formats": ["links"] })).await;
    main_only.assert_ok();
    let full = scrape(
        shared().url(),
        &json!({ "url": url, "formats": ["links"], "onlyMainContent": false }),
    )
    .await;
    full.assert_ok();
    let base = site().base();
    let main_links = strings(&main_only.data()["links"]);
    let full_links = strings(&full.data()["links"]);
    assert_eq!(
        main_links,
        [
            format!("{base}/guide/identification.html#keys"),
            format!("{base}/notes/appendix.html")
        ],
        "{}",
        main_only.pretty()
    );
    for expected in [
        format!("{base}/"),
        format!("{base}/nav-link"),
        format!("{base}/related"),
        "mailto:editor@journal.example".to_string(),
    ] {
        assert!(
            full_links.contains(&expected),
            "{expected} missing from {full_links:?}"
        );
    }
}

#[tokio::test]
async fn images_resolve_srcset_lazy_sources_and_duplicates() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/media/images.html"), "formats": ["html", "images"] }),
    )
    .await;
    r.assert_ok();
    let base = site().base();
    let html = r.data_str("html");
    // srcset → the largest candidate (by width, then by density); data-src replaces a placeholder.
    assert!(html.contains(&format!("src=\"{base}/img/w-1600.jpg\"")), "{html}");
    assert!(html.contains(&format!("src=\"{base}/img/x-3.jpg\"")), "{html}");
    assert!(
        html.contains(&format!("src=\"{base}/img/lazy-real.jpg\"")),
        "{html}"
    );
    assert!(
        html.contains(&format!("src=\"{base}/media/relative/pic.png\"")),
        "{html}"
    );
    assert!(
        html.contains("src=\"http://cdn.example.net/proto.png\""),
        "{html}"
    );
    assert!(!html.contains("placeholder.gif\""), "{html}");
    // The later <img> repeating an already used src is removed.
    assert_eq!(
        html.matches(&format!("src=\"{base}/img/w-1600.jpg\"")).count(),
        1,
        "{html}"
    );
    assert!(!html.contains("duplicate of the chosen candidate"), "{html}");

    let images = strings(&r.data()["images"]);
    let unique: HashSet<&String> = images.iter().collect();
    assert_eq!(unique.len(), images.len(), "duplicates in {images:?}");
    for path in [
        "/img/w-400.jpg",
        "/img/w-800.jpg",
        "/img/w-1600.jpg",
        "/img/x-2.jpg",
        "/img/x-3.jpg",
        "/img/lazy-real.jpg",
        "/media/relative/pic.png",
        "/img/pic.webp",
        "/img/pic-2x.webp",
        "/img/pic.jpg",
        "/img/bg.jpg",
        "/img/poster.jpg",
    ] {
        let expected = format!("{base}{path}");
        assert!(images.contains(&expected), "{expected} missing from {images:?}");
    }
    assert!(
        images.contains(&"http://cdn.example.net/proto.png".to_string()),
        "{images:?}"
    );
    assert!(
        images.iter().all(|i| i.starts_with("http://")),
        "non-absolute image in {images:?}"
    );
    assert!(
        !images.iter().any(|i| i.contains("placeholder.gif")),
        "{images:?}"
    );
}

/// The markdown plugin reads the cleaned page as a token stream (ABI 0.4), and
/// the server then does not serialise the cleaned HTML unless asked for it:
/// the markdown must be the one the cleaned HTML gives (the plugin's
/// converter run natively on the response's `html`), with or without `html`.
#[tokio::test]
async fn markdown_from_the_token_stream_is_the_markdown_of_the_cleaned_html() {
    for (path, main) in [
        ("/article.html", true),
        ("/layout.html", true),
        ("/layout.html", false),
        ("/pii.html", false),
        ("/all-chrome.html", true),
    ] {
        let url = site().url(path);
        let both = scrape(
            shared().url(),
            &json!({ "url": url, "formats": ["markdown", "html"], "onlyMainContent": main }),
        )
        .await;
        both.assert_ok();
        let alone = scrape(
            shared().url(),
            &json!({ "url": url, "formats": ["markdown"], "onlyMainContent": main }),
        )
        .await;
        alone.assert_ok();
        let from_html = distill_markdown::html_to_markdown(both.data_str("html"));
        assert!(!from_html.is_empty(), "{path}");
        assert_eq!(both.markdown(), from_html, "{path} (main {main}), with html");
        assert_eq!(
            alone.markdown(),
            from_html,
            "{path} (main {main}), markdown alone"
        );
    }
}

#[tokio::test]
async fn base64_images_are_removed_from_markdown_by_default() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/media/base64.html"), "formats": ["markdown", "html"] }),
    )
    .await;
    r.assert_ok();
    let md = r.markdown();
    assert!(md.contains("![red pixel](<Base64-Image-Removed>)"), "{md}");
    assert!(!md.contains("base64,"), "{md}");
    assert!(
        md.contains(&format!("![remote picture]({}/img/remote.png)", site().base())),
        "{md}"
    );
    // Only markdown is affected: html keeps the data URL.
    assert!(
        r.data_str("html")
            .contains("src=\"data:image/png;base64,iVBORw0KGgo"),
        "{}",
        r.pretty()
    );
}

#[tokio::test]
async fn base64_images_are_kept_with_remove_base64_images_false() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/media/base64.html"), "removeBase64Images": false }),
    )
    .await;
    r.assert_ok();
    let md = r.markdown();
    assert!(
        md.contains("![red pixel](data:image/png;base64,iVBORw0KGgo"),
        "{md}"
    );
    assert!(!md.contains("Base64-Image-Removed"), "{md}");
}

#[tokio::test]
async fn json_pages_become_a_fenced_json_block() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/api/items"), "formats": ["markdown", "rawHtml"] }),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.markdown(), format!("```json\n{JSON_BODY}\n```"));
    assert_eq!(r.data_str("rawHtml"), JSON_BODY);
    let parsed: Value = serde_json::from_str(r.data_str("rawHtml")).expect("rawHtml of a JSON page is JSON");
    assert_eq!(parsed["count"], 2);
    assert_eq!(r.metadata()["contentType"], "application/json");
}

#[tokio::test]
async fn a_feature_no_engine_honours_adds_a_warning_not_an_error() {
    // Screenshots and waitFor have the browser engine (tests/browser.rs); the
    // stealth proxy has no engine: the scrape runs over HTTP with the warning.
    let r = scrape(
        shared().url(),
        &json!({
            "url": site().url("/article.html"),
            "formats": ["markdown"],
            "proxy": "enhanced"
        }),
    )
    .await;
    r.assert_ok();
    let warning = r.data()["warning"]
        .as_str()
        .unwrap_or_else(|| panic!("no warning: {}", r.pretty()));
    assert_eq!(
        warning,
        "The engine used does not support the following features: stealthProxy -- your scrape may be partial."
    );
    assert!(r.markdown().contains("Lichens on Old Walls"));
}

#[tokio::test]
async fn a_large_page_is_converted_completely() {
    // Over the server's 256 KB inline limit: prepared off the async workers.
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/big?kb=600"), "formats": ["markdown", "links", "rawHtml"] }),
    )
    .await;
    r.assert_ok();
    assert!(r.data_str("rawHtml").len() >= 600 * 1024);
    let md = r.markdown();
    assert!(md.starts_with("# Big page"), "{}", &md[..200.min(md.len())]);
    assert!(
        md.trim_end().ends_with("BIGPAGEEND"),
        "{}",
        &md[md.len().saturating_sub(200)..]
    );
    let links = strings(&r.data()["links"]);
    assert!(links.len() > 5000, "{} links", links.len());
    assert_eq!(links[0], site().url("/big/0"));
}
