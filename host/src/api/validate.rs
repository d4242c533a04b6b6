//! A small schema walker for JSON request bodies. It collects every problem as a
//! zod-style issue (`{code, path, message, ...}`), the shape upstream Firecrawl
//! returns in `details`, and tracks which keys were read so unknown keys can be
//! rejected (bodies are strict).
//!
//! The same walk also *describes* a body: a [`Checker::describing`] checker
//! records, for every field the validators ask for, its JSON Schema (type,
//! bounds, allowed values, default, required), so `/openapi.json` and the MCP
//! tools' input schemas come from the code that validates requests.

use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::sync::LazyLock;

/// Issues found so far (and, in describe mode, the schema recorded).
#[derive(Default, Debug)]
pub struct Checker {
    pub issues: Vec<Value>,
    /// Set in describe mode: the JSON Schema of what the walk asked for.
    schema: Option<Value>,
}

/// What an absent value reads as in describe mode.
static ABSENT: Value = Value::Null;
static NO_FIELDS: LazyLock<Map<String, Value>> = LazyLock::new(Map::new);

/// A JSON path such as `["formats", 0, "type"]`.
pub type Path = Vec<Value>;

/// The JSON type name zod uses in messages.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

impl Checker {
    /// A checker that records the schema of every field it is asked about.
    pub fn describing() -> Self {
        Checker {
            issues: Vec::new(),
            schema: Some(json!({"type": "object", "properties": {}})),
        }
    }

    pub fn is_describing(&self) -> bool {
        self.schema.is_some()
    }

    /// The recorded schema (describe mode), or `None`.
    pub fn into_schema(self) -> Option<Value> {
        self.schema
    }

    /// Describe mode: merges `fragment` (JSON Schema keywords) into the schema
    /// of the value at `path`. A no-op when validating.
    pub fn describe(&mut self, path: &Path, fragment: Value) {
        let Some(root) = self.schema.as_mut() else { return };
        let node = schema_node(root, path);
        if let (Value::Object(node), Value::Object(fragment)) = (node, fragment) {
            node.extend(fragment);
        }
    }

    /// Describe mode: whether the schema at `path` already has a `type`.
    fn has_type(&mut self, path: &Path) -> bool {
        self.schema
            .as_mut()
            .is_some_and(|root| schema_node(root, path).get("type").is_some())
    }

    pub fn is_ok(&self) -> bool {
        self.issues.is_empty()
    }

    /// Records an issue with extra fields.
    pub fn issue(&mut self, code: &str, path: &Path, message: impl Into<String>, extra: Value) {
        let mut issue = json!({ "code": code, "message": message.into(), "path": path });
        if let (Some(obj), Value::Object(extra)) = (issue.as_object_mut(), extra) {
            obj.extend(extra);
        }
        self.issues.push(issue);
    }

    /// A refinement failure (its message becomes the response's `error`).
    pub fn custom(&mut self, path: &Path, message: impl Into<String>) {
        self.issue("custom", path, message, Value::Null);
    }

    pub fn invalid_type(&mut self, path: &Path, expected: &str, got: &Value) {
        let received = type_name(got);
        self.issue(
            "invalid_type",
            path,
            format!("Expected {expected}, received {received}"),
            json!({"expected": expected, "received": received}),
        );
    }

    pub fn required(&mut self, path: &Path, expected: &str) {
        if self.is_describing() {
            if !self.has_type(path) {
                self.describe(path, json!({ "type": expected }));
            }
            if let (Some(root), Some((Value::String(key), parent))) =
                (self.schema.as_mut(), path.split_last())
            {
                let parent = schema_node(root, &parent.to_vec());
                if let Some(list) = parent
                    .as_object_mut()
                    .map(|m| m.entry("required").or_insert_with(|| json!([])))
                    .and_then(Value::as_array_mut)
                    .filter(|list| !list.contains(&json!(key)))
                {
                    list.push(json!(key));
                }
            }
            return;
        }
        self.issue(
            "invalid_type",
            path,
            "Required",
            json!({"expected": expected, "received": "undefined"}),
        );
    }

    pub fn enum_mismatch(&mut self, path: &Path, allowed: &[&str], got: &str) {
        let options = allowed
            .iter()
            .map(|a| format!("'{a}'"))
            .collect::<Vec<_>>()
            .join(" | ");
        self.issue(
            "invalid_enum_value",
            path,
            format!("Invalid enum value. Expected {options}, received '{got}'"),
            json!({"options": allowed, "received": got}),
        );
    }

    /// Expects an object at `path`; records an issue otherwise. In describe
    /// mode an absent value reads as an object with no fields.
    pub fn object<'v>(&mut self, value: &'v Value, path: Path) -> Option<Fields<'v>> {
        if self.is_describing() {
            self.describe(&path, json!({"type": "object"}));
            if value.is_null() {
                return Some(Fields::new(&NO_FIELDS, path));
            }
        }
        match value {
            Value::Object(map) => Some(Fields::new(map, path)),
            other => {
                self.invalid_type(&path, "object", other);
                None
            }
        }
    }
}

