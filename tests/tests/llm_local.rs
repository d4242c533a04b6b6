//! Every model format end to end against the real local model
//! (SmolLM2-135M-Instruct on llama.cpp's server, `make local-llm`, started on a
//! free loopback port by the harness). The model is tiny: these tests assert
//! structure, schema validity and wiring (verbatim quotes, kept blocks,
//! counted tokens), never facts. Schemas are bounded (maxLength, maxItems) so
//! the answers fit `max_tokens`.

use distill_e2e::{
    LOCAL_LLM_CONTEXT, Reply, ServerOptions, TestServer, local_llm, local_llm_turn, scrape, site,
};
use serde_json::{Value, json};
use std::sync::OnceLock;

fn server() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        TestServer::start(
            ServerOptions::default()
                .env("DISTILL_LLM_BASE_URL", &local_llm().base_url())
                .env("DISTILL_LLM_MODEL", "smollm2-135m")
                .env("DISTILL_LLM_CONTEXT_TOKENS", &LOCAL_LLM_CONTEXT.to_string())
                .env("DISTILL_LLM_MAX_TOKENS", "384")
                .env("DISTILL_ADMIN_KEY", "admin-key"),
        )
    })
}

async fn scrape_article(formats: Value, extra: Value) -> Reply {
    let mut body = json!({"url": site().url("/article.html"), "formats": formats, "timeout": 110000});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let server = server();
    let _turn = local_llm_turn().await;
    let r = scrape(server.url(), &body).await;
    r.assert_ok();
    r
}

fn no_warning(r: &Reply) {
    assert!(r.data().get("warning").is_none(), "{}", r.pretty());
}

#[tokio::test]
async fn summary_is_a_string() {
    let r = scrape_article(json!(["summary"]), json!({})).await;
    no_warning(&r);
    let summary = r.data_str("summary");
    assert!(!summary.trim().is_empty());
}

#[tokio::test]
async fn json_follows_a_bounded_schema() {
    let schema = json!({
        "type": "object",
        "properties": {
            "title": {"type": "string", "maxLength": 60},
            "species": {"type": "array", "items": {"type": "string", "maxLength": 30}, "maxItems": 3},
            "hasTable": {"type": "boolean"}
        },
        "required": ["title", "species", "hasTable"]
    });
    let r = scrape_article(
        json!([{"type": "json", "prompt": "The article's title and the lichen species it names.", "schema": schema}]),
        json!({}),
    )
    .await;
    no_warning(&r);
    let value = &r.data()["json"];
    let object = value.as_object().unwrap_or_else(|| panic!("{}", r.pretty()));
    assert_eq!(object.len(), 3, "exactly the schema's properties: {value}");
    assert!(
        value["title"].as_str().is_some_and(|t| t.chars().count() <= 60),
        "{value}"
    );
    let species = value["species"].as_array().unwrap();
    assert!(species.len() <= 3);
    assert!(
        species
            .iter()
            .all(|s| s.as_str().is_some_and(|s| s.chars().count() <= 30)),
        "{value}"
    );
    assert!(value["hasTable"].is_boolean(), "{value}");
}

