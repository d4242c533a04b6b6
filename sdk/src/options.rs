//! [`Options`]: typed, checked access to a plugin's options (a format's
//! request options, or a converter's settings), with errors that become the
//! right HTTP 400 for the user.

use crate::PluginError;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A read-only view of an options object.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    value: &'a Value,
}

impl<'a> Options<'a> {
    /// Views `value` (the `options` a plugin method receives).
    pub fn new(value: &'a Value) -> Self {
        Options { value }
    }

    /// The whole object as your own type (serde); a mismatch is an
    /// invalid-options error naming the problem.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, PluginError> {
        serde_json::from_value(self.value.clone())
            .map_err(|e| PluginError::invalid_options(format!("invalid options: {e}")))
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.value.get(key).filter(|v| !v.is_null())
    }

    /// A boolean option, `default` when absent.
    pub fn flag(&self, key: &str, default: bool) -> Result<bool, PluginError> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(PluginError::invalid_options(format!(
                "'{key}' must be true or false, not {other}"
            ))),
        }
    }

    /// An integer option within `min..=max`, `None` when absent.
    pub fn integer(&self, key: &str, min: i64, max: i64) -> Result<Option<i64>, PluginError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => match v.as_i64() {
                Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
                _ => Err(PluginError::invalid_options(format!(
                    "'{key}' must be an integer from {min} to {max}, not {v}"
                ))),
            },
        }
    }

    /// A number option, `None` when absent.
    pub fn number(&self, key: &str) -> Result<Option<f64>, PluginError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_f64()
                .map(Some)
                .ok_or_else(|| PluginError::invalid_options(format!("'{key}' must be a number, not {v}"))),
        }
    }

    /// A text option; when `choices` is not empty it must be one of them.
    pub fn text(&self, key: &str, choices: &[&str]) -> Result<Option<&'a str>, PluginError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) if choices.is_empty() || choices.contains(&s.as_str()) => Ok(Some(s)),
            Some(v) if choices.is_empty() => Err(PluginError::invalid_options(format!(
                "'{key}' must be text, not {v}"
            ))),
            Some(v) => Err(PluginError::invalid_options(format!(
                "'{key}' must be one of {}, not {v}",
                choices.join(", ")
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn typed_getters_check_types_and_bounds() {
        let v = json!({"n": 5, "big": 50000, "mode": "fast", "flag": true, "x": 1.5, "bad": "yes"});
        let o = Options::new(&v);
        assert_eq!(o.integer("n", 1, 10).unwrap(), Some(5));
        assert_eq!(o.integer("missing", 1, 10).unwrap(), None);
        assert!(
            matches!(o.integer("big", 1, 10), Err(PluginError::InvalidOptions(m)) if m.contains("from 1 to 10"))
        );
        assert_eq!(o.text("mode", &["fast", "auto"]).unwrap(), Some("fast"));
        assert!(o.text("mode", &["auto"]).is_err());
        assert!(o.flag("flag", false).unwrap());
        assert!(o.flag("bad", false).is_err());
        assert_eq!(o.number("x").unwrap(), Some(1.5));
    }

    #[test]
    fn parse_into_a_struct() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        struct Opts {
            n: u32,
        }
        assert_eq!(Options::new(&json!({"n": 3})).parse::<Opts>().unwrap().n, 3);
        let err = Options::new(&json!({"n": 3, "m": 1}))
            .parse::<Opts>()
            .unwrap_err();
        assert!(matches!(err, PluginError::InvalidOptions(m) if m.contains("unknown field")));
    }
}
