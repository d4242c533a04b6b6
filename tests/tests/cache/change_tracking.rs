//! Change tracking over three page versions: git-diff and JSON modes (the JSON mode through a
//! scripted model on loopback), and the warnings when its needs are not met.

use super::*;

fn tracking(modes: Value) -> Value {
    json!(["markdown", { "type": "changeTracking", "modes": modes }])
}

#[tokio::test]
async fn change_tracking_across_three_versions() {
    let t = unique_token("trees");
    let url = site().url(&format!("/versioned/{t}"));
    let body = json!({ "url": url, "formats": tracking(json!(["git-diff"])) });

    let r = scrape(shared().url(), &body).await;
    r.assert_ok();
    let ct = &r.data()["changeTracking"];
    assert_eq!(ct["changeStatus"], "new", "{}", r.pretty());
    assert_eq!(ct["visibility"], "visible");
    assert!(ct["previousScrapeAt"].is_null(), "{}", r.pretty());
    assert!(ct.get("diff").is_none());
    assert!(r.markdown().contains("Birch"));

    let r = scrape(shared().url(), &body).await;
    let ct = &r.data()["changeTracking"];
    assert_eq!(ct["changeStatus"], "same", "{}", r.pretty());
    assert_iso(&ct["previousScrapeAt"]);
    assert!(ct.get("diff").is_none());

    site().set_version(&t, 2);
    let r = scrape(shared().url(), &body).await;
    let ct = &r.data()["changeTracking"];
    assert_eq!(ct["changeStatus"], "changed", "{}", r.pretty());
    let text = ct["diff"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no diff.text: {}", r.pretty()));
    assert!(text.starts_with("@@ "), "{text}");
    for line in ["-- Birch", "+- Beech", "+- Damson"] {
        assert!(text.lines().any(|l| l == line), "{line:?} not in\n{text}");
    }
    let changes = &ct["diff"]["json"]["files"][0]["chunks"][0]["changes"];
    assert!(
        changes
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["type"] == "del" && c["content"] == "-- Birch")),
        "{}",
        r.pretty()
    );

    site().set_version(&t, 3);
    let r = scrape(shared().url(), &body).await;
    let ct = &r.data()["changeTracking"];
    assert_eq!(ct["changeStatus"], "changed", "{}", r.pretty());
    let text = ct["diff"]["text"].as_str().unwrap();
    assert!(
        text.lines().any(|l| l == "-- Alder") && !text.contains("Birch"),
        "{text}"
    );
    assert!(r.markdown().contains("Damson") && versioned_page(&t, 3).contains("Damson"));
    // Tracking never answers from the cache: every scrape fetched.
    assert_eq!(site().hits(&format!("v:{t}")), 4);
    assert!(r.metadata().get("cacheState").is_none(), "{}", r.pretty());

    // A tag keeps its own history.
    let tagged = json!({ "url": url, "formats": ["markdown", { "type": "changeTracking", "tag": "other" }] });
    let r = scrape(shared().url(), &tagged).await;
    assert_eq!(
        r.data()["changeTracking"]["changeStatus"],
        "new",
        "{}",
        r.pretty()
    );
}

#[tokio::test]
async fn change_tracking_needs_markdown_and_warns_in_json_mode() {
    let url = site().url(&format!("/versioned/{}", unique_token("ctjson")));
    let r = scrape(
        shared().url(),
        &json!({ "url": url, "formats": ["changeTracking"] }),
    )
    .await;
    r.assert_error(400, "BAD_REQUEST");
    assert!(
        r.body
            .contains("The changeTracking format requires the markdown format to be specified as well"),
        "{}",
        r.pretty()
    );
    let r = scrape(
        shared().url(),
        &json!({ "url": url, "formats": tracking(json!(["json"])) }),
    )
    .await;
    r.assert_ok();
    assert_eq!(
        r.data()["changeTracking"]["changeStatus"],
        "new",
        "{}",
        r.pretty()
    );
    assert!(
        r.data_str("warning").contains("json mode needs a language model"),
        "{}",
        r.pretty()
    );
    // Zero data retention: no tracking, upstream's warning.
    let r = scrape(
        shared().url(),
        &json!({ "url": url, "formats": tracking(json!(["git-diff"])), "zeroDataRetention": true }),
    )
    .await;
    r.assert_ok();
    assert!(r.data().get("changeTracking").is_none(), "{}", r.pretty());
    assert!(
        r.data_str("warning")
            .contains("Change tracking is not supported with zero data retention."),
        "{}",
        r.pretty()
    );
}

