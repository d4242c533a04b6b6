//! The `branding` format end to end: the browser engine (a real Chromium,
//! `DISTILL_CHROMIUM`, as in browser.rs) renders tests/fixtures/site/branding/styled.html
//! and the `branding` plugin turns its computed styles into upstream's
//! BrandingProfile — colours with roles, fonts, type scale, components, logo,
//! favicon, og:image asserted; a page with no brand colour says what is
//! missing; a server without Chromium answers `null` with a warning.

use distill_e2e::{ServerOptions, TestServer, scrape, shared, site};
use serde_json::{Value, json};

#[tokio::test]
async fn a_styled_page_gives_its_colours_fonts_and_components() {
    let url = site().url("/branding/styled.html");
    let r = scrape(shared().url(), &json!({ "url": url, "formats": ["branding"] })).await;
    r.assert_ok();
    let b = &r.data()["branding"];
    assert!(r.data().get("warning").is_none(), "{}", r.pretty());
    assert!(
        r.data().get("brandingSnapshot").is_none(),
        "the snapshot is an input, not a field"
    );
    assert_eq!(b["colorScheme"], "light", "{b:#}");
    assert_eq!(b["brandName"], "Moss & Fern");
    assert_eq!(
        b["colors"],
        json!({
            "primary": "#1B6E4F",
            "accent": "#E07A2E",
            "background": "#FAF7F0",
            "textPrimary": "#22303C",
            "textSecondary": "#5D6B74",
            "link": "#E07A2E"
        }),
        "{b:#}"
    );
    assert_eq!(
        b["fonts"],
        json!([{"family": "Moss Sans", "role": "body"}, {"family": "Fern Serif", "role": "heading"}])
    );
    let t = &b["typography"];
    assert_eq!(
        t["fontFamilies"],
        json!({"primary": "Moss Sans", "heading": "Fern Serif"})
    );
    assert_eq!(
        t["fontStacks"]["heading"],
        json!(["Fern Serif", "Georgia", "serif"])
    );
    assert_eq!(
        t["fontSizes"],
        json!({"h1": "48px", "h2": "32px", "body": "18px"})
    );
    assert_eq!(t["lineHeights"], json!({"heading": 1.17, "body": 1.5}));
    assert_eq!(t["fontWeights"], json!({"regular": 400, "bold": 700}));
    assert_eq!(b["spacing"]["borderRadius"], "8px");
    // Paddings and margins of 8, 12, 16, 24 and 32 px.
    assert_eq!(b["spacing"]["baseUnit"], 4);
    let c = &b["components"];
    assert_eq!(c["buttonPrimary"]["background"], "#1B6E4F");
    assert_eq!(c["buttonPrimary"]["textColor"], "#FFFFFF");
    assert_eq!(c["buttonPrimary"]["borderRadius"], "8px");
    assert_eq!(c["buttonSecondary"]["borderColor"], "#1B6E4F");
    assert!(c["buttonSecondary"].get("background").is_none(), "{c:#}");
    assert_eq!(c["input"]["borderColor"], "#B8C2C8");
    assert_eq!(c["input"]["borderRadius"], "4px");
    assert_eq!(
        b["images"],
        json!({
            "logo": site().url("/branding/logo.svg"),
            "logoHref": site().url("/branding/"),
            "logoAlt": "Moss & Fern logo",
            "favicon": site().url("/branding/favicon.svg"),
            "ogImage": site().url("/branding/og-card.png")
        })
    );
    assert_eq!(b["logo"], json!(site().url("/branding/logo.svg")));
}

#[tokio::test]
async fn a_page_without_a_brand_colour_names_what_is_missing() {
    let url = site().url("/branding/plain.html");
    let r = scrape(
        shared().url(),
        &json!({ "url": url, "formats": ["branding", "markdown"] }),
    )
    .await;
    r.assert_ok();
    let b = &r.data()["branding"];
    assert!(b["colors"].get("primary").is_none(), "{b:#}");
    assert_eq!(b["colors"]["background"], "#FFFFFF");
    assert!(
        b.get("brandName").is_none(),
        "a title without a separator is no brand: {b:#}"
    );
    let warning = r.data()["warning"].as_str().unwrap_or_default();
    assert!(
        warning.contains("colors.primary") && warning.contains("brandName"),
        "{warning}"
    );
    assert!(r.markdown().contains("Plain text on a plain page"));
}

#[tokio::test]
async fn without_chromium_branding_is_null_with_a_warning() {
    let server = TestServer::start(ServerOptions::default().env("DISTILL_CHROMIUM", "/nonexistent/chromium"));
    let url = site().url("/branding/styled.html");
    let r = scrape(
        server.url(),
        &json!({ "url": url, "formats": ["branding", "markdown"] }),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.data()["branding"], Value::Null, "{}", r.pretty());
    let warning = r.data()["warning"].as_str().unwrap_or_default();
    assert!(
        warning.contains("does not support the following features: branding"),
        "{warning}"
    );
    assert!(warning.contains("DISTILL_CHROMIUM"), "{warning}");
    assert!(r.markdown().contains("Notes from the forest floor"));
}
