//! Unit tests on the fixture pages the e2e tests also serve
//! (tests/fixtures/site/product/).

use super::*;
use distill_sdk::json;

const BASE: &str = "http://shop.test/shop/page";

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/../../tests/fixtures/site/product/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn render(name: &str) -> Value {
    let page = Page::builder(BASE).raw_html(&fixture(name)).build();
    Product::render("product", &page, &json!({})).unwrap()
}

#[test]
fn json_ld_through_graph_and_main_entity_wins_over_open_graph() {
    assert_eq!(
        render("jsonld.html"),
        json!({
            "title": "Trail Kettle 1.2 L",
            "brand": "Lichen",
            "category": "Outdoor > Cooking",
            "url": "http://shop.test/shop/trail-kettle",
            "description": "A titanium kettle for two.",
            "images": [
                {"url": "http://shop.test/img/kettle.jpg", "alt": "The kettle on a stove"},
                {"url": "https://cdn.example.com/kettle-side.jpg"}
            ],
            "price": {"amount": 49.9, "currency": "EUR"},
            "originalPrice": {"amount": 59.9, "currency": "EUR"},
            "availability": {"inStock": true, "text": "InStock"},
            "variants": []
        })
    );
}

#[test]
fn product_group_gives_variants_and_skips_broken_scripts() {
    assert_eq!(
        render("group.html"),
        json!({
            "title": "Wool Socks",
            "brand": "Moss & Co",
            "url": BASE,
            "price": {"amount": 12.0, "currency": "GBP"},
            "availability": {"inStock": false, "text": "OutOfStock"},
            "variants": [
                {"title": "Wool Socks S", "sku": "WS-S", "url": "http://shop.test/socks?size=s",
                 "price": {"amount": 12.0, "currency": "GBP"},
                 "availability": {"inStock": true, "text": "InStock"}},
                {"title": "Wool Socks L", "sku": "WS-L",
                 "price": {"amount": 15.0, "currency": "GBP"},
                 "availability": {"inStock": false, "text": "SoldOut"}}
            ]
        })
    );
}

#[test]
fn microdata_with_nested_items() {
    assert_eq!(
        render("microdata.html"),
        json!({
            "title": "Field Lantern",
            "brand": "Glow",
            "category": "Lighting",
            "url": BASE,
            "description": "Rechargeable, 400 lumens.",
            "images": [{"url": "http://shop.test/img/lantern.png", "alt": "A lantern at dusk"}],
            "price": {"amount": 1299.0, "currency": "USD", "formatted": "$1,299.00"},
            "availability": {"inStock": true, "text": "LimitedAvailability"},
            "variants": []
        })
    );
}

#[test]
fn open_graph_price_tags() {
    assert_eq!(
        render("opengraph.html"),
        json!({
            "title": "Canvas Tote",
            "brand": "Lichen",
            "url": "https://shop.example.com/tote",
            "description": "Heavy canvas, two handles.",
            "images": [{"url": "http://shop.test/img/tote.jpg"}],
            "price": {"amount": 19.5, "currency": "EUR"},
            "originalPrice": {"amount": 25.0, "currency": "EUR"},
            "availability": {"inStock": false, "text": "out of stock"},
            "variants": []
        })
    );
}

#[test]
fn no_product_gives_the_warning_envelope() {
    distill_sdk::take_warnings();
    assert_eq!(render("none.html"), Value::Null);
    assert_eq!(distill_sdk::take_warnings(), vec![NO_PRODUCT.to_string()]);
    assert_eq!(extract("", BASE), None);
}

#[test]
fn two_microdata_products_are_ambiguous() {
    let one = r#"<div itemscope itemtype="http://schema.org/Product"><span itemprop="name">A</span></div>"#;
    assert_eq!(extract(one, BASE).unwrap()["title"], "A");
    assert_eq!(extract(&one.repeat(2), BASE), None);
}

#[test]
fn amounts_parse_in_both_conventions() {
    assert_eq!(shape::parse_amount("$1,299.00"), Some(1299.0));
    assert_eq!(shape::parse_amount("19,99 €"), Some(19.99));
    assert_eq!(shape::parse_amount("1.299,50"), Some(1299.5));
    assert_eq!(shape::parse_amount("12"), Some(12.0));
    assert_eq!(shape::parse_amount("free"), None);
}