/// A scripted OpenAI-compatible model on loopback. With a schema
/// (`response_format`), it "extracts" the `# ` title and the list items of
/// the content it is given: `{title, items, count}`; without one it answers
/// a fixed analysis. Every request body is recorded.
async fn scripted_model() -> (String, Arc<Mutex<Vec<Value>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let app = Router::new().route(
        "/v1/chat/completions",
        post(move |body: Bytes| {
            let log = log.clone();
            async move {
                let req: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                log.lock().unwrap().push(req.clone());
                let content = req["messages"][0]["content"].as_str().unwrap_or_default();
                let answer = if req.get("response_format").is_some() {
                    let items: Vec<&str> = content
                        .lines()
                        .filter_map(|l| l.trim().strip_prefix("- ").or_else(|| l.trim().strip_prefix("* ")))
                        .collect();
                    let title = content
                        .lines()
                        .find_map(|l| l.strip_prefix("# "))
                        .unwrap_or_default();
                    json!({ "title": title, "items": items, "count": items.len() })
                } else {
                    json!({ "analysis": "the list changed" })
                };
                let body = json!({ "choices": [{ "message": { "role": "assistant", "content": answer.to_string() } }] });
                ([("content-type", "application/json")], body.to_string())
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/v1"), seen)
}

/// json mode with a model: both versions extracted with the schema, the keys
/// that differ reported as `{previous, current}`; without a schema, the
/// model's analysis as it is.
#[tokio::test]
async fn change_tracking_json_mode_compares_extracted_values_through_the_model() {
    let (model, seen) = scripted_model().await;
    let server = TestServer::start(
        ServerOptions::default()
            .env("DISTILL_LLM_BASE_URL", &model)
            .env("DISTILL_LLM_MODEL", "scripted"),
    );
    let t = unique_token("ctmodel");
    let url = site().url(&format!("/versioned/{t}"));
    let schema = json!({"type": "object", "properties": {
        "title": {"type": "string"}, "items": {"type": "array", "items": {"type": "string"}},
        "count": {"type": "integer"}}, "required": ["title", "items", "count"]});
    let formats = json!(["markdown", { "type": "changeTracking", "modes": ["json"], "schema": schema }]);
    site().set_version(&t, 1);
    let r = scrape(server.url(), &json!({ "url": url, "formats": formats })).await;
    r.assert_ok();
    assert_eq!(
        r.data()["changeTracking"]["changeStatus"],
        "new",
        "{}",
        r.pretty()
    );
    assert!(r.data()["changeTracking"].get("json").is_none(), "{}", r.pretty());
    assert!(r.data().get("warning").is_none(), "{}", r.pretty());
    assert!(
        seen.lock().unwrap().is_empty(),
        "the model was asked about a new page"
    );

    site().set_version(&t, 2);
    let r = scrape(server.url(), &json!({ "url": url, "formats": formats })).await;
    r.assert_ok();
    let ct = &r.data()["changeTracking"];
    assert_eq!(ct["changeStatus"], "changed", "{}", r.pretty());
    assert_eq!(
        ct["json"],
        json!({
            "items": {"previous": ["Alder", "Birch", "Cedar"], "current": ["Alder", "Beech", "Cedar", "Damson"]},
            "count": {"previous": 3, "current": 4}
        }),
        "{}",
        r.pretty()
    );
    {
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 2, "one extraction per version");
        for req in seen.iter() {
            assert_eq!(req["response_format"]["json_schema"]["schema"], schema);
            assert_eq!(req["model"], "scripted");
        }
        let prompts: Vec<&str> = seen
            .iter()
            .filter_map(|r| r["messages"][0]["content"].as_str())
            .collect();
        assert!(prompts.iter().any(|p| p.contains("Birch")) && prompts.iter().any(|p| p.contains("Damson")));
    }

    // Without a schema: the model's own analysis, as upstream returns it.
    site().set_version(&t, 3);
    let plain = json!(["markdown", { "type": "changeTracking", "modes": ["json"] }]);
    let r = scrape(server.url(), &json!({ "url": url, "formats": plain })).await;
    r.assert_ok();
    assert_eq!(
        r.data()["changeTracking"]["changeStatus"],
        "changed",
        "{}",
        r.pretty()
    );
    assert_eq!(
        r.data()["changeTracking"]["json"],
        json!({"analysis": "the list changed"})
    );
    let last = seen.lock().unwrap().last().cloned().unwrap();
    assert!(last.get("response_format").is_none());
    let prompt = last["messages"][0]["content"].as_str().unwrap();
    assert!(
        prompt.contains("Analyze the differences") && prompt.contains("Beech"),
        "{prompt}"
    );
}
