//! Structured output: the plugin's JSON Schema compiled once per call
//! (jsonschema, no remote `$ref`), the model's answer parsed and checked
//! against it, the prompt of the one repair attempt, and whether a schema
//! qualifies for OpenAI's strict mode.

use jsonschema::Validator;
use serde_json::Value;

/// Most validation problems quoted back to the model or the user.
const MAX_PROBLEMS: usize = 5;

/// Compiles `schema`, or says why it is not a usable JSON Schema.
pub fn compile(schema: &Value) -> Result<Validator, String> {
    jsonschema::validator_for(schema)
        .map_err(|e| format!("the plugin's json-schema is not a valid JSON Schema: {e}"))
}

/// The answer's JSON text (trimmed, code fences removed) when it parses and
/// follows the schema; else what is wrong with it.
pub fn check(validator: &Validator, answer: &str) -> Result<String, String> {
    let text = strip_fences(answer.trim());
    let value: Value = serde_json::from_str(text).map_err(|e| format!("the answer is not JSON ({e})"))?;
    let problems: Vec<String> = validator
        .iter_errors(&value)
        .take(MAX_PROBLEMS)
        .map(|e| {
            let at = e.instance_path().to_string();
            if at.is_empty() {
                e.to_string()
            } else {
                format!("at {at}: {e}")
            }
        })
        .collect();
    if problems.is_empty() {
        Ok(text.to_string())
    } else {
        Err(format!(
            "the answer does not follow the schema: {}",
            problems.join("; ")
        ))
    }
}

/// The user message of the repair attempt.
pub fn repair_prompt(problem: &str) -> String {
    format!(
        "Your previous answer cannot be used: {problem}. Reply again with only the JSON value \
         that follows the required JSON Schema, and nothing else."
    )
}

/// A model's answer read as JSON (trimmed, a markdown code fence around it
/// removed), for callers that check its shape themselves.
pub fn answer_json(answer: &str) -> Result<Value, String> {
    serde_json::from_str(strip_fences(answer.trim()))
        .map_err(|e| format!("the model's answer is not JSON: {e}"))
}

/// Models sometimes wrap JSON in a markdown code fence despite the schema.
fn strip_fences(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("```") else {
        return text;
    };
    let rest = rest.strip_prefix("json").unwrap_or(rest);
    rest.strip_suffix("```").unwrap_or(rest).trim()
}

/// Whether OpenAI's strict structured outputs can enforce `schema`: every
/// object lists its properties, requires all of them and forbids others.
pub fn is_strict_compatible(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            if map.get("type").and_then(Value::as_str) == Some("object") || map.contains_key("properties") {
                let Some(Value::Object(props)) = map.get("properties") else {
                    return false;
                };
                if map.get("additionalProperties") != Some(&Value::Bool(false)) {
                    return false;
                }
                let required: Vec<&str> = map
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if !props.keys().all(|k| required.contains(&k.as_str())) {
                    return false;
                }
            }
            map.iter()
                .filter(|(k, _)| {
                    !matches!(k.as_str(), "required" | "enum" | "const" | "default" | "examples")
                })
                .all(|(_, v)| is_strict_compatible(v))
        }
        Value::Array(items) => items.iter().all(is_strict_compatible),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({"type": "object", "properties": {"answer": {"type": "string", "maxLength": 10}},
               "required": ["answer"], "additionalProperties": false})
    }

    #[test]
    fn answers_read_as_json_with_or_without_a_fence() {
        assert_eq!(answer_json("```json\n{\"a\": 1}\n```").unwrap(), json!({"a": 1}));
        assert_eq!(answer_json("```\n[1]\n```").unwrap(), json!([1]));
        assert_eq!(answer_json(" [1] ").unwrap(), json!([1]));
        assert!(
            answer_json("no")
                .unwrap_err()
                .starts_with("the model's answer is not JSON")
        );
    }

    #[test]
    fn valid_answers_pass_invalid_ones_say_why() {
        let v = compile(&schema()).unwrap();
        assert_eq!(
            check(&v, " {\"answer\": \"yes\"} ").unwrap(),
            "{\"answer\": \"yes\"}"
        );
        assert_eq!(
            check(&v, "```json\n{\"answer\": \"yes\"}\n```").unwrap(),
            "{\"answer\": \"yes\"}"
        );
        assert!(check(&v, "{\"answer\": ").unwrap_err().contains("not JSON"));
        let wrong = check(&v, "{\"answer\": 3}").unwrap_err();
        assert!(
            wrong.contains("does not follow the schema") && wrong.contains("/answer"),
            "{wrong}"
        );
        assert!(check(&v, "{\"answer\": \"far too long for it\"}").is_err());
        assert!(check(&v, "{}").unwrap_err().contains("required"));
    }

    #[test]
    fn a_broken_schema_is_refused() {
        assert!(
            compile(&json!({"type": "no-such-type"}))
                .unwrap_err()
                .contains("not a valid JSON Schema")
        );
    }

    #[test]
    fn strict_mode_only_for_closed_fully_required_objects() {
        assert!(is_strict_compatible(&schema()));
        assert!(!is_strict_compatible(&json!({"type": "object"})));
        let mut open = schema();
        open["additionalProperties"] = json!(true);
        assert!(!is_strict_compatible(&open));
        let mut optional = schema();
        optional["required"] = json!([]);
        assert!(!is_strict_compatible(&optional));
        let nested = json!({"type": "object", "additionalProperties": false, "required": ["xs"],
            "properties": {"xs": {"type": "array", "items": {"type": "object"}}}});
        assert!(!is_strict_compatible(&nested));
        assert!(is_strict_compatible(&json!({"type": "string"})));
    }
}
