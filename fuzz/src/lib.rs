//! Shared checks of the fuzz targets: the invariants every converter's output
//! must hold (see docs/ROBUSTNESS.md), and the native call of a converter's
//! real entry point (`ConverterPlugin::convert`, what the wasm export runs).

use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, json};

/// Runs converter `P` on `bytes` as the file `name`, with default options, and
/// checks its answer.
pub fn convert<P: ConverterPlugin>(name: &str, bytes: &[u8]) {
    let file = FileInput {
        name: name.to_string(),
        content_type: None,
        bytes: bytes.to_vec(),
    };
    check_answer(P::convert(&file, &json!({})));
}

/// A converter's answer is a document whose metadata is a JSON object and
/// whose warnings are non-empty, or an error with a message.
pub fn check_answer(answer: Result<Document, PluginError>) {
    match answer {
        Ok(doc) => check_document(&doc),
        Err(e) => assert!(!format!("{e:?}").is_empty()),
    }
}

/// The invariants of a converted document (its text is a Rust `String`, so
/// valid UTF-8 by construction; the metadata travels as JSON text).
pub fn check_document(doc: &Document) {
    let meta: serde_json::Value =
        serde_json::from_str(&doc.metadata).expect("converter metadata is not valid JSON");
    assert!(
        meta.is_object(),
        "converter metadata is not a JSON object: {meta}"
    );
    for w in &doc.warnings {
        assert!(!w.trim().is_empty(), "empty warning");
    }
}
