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

mod model_fill {
    use super::*;
    use distill_sdk::llm::mock;
    use std::cell::Cell;
    use std::rc::Rc;

    fn page(name: &str, markdown: &str) -> Page {
        Page::builder(BASE)
            .raw_html(&fixture(name))
            .markdown(markdown)
            .build()
    }

    /// A product page whose markup names the product and its image only.
    const SPARSE: &str = r#"<html><head><script type="application/ld+json">
        {"@context": "https://schema.org", "@type": "Product", "name": "Birch Stool",
         "image": "/img/stool.jpg"}</script></head><body><h1>Birch Stool</h1></body></html>"#;

    fn sparse(markdown: &str) -> Page {
        Page::builder(BASE).raw_html(SPARSE).markdown(markdown).build()
    }

    fn sparse_markup_only() -> Value {
        Product::render(
            "product",
            &Page::builder(BASE).raw_html(SPARSE).build(),
            &json!({}),
        )
        .unwrap()
    }

    #[test]
    fn markup_with_every_fillable_field_costs_no_model_call() {
        let calls = Rc::new(Cell::new(0));
        let seen = calls.clone();
        mock::set(move |_| {
            seen.set(seen.get() + 1);
            Ok("{}".into())
        });
        let out =
            Product::render("product", &page("jsonld.html", "# Kettle\n\nBuy it."), &json!({})).unwrap();
        assert_eq!(out["brand"], "Lichen");
        assert_eq!(calls.get(), 0);
        mock::clear();
    }

    #[test]
    fn the_model_fills_only_what_the_markup_lacks() {
        let bare = sparse_markup_only();
        let lacking = fill::missing(&bare);
        assert_eq!(lacking, fill::FILLABLE, "{bare}");
        mock::set(|req| {
            let schema: Value = serde_json::from_str(req.json_schema.as_deref().unwrap()).unwrap();
            let asked: Vec<&str> = schema["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            assert!(
                req.messages[1].content.contains("Made of birch."),
                "the page's text is sent"
            );
            let mut answer = serde_json::Map::new();
            for field in asked {
                let v = match field {
                    "brand" => json!("Birchworks"),
                    "description" => json!("  Made of birch.  "),
                    "price" => json!({"amount": 12.5, "currency": "GBP"}),
                    "availability" => json!({"inStock": false}),
                    _ => Value::Null,
                };
                answer.insert(field.into(), v);
            }
            Ok(Value::Object(answer).to_string())
        });
        let out = Product::render("product", &sparse("# Stool\n\nMade of birch."), &json!({})).unwrap();
        for field in &lacking {
            assert!(
                out.get(*field).is_some_and(|v| !v.is_null()),
                "{field} filled: {out}"
            );
        }
        // What the markup had is kept as it was.
        for (k, v) in bare.as_object().unwrap() {
            assert_eq!(&out[k], v, "{k} kept");
        }
        assert_eq!(out["description"], "Made of birch.");
        assert_eq!(out["price"], json!({"amount": 12.5, "currency": "GBP"}));
        assert_eq!(out["availability"], json!({"inStock": false}));
        mock::clear();
    }

    #[test]
    fn malformed_values_are_dropped_and_failures_warn() {
        let mut product = json!({"title": "T", "url": "u", "variants": []});
        fill::merge(
            &mut product,
            &fill::FILLABLE,
            &json!({"brand": "", "description": 7, "price": {"amount": -1, "currency": "EUR"}, "availability": {"inStock": "yes"}}),
        );
        assert_eq!(product, json!({"title": "T", "url": "u", "variants": []}));
        fill::merge(
            &mut product,
            &["price"],
            &json!({"price": {"amount": 3, "currency": "euro"}}),
        );
        assert_eq!(
            product["price"],
            json!({"amount": 3.0}),
            "a currency that is not ISO 4217 is left out"
        );

        distill_sdk::take_warnings();
        mock::set(|_| Err("no language model is configured on this server (DISTILL_LLM_BASE_URL)".into()));
        let out = Product::render("product", &sparse("text"), &json!({})).unwrap();
        assert_eq!(out, sparse_markup_only(), "the markup's product stands");
        let warnings = distill_sdk::take_warnings().join(" ");
        assert!(
            warnings.starts_with("product: brand, description, price, availability not in")
                && warnings.contains("not filled: no language model is configured"),
            "{warnings}"
        );
        mock::clear();
    }
}