/// Reads the fields of one JSON object, remembering which keys were asked for.
pub struct Fields<'v> {
    map: &'v Map<String, Value>,
    pub path: Path,
    used: HashSet<&'v str>,
}

impl<'v> Fields<'v> {
    pub fn new(map: &'v Map<String, Value>, path: Path) -> Self {
        Fields {
            map,
            path,
            used: HashSet::new(),
        }
    }

    /// The path of a key inside this object.
    pub fn at(&self, key: &str) -> Path {
        let mut p = self.path.clone();
        p.push(Value::String(key.to_string()));
        p
    }

    /// The raw value of `key`, marking it as known. `null` counts as absent
    /// (clients often serialise unset options as null).
    pub fn raw(&mut self, key: &str) -> Option<&'v Value> {
        let (k, v) = self.map.get_key_value(key)?;
        self.used.insert(k.as_str());
        if v.is_null() { None } else { Some(v) }
    }

    /// Describe mode: records `fragment()` (JSON Schema keywords) for `key`.
    /// Validation never builds the fragment.
    pub fn describe(&self, c: &mut Checker, key: &str, fragment: impl FnOnce() -> Value) {
        if c.is_describing() {
            c.describe(&self.at(key), fragment());
        }
    }

    pub fn bool(&mut self, c: &mut Checker, key: &str, default: bool) -> bool {
        self.describe(c, key, || json!({"type": "boolean", "default": default}));
        match self.raw(key) {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                c.invalid_type(&self.at(key), "boolean", other);
                default
            }
        }
    }

    /// An integer within `[min, max]` (either bound optional).
    pub fn int(&mut self, c: &mut Checker, key: &str, min: Option<i64>, max: Option<i64>) -> Option<i64> {
        if c.is_describing() {
            let mut schema = json!({"type": "integer"});
            if let Some(min) = min {
                schema["minimum"] = json!(min);
            }
            if let Some(max) = max {
                schema["maximum"] = json!(max);
            }
            self.describe(c, key, || schema);
        }
        let v = self.raw(key)?;
        let path = self.at(key);
        check_int(c, &path, v, min, max)
    }

    pub fn number(&mut self, c: &mut Checker, key: &str) -> Option<f64> {
        self.describe(c, key, || json!({"type": "number"}));
        match self.raw(key)? {
            Value::Number(n) => n.as_f64(),
            other => {
                c.invalid_type(&self.at(key), "number", other);
                None
            }
        }
    }

    pub fn string(&mut self, c: &mut Checker, key: &str) -> Option<String> {
        self.describe(c, key, || json!({"type": "string"}));
        match self.raw(key)? {
            Value::String(s) => Some(s.clone()),
            other => {
                c.invalid_type(&self.at(key), "string", other);
                None
            }
        }
    }

    /// A string that must be present.
    pub fn required_string(&mut self, c: &mut Checker, key: &str) -> Option<String> {
        if self.raw(key).is_none() {
            c.required(&self.at(key), "string");
            return None;
        }
        self.string(c, key)
    }

    /// A string with a length limit (in characters).
    pub fn string_len(&mut self, c: &mut Checker, key: &str, min: usize, max: usize) -> Option<String> {
        self.describe(
            c,
            key,
            || json!({"type": "string", "minLength": min, "maxLength": max}),
        );
        let s = self.string(c, key)?;
        let n = s.chars().count();
        let path = self.at(key);
        if n < min {
            c.issue(
                "too_small",
                &path,
                format!("String must contain at least {min} character(s)"),
                json!({"minimum": min, "type": "string", "inclusive": true, "exact": false}),
            );
        } else if n > max {
            c.issue(
                "too_big",
                &path,
                format!("String must contain at most {max} character(s)"),
                json!({"maximum": max, "type": "string", "inclusive": true, "exact": false}),
            );
        }
        Some(s)
    }

    /// One of a fixed set of strings.
    pub fn one_of(&mut self, c: &mut Checker, key: &str, allowed: &[&str]) -> Option<String> {
        self.describe(c, key, || json!({"type": "string", "enum": allowed}));
        let s = self.string(c, key)?;
        if allowed.contains(&s.as_str()) {
            Some(s)
        } else {
            c.enum_mismatch(&self.at(key), allowed, &s);
            None
        }
    }

    pub fn string_array(&mut self, c: &mut Checker, key: &str) -> Vec<String> {
        self.describe(c, key, || json!({"type": "array", "items": {"type": "string"}}));
        let Some(v) = self.raw(key) else { return Vec::new() };
        let path = self.at(key);
        let Value::Array(items) = v else {
            c.invalid_type(&path, "array", v);
            return Vec::new();
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(s) => out.push(s.clone()),
                other => {
                    let mut p = path.clone();
                    p.push(json!(i));
                    c.invalid_type(&p, "string", other);
                }
            }
        }
        out
    }

    /// A nested object.
    pub fn object(&mut self, c: &mut Checker, key: &str) -> Option<Fields<'v>> {
        let v = match self.raw(key) {
            Some(v) => v,
            None if c.is_describing() => &ABSENT,
            None => return None,
        };
        c.object(v, self.at(key))
    }

    /// A nested object whose keys are not checked (free-form options).
    pub fn any_object(&mut self, c: &mut Checker, key: &str) -> Option<&'v Map<String, Value>> {
        self.describe(c, key, || json!({"type": "object"}));
        match self.raw(key)? {
            Value::Object(m) => Some(m),
            other => {
                c.invalid_type(&self.at(key), "object", other);
                None
            }
        }
    }

    /// Rejects every key that was never asked for.
    pub fn finish(&self, c: &mut Checker) {
        self.finish_with_message(c, None)
    }

    /// Like [`Fields::finish`], with a custom message for unknown keys.
    pub fn finish_with_message(&self, c: &mut Checker, message: Option<&str>) {
        if c.is_describing() {
            c.describe(&self.path, json!({"additionalProperties": false}));
        }
        let unknown: Vec<&String> = self
            .map
            .keys()
            .filter(|k| !self.used.contains(k.as_str()))
            .collect();
        if unknown.is_empty() {
            return;
        }
        let default = format!(
            "Unrecognized key(s) in object: {}",
            unknown
                .iter()
                .map(|k| format!("'{k}'"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        c.issue(
            "unrecognized_keys",
            &self.path,
            message.map(str::to_string).unwrap_or(default),
            json!({ "keys": unknown }),
        );
    }
}

/// The schema one walk records: `walk` gets a describing checker and reads a
/// value (usually one variant of a tagged union, e.g. `{"type": "click"}`)
/// with the validators.
pub fn variant_schema(walk: impl FnOnce(&mut Checker)) -> Value {
    let mut c = Checker::describing();
    walk(&mut c);
    c.into_schema().unwrap_or(Value::Null)
}

/// The schema of one member of a union tagged by `tag` (`{"type": "click",
/// ...}`): `walk` reads the value `{tag: value}` with the validators; the tag
/// becomes a required constant.
pub fn tagged_variant(tag: &str, value: &str, walk: impl FnOnce(&mut Checker, &Value)) -> Value {
    let item = json!({ tag: value });
    let mut schema = variant_schema(|c| walk(c, &item));
    if let Value::Object(map) = &mut schema {
        map.insert("type".into(), json!("object"));
        if let Some(Value::Object(props)) = map.get_mut("properties") {
            props.insert(tag.into(), json!({"type": "string", "const": value}));
        } else {
            map.insert(
                "properties".into(),
                json!({ tag: {"type": "string", "const": value} }),
            );
        }
        let required = map.entry("required").or_insert_with(|| json!([]));
        if let Value::Array(list) = required
            && !list.contains(&json!(tag))
        {
            list.insert(0, json!(tag));
        }
    }
    schema
}

/// The schema node at `path` under `root`, created as needed: object keys go
/// through `properties`, array indices through `items`.
fn schema_node<'s>(root: &'s mut Value, path: &Path) -> &'s mut Value {
    let mut node = root;
    for segment in path {
        let (container, key) = match segment {
            Value::String(key) => ("properties", Some(key.as_str())),
            _ => ("items", None),
        };
        let Value::Object(map) = node else { return node };
        let slot = map.entry(container).or_insert_with(|| json!({}));
        if !slot.is_object() {
            *slot = json!({});
        }
        node = match (key, slot) {
            (Some(key), Value::Object(props)) => props.entry(key).or_insert_with(|| json!({})),
            (_, slot) => slot,
        };
    }
    node
}

