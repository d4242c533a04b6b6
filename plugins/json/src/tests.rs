use super::*;
use distill_sdk::llm::mock;

fn page(md: &str) -> Page {
    Page::builder("https://example.com/").markdown(md).build()
}

#[test]
fn shorthand_and_arrays_are_normalised() {
    let mut n = normalize(&json!({"title": "string", "price": "number"})).unwrap();
    let mut required: Vec<String> = serde_json::from_value(n.schema["required"].take()).unwrap();
    required.sort();
    assert_eq!(required, ["price", "title"]);
    assert_eq!(
        n.schema,
        json!({"type": "object", "properties": {"title": {"type": "string"}, "price": {"type": "number"}},
               "required": null, "additionalProperties": false})
    );
    let n = normalize(
        &json!({"type": "array", "items": {"type": "object", "properties": {"x": {"type": "string"}}}}),
    )
    .unwrap();
    assert!(n.wrapped_array);
    assert_eq!(n.schema["required"], json!(["items"]));
    assert_eq!(
        n.schema["properties"]["items"]["items"]["additionalProperties"],
        json!(false)
    );
}

#[test]
fn objects_are_closed_and_required_filtered() {
    let n = normalize(&json!({"type": "object", "additionalProperties": true,
        "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b", "zz"]}},
        "required": ["a", "missing"]}))
    .unwrap();
    assert_eq!(n.schema["additionalProperties"], json!(false));
    assert_eq!(n.schema["required"], json!(["a"]));
    assert_eq!(n.schema["properties"]["a"]["required"], json!(["b"]));
    assert_eq!(n.schema["properties"]["a"]["additionalProperties"], json!(false));
    let err = normalize(&json!({"type": "object", "additionalProperties": true})).unwrap_err();
    assert!(err.contains("needs `properties`"), "{err}");
    assert!(normalize(&json!("string")).is_err());
}

#[test]
fn sends_upstreams_prompt_and_the_normalised_schema() {
    mock::set(|req| {
        assert_eq!(req.messages.len(), 3);
        assert_eq!(req.messages[0].content, SYSTEM);
        assert_eq!(
            req.messages[1].content,
            "Transform the following content into structured JSON output based on the provided schema and \
             this user request: the plant. If schema is provided, strictly follow it.\n\n# Moss\n\nGreen."
        );
        assert_eq!(req.messages[2].content, GUARD);
        let schema: Value = serde_json::from_str(req.json_schema.as_deref().unwrap()).unwrap();
        assert_eq!(schema["properties"]["items"]["type"], "array");
        Ok(r#"{"items": [{"name": "Moss"}]}"#.into())
    });
    let options = json!({"prompt": "the plant", "schema": {"type": "array", "items": {"type": "object",
        "properties": {"name": {"type": "string"}}}}});
    let out = JsonFormat::render("json", &page("# Moss\n\nGreen."), &options).unwrap();
    assert_eq!(out, json!([{"name": "Moss"}]), "the array is unwrapped");
    mock::clear();
}

#[test]
fn prompt_only_asks_for_any_object_and_schema_only_has_no_request() {
    mock::set(|req| {
        let schema: Value = serde_json::from_str(req.json_schema.as_deref().unwrap()).unwrap();
        assert_eq!(schema, json!({"type": "object"}));
        Ok(r#"{"plant": "moss"}"#.into())
    });
    let out = JsonFormat::render("json", &page("Moss."), &json!({"prompt": "what plant?"})).unwrap();
    assert_eq!(out, json!({"plant": "moss"}));
    mock::set(|req| {
        assert!(req.messages[1].content.starts_with(
            "Transform the following content into structured JSON output based on the provided schema if any.\n\n"
        ));
        Ok(r#"{"n": 1}"#.into())
    });
    let out = JsonFormat::render("json", &page("One."), &json!({"schema": {"n": "integer"}})).unwrap();
    assert_eq!(out, json!({"n": 1}));
    mock::clear();
}

#[test]
fn failures_are_null_and_a_warning_bad_options_are_refused() {
    distill_sdk::take_warnings();
    mock::set(|_| Err("the model's answer was cut off at max_tokens=512".into()));
    let out = JsonFormat::render("json", &page("text"), &json!({"prompt": "x"})).unwrap();
    assert_eq!(out, Value::Null);
    assert_eq!(
        distill_sdk::take_warnings(),
        vec!["json: the model's answer was cut off at max_tokens=512"]
    );
    let out = JsonFormat::render("json", &page("  "), &json!({"prompt": "x"})).unwrap();
    assert_eq!(out, Value::Null);
    assert!(distill_sdk::take_warnings()[0].contains("no text"));
    mock::clear();
    assert!(matches!(
        JsonFormat::render("json", &page("t"), &json!({"prompt": 3})),
        Err(PluginError::InvalidOptions(_))
    ));
    assert!(matches!(
        JsonFormat::render(
            "json",
            &page("t"),
            &json!({"schema": {"type": "object", "additionalProperties": true}})
        ),
        Err(PluginError::InvalidOptions(_))
    ));
}
