//! The model's structured answer: code fences stripped, JSON parsed, checked
//! against a schema. Invariants: no panic; an accepted answer is valid JSON
//! that follows the schema; a refusal says why; bounded time.
#![no_main]

/// The server's structured-output module, compiled from its source file.
#[path = "../../host/src/llm/schema.rs"]
#[allow(dead_code)]
mod schema;

use libfuzzer_sys::fuzz_target;
use schema::{check, compile};
use std::sync::OnceLock;

fn validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        compile(&serde_json::json!({
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "items": {"type": "array", "items": {"type": "object",
                    "properties": {"name": {"type": "string"}, "price": {"type": "number"}}}}
            },
            "required": ["title"]
        }))
        .expect("schema compiles")
    })
}

fuzz_target!(|data: &[u8]| {
    let answer = String::from_utf8_lossy(data);
    match check(validator(), &answer) {
        Ok(json) => {
            let value: serde_json::Value = serde_json::from_str(&json).expect("accepted answer is JSON");
            assert!(validator().is_valid(&value), "accepted answer breaks the schema");
        }
        Err(why) => assert!(!why.is_empty()),
    }
});
