//! A small schema walker for JSON request bodies. It collects every problem as a
//! zod-style issue (`{code, path, message, ...}`), the shape upstream Firecrawl
//! returns in `details`, and tracks which keys were read so unknown keys can be
//! rejected (bodies are strict).

use serde_json::{Map, Value, json};
use std::collections::HashSet;

/// Issues found so far.
#[derive(Default, Debug)]
pub struct Checker {
    pub issues: Vec<Value>,
}

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

    /// Expects an object at `path`; records an issue otherwise.
    pub fn object<'v>(&mut self, value: &'v Value, path: Path) -> Option<Fields<'v>> {
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

    pub fn bool(&mut self, c: &mut Checker, key: &str, default: bool) -> bool {
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
        let v = self.raw(key)?;
        let path = self.at(key);
        check_int(c, &path, v, min, max)
    }

    pub fn number(&mut self, c: &mut Checker, key: &str) -> Option<f64> {
        match self.raw(key)? {
            Value::Number(n) => n.as_f64(),
            other => {
                c.invalid_type(&self.at(key), "number", other);
                None
            }
        }
    }

    pub fn string(&mut self, c: &mut Checker, key: &str) -> Option<String> {
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
        let s = self.string(c, key)?;
        if allowed.contains(&s.as_str()) {
            Some(s)
        } else {
            c.enum_mismatch(&self.at(key), allowed, &s);
            None
        }
    }

    pub fn string_array(&mut self, c: &mut Checker, key: &str) -> Vec<String> {
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
        let v = self.raw(key)?;
        c.object(v, self.at(key))
    }

    /// A nested object whose keys are not checked (free-form options).
    pub fn any_object(&mut self, c: &mut Checker, key: &str) -> Option<&'v Map<String, Value>> {
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
