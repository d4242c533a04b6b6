//! Bindings for ABI 0.5.0 (`wit/v0.5.0`), the current version: its types are
//! the host's own (re-exported from [`super`]).

/// The `format` world of 0.5.0.
pub mod format {
    wasmtime::component::bindgen!({
        world: "format",
        path: "../wit/v0.5.0",
        imports: {
            "distill:plugin/llm.complete": async,
            "distill:plugin/media.extract": async,
        },
        exports: { default: async },
    });
}

/// The `converter` world of 0.5.0 (shares `types`, `log` and `llm` with its format world).
pub mod converter {
    wasmtime::component::bindgen!({
        world: "converter",
        path: "../wit/v0.5.0",
        exports: { default: async },
        with: {
            "distill:plugin/types": super::format::distill::plugin::types,
            "distill:plugin/log": super::format::distill::plugin::log,
            "distill:plugin/llm": super::format::distill::plugin::llm,
        },
    });
}

pub use format::distill::plugin::types;

impl types::FormatValue {
    /// The value as the response holds it: a `text` value is the JSON string
    /// it stands for (taken as it is), `json` text is parsed.
    pub fn into_value(self) -> serde_json::Result<serde_json::Value> {
        match self {
            types::FormatValue::Text(text) => Ok(serde_json::Value::String(text)),
            types::FormatValue::Json(json) => serde_json::from_str(&json),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::types::FormatValue;
    use serde_json::json;

    #[test]
    fn a_text_value_is_the_string_and_json_is_parsed() {
        let text = FormatValue::Text("a \"b\"\n\\c".into()).into_value().unwrap();
        assert_eq!(text, json!("a \"b\"\n\\c"));
        let same = FormatValue::Json(serde_json::to_string(&text).unwrap());
        assert_eq!(same.into_value().unwrap(), text);
        assert_eq!(
            FormatValue::Json("{\"a\":[1]}".into()).into_value().unwrap(),
            json!({"a": [1]})
        );
        assert!(FormatValue::Json("\"open".into()).into_value().is_err());
    }
}