#[tokio::test]
async fn json_with_a_top_level_array_is_unwrapped() {
    let schema = json!({"type": "array", "items": {"type": "string", "maxLength": 30}, "maxItems": 2});
    let r = scrape_article(
        json!([{"type": "json", "prompt": "Species names.", "schema": schema}]),
        json!({}),
    )
    .await;
    no_warning(&r);
    let list = r.data()["json"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", r.pretty()));
    assert!(list.len() <= 2 && list.iter().all(Value::is_string), "{list:?}");
}

#[tokio::test]
async fn question_has_a_bounded_answer() {
    let r = scrape_article(
        json!([{"type": "question", "question": "What are lichens made of?"}]),
        json!({}),
    )
    .await;
    no_warning(&r);
    let answer = r.data_str("answer");
    assert!(
        !answer.trim().is_empty() && answer.chars().count() <= 1000,
        "{answer}"
    );
}

#[tokio::test]
async fn highlights_are_sentences_of_the_page_verbatim() {
    let r = scrape_article(
        json!(["markdown", {"type": "highlights", "query": "What are lichens made of?"}]),
        json!({}),
    )
    .await;
    no_warning(&r);
    let highlights = r.data_str("highlights");
    assert!(!highlights.is_empty());
    for line in highlights.lines() {
        assert!(
            r.markdown().contains(line),
            "not verbatim: {line:?}\n{}",
            r.markdown()
        );
    }
}

#[tokio::test]
async fn only_clean_content_keeps_blocks_of_the_page_verbatim() {
    let plain = scrape_article(json!(["markdown"]), json!({"onlyMainContent": false})).await;
    let r = scrape_article(
        json!(["markdown"]),
        json!({"onlyMainContent": false, "onlyCleanContent": true}),
    )
    .await;
    no_warning(&r);
    let blocks: Vec<&str> = plain.markdown().split("\n\n").collect();
    let cleaned = r.markdown();
    for block in cleaned.split("\n\n") {
        assert!(
            blocks.contains(&block),
            "a block that is not the page's: {block:?}"
        );
    }
    assert!(cleaned.contains("```"), "code blocks are never removed");
    assert!(
        cleaned.len() * 2 >= plain.markdown().len(),
        "at most half removed"
    );
}

#[tokio::test]
async fn tokens_are_counted_per_format() {
    scrape_article(
        json!([{"type": "question", "question": "Where do lichens grow?"}]),
        json!({}),
    )
    .await;
    let usage = distill_e2e::client::http()
        .get(server().endpoint("/admin/llm"))
        .bearer_auth("admin-key")
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    let question = &usage["usage"]["question"];
    assert!(question["calls"].as_u64().unwrap() >= 1, "{usage}");
    assert!(
        question["promptTokens"].as_u64().unwrap() > 100,
        "the page was sent: {usage}"
    );
    assert!(question["completionTokens"].as_u64().unwrap() > 0, "{usage}");
}

async fn scrape_page(path: &str, format: &str) -> Reply {
    let body = json!({"url": site().url(path), "formats": [format], "timeout": 110000});
    let server = server();
    let _turn = local_llm_turn().await;
    let r = scrape(server.url(), &body).await;
    r.assert_ok();
    r
}

#[tokio::test]
async fn product_gaps_are_filled_in_the_product_shape() {
    let r = scrape_page("/product/sparse.html", "product").await;
    no_warning(&r);
    let product = &r.data()["product"];
    assert_eq!(
        product["title"],
        "Birch Stool",
        "the markup's title stands: {}",
        r.pretty()
    );
    assert!(
        product["images"][0]["url"]
            .as_str()
            .unwrap()
            .ends_with("/img/stool.jpg")
    );
    for key in ["brand", "description"] {
        if let Some(v) = product.get(key) {
            assert!(
                v.as_str().is_some_and(|s| !s.trim().is_empty()),
                "{key}: {}",
                r.pretty()
            );
        }
    }
    if let Some(price) = product.get("price") {
        assert!(
            price["amount"].as_f64().is_some_and(|a| a >= 0.0),
            "{}",
            r.pretty()
        );
        if let Some(c) = price.get("currency") {
            let c = c.as_str().unwrap();
            assert!(c.len() == 3 && c.chars().all(|ch| ch.is_ascii_uppercase()), "{c}");
        }
    }
    if let Some(a) = product.get("availability") {
        assert!(a["inStock"].is_boolean(), "{}", r.pretty());
    }
}

#[tokio::test]
async fn a_menu_without_markup_is_read_in_the_menu_shape_or_null() {
    let r = scrape_page("/menu/none.html", "menu").await;
    let menu = &r.data()["menu"];
    if menu.is_null() {
        // No menu read (none found, or the tiny model ran past max_tokens):
        // the warning says so first, and the scrape itself succeeded.
        let warning = r.data()["warning"].as_str().unwrap_or_default();
        assert!(
            warning.starts_with("No menu found on this page."),
            "{}",
            r.pretty()
        );
        return;
    }
    no_warning(&r);
    let sections = menu["sections"].as_array().expect("sections");
    assert!(!sections.is_empty());
    for section in sections {
        for item in section["items"].as_array().expect("items") {
            assert!(
                item["name"].as_str().is_some_and(|n| !n.trim().is_empty()),
                "{}",
                r.pretty()
            );
            assert!(item["dietary"].is_array());
        }
    }
}

#[tokio::test]
async fn an_extract_returns_data_shaped_by_its_schema() {
    let schema = json!({
        "type": "object",
        "properties": {
            "title": {"type": "string", "maxLength": 60},
            "species": {"type": "array", "items": {"type": "string", "maxLength": 30}, "maxItems": 3}
        },
        "required": ["title", "species"]
    });
    let server = server();
    let _turn = local_llm_turn().await;
    let started = distill_e2e::post_raw(
        &format!("{}/v2/extract", server.url()),
        json!({"urls": [site().url("/article.html")], "prompt": "The article's title and the lichen species it names.",
               "schema": schema, "showSources": true})
        .to_string(),
        &[],
    )
    .await;
    assert_eq!(started.status, 200, "{}", started.pretty());
    let id = started.json["id"].as_str().unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(150);
    let done = loop {
        let r = distill_e2e::get(&format!("{}/v2/extract/{id}", server.url())).await;
        if r.json["status"] != json!("processing") {
            break r.json;
        }
        assert!(std::time::Instant::now() < until, "{}", r.pretty());
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    };
    assert_eq!(done["status"], json!("completed"), "{done}");
    let data = done["data"].as_object().unwrap_or_else(|| panic!("{done}"));
    assert_eq!(data.len(), 2, "exactly the schema's properties: {done}");
    assert!(
        data["title"].as_str().is_some_and(|t| t.chars().count() <= 60),
        "{done}"
    );
    let species = data["species"].as_array().unwrap_or_else(|| panic!("{done}"));
    assert!(
        species.len() <= 3 && species.iter().all(Value::is_string),
        "{done}"
    );
    assert_eq!(
        done["sources"],
        json!({"species": [site().url("/article.html")], "title": [site().url("/article.html")]}),
        "{done}"
    );
    assert!(done["tokensUsed"].as_u64().unwrap() > 0, "{done}");
}
