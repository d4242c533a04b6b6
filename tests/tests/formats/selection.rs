//! What part of the page the formats see: onlyMainContent (and its fallback to the whole
//! page), includeTags in selector order, excludeTags, and an invalid selector as a 400.

use super::*;

#[tokio::test]
async fn only_main_content_removes_page_chrome() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/layout.html"), "formats": ["markdown", "html"] }),
    )
    .await;
    r.assert_ok();
    let md = r.markdown();
    for kept in [
        "Main Story",
        "LEDETEXT",
        "MAINBODYTEXT",
        "ADVERTISEMENTCLASSISNOTAD",
        // A sidebar holding #main is kept whole (force-include wins).
        "FORCEDMAININSIDEBAR",
        "SIDEBARBLOCK",
    ] {
        assert!(md.contains(kept), "main-content markdown lacks {kept}:\n{md}");
    }
    for removed in [
        "COOKIEBANNER",
        "SITEHEADER",
        "IDHEADER",
        "NAVBAR",
        "BREADCRUMBS",
        "TOPSTRIP",
        "MENUITEM",
        "ADBLOCK",
        "SHAREBUTTONS",
        "SOCIALLINKS",
        "ASIDEBLOCK",
        "MODALDIALOG",
        "WIDGETBOX",
        "SITEFOOTER",
        "IDFOOTER",
    ] {
        assert!(
            !md.contains(removed),
            "main-content markdown contains {removed}:\n{md}"
        );
        assert!(
            !r.data_str("html").contains(removed),
            "main-content html contains {removed}"
        );
    }
}

#[tokio::test]
async fn only_main_content_false_keeps_everything_but_scripts() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/layout.html"), "onlyMainContent": false }),
    )
    .await;
    r.assert_ok();
    let md = r.markdown();
    for kept in [
        "COOKIEBANNER",
        "SITEHEADER",
        "NAVBAR",
        "MAINBODYTEXT",
        "ADBLOCK",
        "ASIDEBLOCK",
        "SITEFOOTER",
        "IDFOOTER",
    ] {
        assert!(md.contains(kept), "full-page markdown lacks {kept}:\n{md}");
    }
}

#[tokio::test]
async fn main_content_that_ends_up_empty_falls_back_to_the_whole_page() {
    let r = scrape(shared().url(), &json!({ "url": site().url("/all-chrome.html") })).await;
    r.assert_ok();
    let md = r.markdown();
    for kept in ["ONLYNAVTEXT", "ONLYSIDEBARTEXT", "ONLYFOOTERTEXT"] {
        assert!(md.contains(kept), "fallback markdown lacks {kept}:\n{md}");
    }
}

#[tokio::test]
async fn include_tags_keep_only_matches_in_selector_order() {
    let r = scrape(
        shared().url(),
        &json!({
            "url": site().url("/layout.html"),
            "formats": ["markdown", "html"],
            "includeTags": [".lede", "h1"]
        }),
    )
    .await;
    r.assert_ok();
    let md = r.markdown();
    let lede = md
        .find("LEDETEXT")
        .unwrap_or_else(|| panic!("lede missing:\n{md}"));
    let h1 = md
        .find("Main Story")
        .unwrap_or_else(|| panic!("h1 missing:\n{md}"));
    assert!(
        lede < h1,
        "includeTags order is selector order (.lede before h1):\n{md}"
    );
    for absent in [
        "MAINBODYTEXT",
        "REMOVABLEPARAGRAPH",
        "SITEHEADER",
        "FORCEDMAININSIDEBAR",
    ] {
        assert!(
            !md.contains(absent),
            "includeTags output contains {absent}:\n{md}"
        );
    }
}

#[tokio::test]
async fn exclude_tags_remove_matches() {
    let r = scrape(
        shared().url(),
        &json!({
            "url": site().url("/layout.html"),
            "formats": ["markdown", "html"],
            "excludeTags": [".remove-me", "#drop-this", "h1"]
        }),
    )
    .await;
    r.assert_ok();
    let md = r.markdown();
    for absent in ["REMOVABLEPARAGRAPH", "DROPPABLEDIV", "Main Story"] {
        assert!(!md.contains(absent), "excludeTags left {absent}:\n{md}");
        assert!(
            !r.data_str("html").contains(absent),
            "excludeTags left {absent} in html"
        );
    }
    assert!(md.contains("MAINBODYTEXT") && md.contains("LEDETEXT"), "{md}");
}

#[tokio::test]
async fn an_invalid_css_selector_is_a_400() {
    for (field, selector) in [("includeTags", "p >"), ("excludeTags", "div[")] {
        let r = scrape(
            shared().url(),
            &json!({ "url": site().url("/layout.html"), field: [selector] }),
        )
        .await;
        r.assert_error(400, "BAD_REQUEST");
        assert!(
            r.error().contains(selector),
            "{field} {selector:?}: {}",
            r.pretty()
        );
    }
}
