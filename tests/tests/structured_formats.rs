//! The deterministic design-card formats end to end: `product` and `menu`
//! (plugins reading the raw HTML's structured data) on the fixture pages
//! under tests/fixtures/site/{product,menu}/, a format's warning (`distill_sdk::warning`) with a null value
//! turning into `null` + `warning` (also for `summary` without a model), and
//! `redactPII` (every output; exact answers in format_fixtures.rs).

use distill_e2e::{scrape, shared, site};
use serde_json::{Value, json};

async fn format_of(path: &str, format: &str) -> (Value, Option<String>) {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url(path), "formats": [format] }),
    )
    .await;
    r.assert_ok();
    let warning = r.data().get("warning").and_then(Value::as_str).map(String::from);
    (r.data()[format].clone(), warning)
}

#[tokio::test]
async fn product_from_json_ld_graph() {
    let base = site().base();
    let (product, warning) = format_of("/product/jsonld.html", "product").await;
    assert_eq!(warning, None);
    assert_eq!(
        product,
        json!({
            "title": "Trail Kettle 1.2 L",
            "brand": "Lichen",
            "category": "Outdoor > Cooking",
            "url": format!("{base}/shop/trail-kettle"),
            "description": "A titanium kettle for two.",
            "images": [
                {"url": format!("{base}/img/kettle.jpg"), "alt": "The kettle on a stove"},
                {"url": "https://cdn.example.com/kettle-side.jpg"}
            ],
            "price": {"amount": 49.9, "currency": "EUR"},
            "originalPrice": {"amount": 59.9, "currency": "EUR"},
            "availability": {"inStock": true, "text": "InStock"},
            "variants": []
        })
    );
}

#[tokio::test]
async fn product_from_microdata_and_open_graph() {
    let base = site().base();
    let (micro, _) = format_of("/product/microdata.html", "product").await;
    assert_eq!(micro["title"], "Field Lantern");
    assert_eq!(micro["brand"], "Glow");
    assert_eq!(micro["url"], site().url("/product/microdata.html"));
    assert_eq!(
        micro["price"],
        json!({"amount": 1299.0, "currency": "USD", "formatted": "$1,299.00"})
    );
    assert_eq!(
        micro["images"],
        json!([{"url": format!("{base}/img/lantern.png"), "alt": "A lantern at dusk"}])
    );
    let (og, _) = format_of("/product/opengraph.html", "product").await;
    assert_eq!(og["url"], "https://shop.example.com/tote");
    assert_eq!(og["price"], json!({"amount": 19.5, "currency": "EUR"}));
    assert_eq!(
        og["availability"],
        json!({"inStock": false, "text": "out of stock"})
    );
    let (group, _) = format_of("/product/group.html", "product").await;
    assert_eq!(group["variants"].as_array().map(Vec::len), Some(2), "{group}");
}

#[tokio::test]
async fn no_product_is_null_with_upstreams_warning_and_other_formats_stay() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/product/none.html"), "formats": ["product", "markdown"] }),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.data()["product"], Value::Null, "{}", r.pretty());
    assert_eq!(
        r.data()["warning"],
        "No product found on this page; it does not appear to be a product page."
    );
    assert!(r.markdown().contains("An essay, not a product."));
}

#[tokio::test]
async fn menu_from_json_ld_and_lists() {
    let (menu, warning) = format_of("/menu/jsonld.html", "menu").await;
    assert_eq!(warning, None);
    assert_eq!(menu["name"], "Dinner");
    assert_eq!(menu["currency"], "EUR");
    let names: Vec<&str> = menu["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Starters", "Mains > From the grill", "Sides"]);
    assert_eq!(
        menu["sections"][0]["items"][0],
        json!({"name": "Beetroot soup", "description": "With rye bread.",
               "price": {"amount": 7.5, "currency": "EUR"}, "dietary": ["vegetarian", "gluten-free"]})
    );
    let (lists, _) = format_of("/menu/lists.html", "menu").await;
    assert_eq!(lists["currency"], "USD");
    assert_eq!(
        lists["sections"][1]["items"][0],
        json!({"name": "Mushroom risotto", "description": "Porcini, parmesan",
               "price": {"amount": 19.0, "currency": "USD", "formatted": "$19"},
               "dietary": ["vegetarian", "gluten-free"]})
    );
    let (micro, _) = format_of("/menu/microdata.html", "menu").await;
    assert_eq!(micro["currency"], "GBP");
    let (none, warning) = format_of("/menu/none.html", "menu").await;
    assert_eq!(none, Value::Null);
    // Without a model, the warning also says why the model did not read it.
    let warning = warning.unwrap_or_default();
    assert!(
        warning.starts_with("No menu found on this page. menu: "),
        "{warning}"
    );
    assert!(warning.ends_with("(DISTILL_LLM_BASE_URL)"), "{warning}");
}

#[tokio::test]
async fn redact_pii_masks_markdown_and_raw_html() {
    let url = site().url("/pii.html");
    let plain = scrape(shared().url(), &json!({ "url": url })).await;
    plain.assert_ok();
    assert!(plain.markdown().contains("secretary@lichen-society.example.org"));

    let r = scrape(
        shared().url(),
        &json!({ "url": url, "redactPII": true, "formats": ["markdown", "rawHtml"] }),
    )
    .await;
    r.assert_ok();
    let md = r.markdown();
    assert!(md.contains("Write to [EMAIL] or call [PHONE]."), "{md}");
    assert!(md.contains("IBAN [IBAN]. Test card [CREDIT_CARD]."), "{md}");
    assert!(
        md.contains("sits at [IP_ADDRESS]. Founded 1998-04-12; 1,200 members."),
        "{md}"
    );
    let raw = r.data_str("rawHtml");
    assert!(
        !raw.contains("secretary@lichen-society.example.org")
            && raw.contains("<p>Write to [EMAIL] or call [PHONE].</p>"),
        "rawHtml is redacted with its markup: {raw}"
    );

    let masked = scrape(
        shared().url(),
        &json!({ "url": url, "redactPII": {"mode": "mask", "entities": ["creditCard"]} }),
    )
    .await;
    masked.assert_ok();
    let md = masked.markdown();
    assert!(md.contains("Test card **** **** **** 1111."), "{md}");
    assert!(
        md.contains("secretary@lichen-society.example.org"),
        "only cards were asked for: {md}"
    );

    let bad = scrape(
        shared().url(),
        &json!({ "url": url, "redactPII": {"mode": "blur"} }),
    )
    .await;
    bad.assert_error(400, "BAD_REQUEST");
    assert!(bad.pretty().contains("redactPII"), "{}", bad.pretty());
}

#[tokio::test]
async fn a_model_format_without_a_model_is_null_with_a_warning_naming_the_setting() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/article.html"), "formats": ["summary", "product"] }),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.data()["summary"], Value::Null, "{}", r.pretty());
    assert_eq!(r.data()["product"], Value::Null, "{}", r.pretty());
    let warning = r.data()["warning"].as_str().unwrap_or_default();
    assert!(warning.contains("DISTILL_LLM_BASE_URL"), "{warning}");
    assert!(
        warning.contains("No product found on this page"),
        "both warnings are joined: {warning}"
    );
}
