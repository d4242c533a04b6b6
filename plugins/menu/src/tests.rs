//! Unit tests on the fixture pages the e2e tests also serve
//! (tests/fixtures/site/menu/).

use super::*;
use crate::money::{find_price, text_tags};
use distill_sdk::json;

fn render(name: &str) -> Value {
    let path = format!(
        "{}/../../tests/fixtures/site/menu/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let html = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let page = Page::builder("http://cafe.test/menu").raw_html(&html).build();
    Menu::render("menu", &page, &json!({})).unwrap()
}

#[test]
fn json_ld_menu_through_has_menu_with_nested_sections() {
    assert_eq!(
        render("jsonld.html"),
        json!({
            "name": "Dinner",
            "currency": "EUR",
            "sections": [
                {"name": "Starters", "description": "Served from 6 pm.", "items": [
                    {"name": "Beetroot soup", "description": "With rye bread.",
                     "price": {"amount": 7.5, "currency": "EUR"}, "dietary": ["vegetarian", "gluten-free"]},
                    {"name": "Smoked trout", "price": {"amount": 9.0, "currency": "EUR"}, "dietary": []}
                ]},
                {"name": "Mains > From the grill", "items": [
                    {"name": "Lamb chops", "description": "Mint, peas.",
                     "price": {"amount": 24.0, "currency": "EUR"}, "dietary": []}
                ]},
                {"name": "Sides", "items": [
                    {"name": "Greens", "price": {"amount": 4.0, "currency": "EUR"}, "dietary": ["vegan"]}
                ]}
            ]
        })
    );
}

#[test]
fn microdata_menu() {
    assert_eq!(
        render("microdata.html"),
        json!({
            "name": "Drinks",
            "currency": "GBP",
            "sections": [{"name": "Coffee", "items": [
                {"name": "Flat white", "price": {"amount": 3.2, "currency": "GBP"}, "dietary": ["vegetarian"]},
                {"name": "Oat latte", "description": "Oat milk, double shot.",
                 "price": {"amount": 3.6, "currency": "GBP"}, "dietary": []}
            ]}]
        })
    );
}

#[test]
fn headed_lists_with_prices() {
    assert_eq!(
        render("lists.html"),
        json!({
            "currency": "USD",
            "sections": [
                {"name": "Small plates", "items": [
                    {"name": "Hummus", "description": "chickpeas, tahini, flatbread",
                     "price": {"amount": 8.0, "currency": "USD", "formatted": "$8"}, "dietary": ["vegan"]},
                    {"name": "Burrata", "description": "tomatoes, basil",
                     "price": {"amount": 14.5, "currency": "USD", "formatted": "$14.50"}, "dietary": []}
                ]},
                {"name": "Mains", "items": [
                    {"name": "Mushroom risotto", "description": "Porcini, parmesan",
                     "price": {"amount": 19.0, "currency": "USD", "formatted": "$19"},
                     "dietary": ["vegetarian", "gluten-free"]},
                    {"name": "Fish of the day", "description": "Market price",
                     "price": {"amount": 26.0, "currency": "USD", "formatted": "USD 26"}, "dietary": []}
                ]}
            ]
        })
    );
}

#[test]
fn no_menu_gives_the_warning_envelope() {
    distill_sdk::take_warnings();
    assert_eq!(render("none.html"), Value::Null);
    assert_eq!(distill_sdk::take_warnings(), vec![NO_MENU.to_string()]);
    let one_price = "<h2>Cake</h2><ul><li>Carrot cake £4</li><li>Tea</li></ul>";
    assert_eq!(extract(one_price), None, "one price alone is not a menu");
}

#[test]
fn prices_and_currencies() {
    let p = |s: &str| find_price(s).map(|(_, _, v)| v);
    assert_eq!(
        p("Soup 8,50 €"),
        Some(json!({"amount": 8.5, "currency": "EUR", "formatted": "8,50 €"}))
    );
    assert_eq!(
        p("Pie A$9"),
        Some(json!({"amount": 9.0, "currency": "AUD", "formatted": "A$9"}))
    );
    assert_eq!(
        p("Rösti CHF 18.00"),
        Some(json!({"amount": 18.0, "currency": "CHF", "formatted": "CHF 18.00"}))
    );
    assert_eq!(p("¥1,200 ramen").unwrap()["amount"], json!(1200.0));
    assert_eq!(p("Table for 4"), None);
    assert_eq!(
        text_tags("Salad (VG) gluten free").0,
        vec!["vegan", "gluten-free"]
    );
}

mod model_reading {
    use super::*;
    use distill_sdk::llm::mock;

    fn page(html: &str, markdown: &str) -> Page {
        Page::builder("http://cafe.test/menu")
            .raw_html(html)
            .markdown(markdown)
            .build()
    }

    #[test]
    fn a_menu_in_markup_costs_no_model_call() {
        mock::set(|_| panic!("the model must not be asked"));
        let html = std::fs::read_to_string(format!(
            "{}/../../tests/fixtures/site/menu/jsonld.html",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let out = Menu::render("menu", &page(&html, "# Dinner"), &json!({})).unwrap();
        assert_eq!(out["name"], "Dinner");
        mock::clear();
    }

    #[test]
    fn without_markup_the_model_reads_the_menu_and_its_answer_is_normalised() {
        mock::set(|req| {
            assert!(req.messages[1].content.contains("Pancakes with syrup 6"));
            let schema: Value = serde_json::from_str(req.json_schema.as_deref().unwrap()).unwrap();
            assert_eq!(schema["required"], json!(["sections"]));
            Ok(json!({"sections": [
                {"name": " Breakfast ", "items": [
                    {"name": "Pancakes", "description": "with syrup", "price": 6, "currency": "USD", "dietary": ["vegetarian", "vegetarian", "spicy"]},
                    {"name": "  ", "description": null, "price": 1, "currency": "USD", "dietary": []},
                    {"name": "Coffee", "description": "", "price": -2, "currency": "usd", "dietary": []}
                ]},
                {"name": "Empty", "items": []}
            ]})
            .to_string())
        });
        let out = Menu::render(
            "menu",
            &page("<p>no markup menu</p>", "## Breakfast\n\nPancakes with syrup 6"),
            &json!({}),
        )
        .unwrap();
        assert_eq!(
            out,
            json!({"currency": "USD", "sections": [{"name": "Breakfast", "items": [
                {"name": "Pancakes", "description": "with syrup", "price": {"amount": 6.0, "currency": "USD"}, "dietary": ["vegetarian"]},
                {"name": "Coffee", "dietary": []}
            ]}]})
        );
        mock::clear();
    }

    #[test]
    fn no_menu_from_the_model_or_a_failed_call_is_null_with_warnings() {
        distill_sdk::take_warnings();
        mock::set(|_| Ok(r#"{"sections": []}"#.into()));
        assert_eq!(
            Menu::render("menu", &page("<p>x</p>", "About us"), &json!({})).unwrap(),
            Value::Null
        );
        assert_eq!(distill_sdk::take_warnings(), vec![NO_MENU.to_string()]);
        mock::set(|_| Err("no language model is configured on this server (DISTILL_LLM_BASE_URL)".into()));
        assert_eq!(
            Menu::render("menu", &page("<p>x</p>", "About us"), &json!({})).unwrap(),
            Value::Null
        );
        let warnings = distill_sdk::take_warnings();
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert_eq!(warnings[0], NO_MENU);
        assert!(
            warnings[1].contains("could not read one: no language model is configured"),
            "{warnings:?}"
        );
        mock::clear();
    }
}
