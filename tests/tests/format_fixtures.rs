//! Exact expected output of the deterministic formats: each case scrapes a
//! fixture page (tests/fixtures/site/{product,menu,pii}/) over HTTP and
//! compares the whole answer — the format's value and the warning, or every
//! redacted output — with a committed JSON file under
//! tests/fixtures/expected/, in which `{base}` stands for the fixture site's
//! address. `DISTILL_WRITE_EXPECTED=1` rewrites the files from the server's
//! answers (review the diff before committing).

use distill_e2e::{scrape, shared, site};
use serde_json::{Map, Value, json};
use std::path::PathBuf;

fn expected_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/expected")
        .join(format!("{name}.json"))
}

/// Compares `actual` with tests/fixtures/expected/<name>.json.
fn assert_expected(name: &str, actual: &Value) {
    let base = site().base();
    let path = expected_path(name);
    if std::env::var_os("DISTILL_WRITE_EXPECTED").is_some() {
        let text = serde_json::to_string_pretty(actual)
            .unwrap()
            .replace(&base, "{base}");
        std::fs::write(&path, text + "\n").unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let expected: Value = serde_json::from_str(&text.replace("{base}", &base))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        actual,
        &expected,
        "{name}: the answer differs from {}:\n{}",
        path.display(),
        serde_json::to_string_pretty(actual).unwrap()
    );
}

/// `{<format>: value, warning}` of one format on one page.
async fn format_answer(path: &str, format: &str) -> Value {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url(path), "formats": [format] }),
    )
    .await;
    r.assert_ok();
    json!({ format: r.data()[format], "warning": r.data().get("warning") })
}

#[tokio::test]
async fn product_pages_match_their_expected_files() {
    for (page, name) in [
        ("/product/jsonld.html", "product-jsonld-graph"),
        ("/product/group.html", "product-jsonld-group"),
        ("/product/microdata.html", "product-microdata"),
        ("/product/opengraph.html", "product-opengraph"),
        ("/product/none.html", "product-none"),
    ] {
        assert_expected(name, &format_answer(page, "product").await);
    }
}

#[tokio::test]
async fn menu_pages_match_their_expected_files() {
    for (page, name) in [
        ("/menu/jsonld.html", "menu-jsonld"),
        ("/menu/microdata.html", "menu-microdata"),
        ("/menu/lists.html", "menu-lists"),
        ("/menu/none.html", "menu-none"),
    ] {
        assert_expected(name, &format_answer(page, "menu").await);
    }
}

/// `data` without the fields that change per request.
fn stable(data: &Value) -> Value {
    let mut data = data.as_object().cloned().unwrap_or_default();
    if let Some(Value::Object(meta)) = data.get_mut("metadata") {
        for volatile in ["scrapeId", "cacheState", "cachedAt"] {
            meta.remove(volatile);
        }
    }
    Value::Object(data)
}

#[tokio::test]
async fn redact_pii_placeholders_in_every_output() {
    let r = scrape(
        shared().url(),
        &json!({
            "url": site().url("/pii/detectors.html"),
            "formats": ["markdown", "html", "rawHtml", "links", "images"],
            "redactPII": true,
            "onlyMainContent": false,
            "maxAge": 0
        }),
    )
    .await;
    r.assert_ok();
    assert_expected("redact-placeholder", &stable(r.data()));
}

#[tokio::test]
async fn redact_pii_modes_and_entities() {
    let mut answers = Map::new();
    for (name, option) in [
        ("mask", json!({"mode": "mask"})),
        (
            "remove-email-phone",
            json!({"mode": "remove", "entities": ["email", "phone"]}),
        ),
        ("cards-and-ibans", json!({"entities": ["creditCard", "iban"]})),
        ("ip-addresses", json!({"entities": ["ipAddress"]})),
    ] {
        let r = scrape(
            shared().url(),
            &json!({
                "url": site().url("/pii/detectors.html"),
                "redactPII": option,
                "onlyMainContent": false,
                "maxAge": 0
            }),
        )
        .await;
        r.assert_ok();
        answers.insert(name.into(), json!(r.markdown()));
    }
    assert_expected("redact-modes", &Value::Object(answers));
}

#[tokio::test]
async fn redact_pii_reaches_plugin_formats() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/pii/product.html"), "formats": ["product"], "redactPII": true }),
    )
    .await;
    r.assert_ok();
    assert_expected("redact-product", &json!({"product": r.data()["product"]}));
}