/// Checks that `v` is an integer within bounds.
pub fn check_int(c: &mut Checker, path: &Path, v: &Value, min: Option<i64>, max: Option<i64>) -> Option<i64> {
    let n = match v {
        Value::Number(n) => match n.as_i64() {
            Some(i) => i,
            None if n.as_f64().is_some_and(|f| f.fract() == 0.0 && f.abs() < 9.0e15) => {
                n.as_f64().unwrap() as i64
            }
            None => {
                c.issue(
                    "invalid_type",
                    path,
                    "Expected integer, received float",
                    json!({"expected": "integer", "received": "float"}),
                );
                return None;
            }
        },
        other => {
            c.invalid_type(path, "number", other);
            return None;
        }
    };
    if let Some(min) = min.filter(|m| n < *m) {
        c.issue(
            "too_small",
            path,
            format!("Number must be greater than or equal to {min}"),
            json!({"minimum": min, "type": "number", "inclusive": true, "exact": false}),
        );
        return None;
    }
    if let Some(max) = max.filter(|m| n > *m) {
        c.issue(
            "too_big",
            path,
            format!("Number must be less than or equal to {max}"),
            json!({"maximum": max, "type": "number", "inclusive": true, "exact": false}),
        );
        return None;
    }
    Some(n)
}
