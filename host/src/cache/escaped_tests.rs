use super::*;
use serde_json::json;

fn long(s: &str) -> String {
    s.repeat(600 / s.len() + 1)
}

fn written(escaped: &Escaped, doc: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    escaped.write(&mut out, doc, None);
    out
}

#[test]
fn writes_what_serde_json_writes() {
    let docs = [
        json!({"markdown": long("# T\n\"q\" \u{1} é \\ \u{2028} 😀 "), "metadata": {"title": "T", "statusCode": 200},
            "links": ["a", "b"], "warning": null, "html": long("<p a=\"b\">x</p>\r\n")}),
        json!({"markdown": "short", "metadata": {}}),
        json!({"\"odd\nkey\"": long("v "), "n": 1.5, "b": true}),
        json!({}),
        json!([long("an array "), 1]),
        json!(long("a string ")),
        Value::Null,
    ];
    for doc in &docs {
        let escaped = Escaped::of(doc);
        assert_eq!(written(&escaped, doc), serde_json::to_vec(doc).unwrap(), "{doc}");
        assert_eq!(
            written(&Escaped::default(), doc),
            serde_json::to_vec(doc).unwrap()
        );
    }
    let first = Escaped::of(&docs[0]);
    assert_eq!(
        first.fields.len(),
        2,
        "markdown and html; the short ones are not kept"
    );
    assert!(first.len() > 1200);
    assert!(Escaped::of(&docs[1]).is_empty());
    assert!(Escaped::of(&docs[4]).is_empty(), "only an object's fields");
}

#[test]
fn a_field_changed_since_is_escaped_afresh() {
    let mut doc = json!({"markdown": long("before "), "summary": long("kept "), "metadata": {"a": 1}});
    let escaped = Escaped::of(&doc);
    // A new value, as long as the old one and as long but different.
    doc["markdown"] = Value::String(long("after! "));
    assert_eq!(written(&escaped, &doc), serde_json::to_vec(&doc).unwrap());
    // Added fields, and moves of the map (its values move, their strings stay).
    doc["changeTracking"] = json!({"changeStatus": "new"});
    doc["metadata"]["creditsUsed"] = json!(1);
    let moved = doc;
    assert_eq!(written(&escaped, &moved), serde_json::to_vec(&moved).unwrap());
    // A field's escape is not used for another field.
    let mut swapped = moved;
    let summary = swapped["summary"].take();
    swapped["markdown"] = summary;
    assert_eq!(written(&escaped, &swapped), serde_json::to_vec(&swapped).unwrap());
}

#[test]
fn metadata_is_written_from_the_map_given() {
    let doc = json!({"markdown": long("m "), "metadata": {"scrapeId": "1", "title": "T"}, "warning": "w"});
    let escaped = Escaped::of(&doc);
    let meta = json!({"title": "T"}).as_object().cloned().unwrap();
    let mut out = Vec::new();
    escaped.write(&mut out, &doc, Some(&meta));
    let mut expected = doc.clone();
    expected["metadata"] = Value::Object(meta);
    assert_eq!(out, serde_json::to_vec(&expected).unwrap());
}
