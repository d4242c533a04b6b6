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
