//! A response document's long strings JSON-escaped once. A fresh scrape writes its
//! document twice — the cache's copy ([`super::entry::result_to_bytes_escaped`]), then the
//! response — and the markdown (or any long top-level string: `html`, `rawHtml`, a summary)
//! is escaped for the first and copied as it is into the second. [`Escaped::write`] writes
//! the bytes `serde_json::to_writer` writes.

use serde_json::{Map, Value};

use super::json_string::{json_size_hint, write_json_object, write_json_string, write_json_value};

/// Top-level strings shorter than this are escaped where they are written: keeping them
/// would cost a buffer each for little.
const MIN_LEN: usize = 256;

/// The escaped JSON of a document's long top-level strings.
#[derive(Debug, Default)]
pub struct Escaped {
    fields: Vec<Field>,
}

#[derive(Debug)]
struct Field {
    name: String,
    /// Where the string's bytes were, and how many, when it was escaped: the escape stands
    /// for that string only, so a field given a new value since is escaped afresh. (Nothing
    /// edits the document's strings in place between the cache's copy and the response.)
    at: (usize, usize),
    json: Vec<u8>,
}

fn at(s: &str) -> (usize, usize) {
    (s.as_ptr() as usize, s.len())
}

impl Escaped {
    /// Escapes `doc`'s long top-level strings (none unless `doc` is an object).
    pub fn of(doc: &Value) -> Escaped {
        let Value::Object(fields) = doc else {
            return Escaped::default();
        };
        let fields = fields
            .iter()
            .filter_map(|(name, value)| match value {
                Value::String(s) if s.len() >= MIN_LEN => Some(Field {
                    name: name.clone(),
                    at: at(s),
                    json: {
                        let mut json = Vec::with_capacity(s.len() + s.len() / 16 + 2);
                        write_json_string(&mut json, s);
                        json
                    },
                }),
                _ => None,
            })
            .collect();
        Escaped { fields }
    }

    /// The escaped JSON of `value` as field `name`, if it is the string escaped.
    fn get(&self, name: &str, value: &Value) -> Option<&[u8]> {
        let Value::String(s) = value else {
            return None;
        };
        self.fields
            .iter()
            .find(|f| f.at == at(s) && f.name == name)
            .map(|f| f.json.as_slice())
    }

    /// Bytes of escaped JSON held (a lower bound of what [`Escaped::write`] writes).
    pub fn len(&self) -> usize {
        self.fields.iter().map(|f| f.json.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// Writes `doc` as `serde_json::to_writer` writes it, its escaped strings copied, and
    /// `meta` in place of its `metadata` when given (and `doc` is an object).
    pub fn write(&self, out: &mut Vec<u8>, doc: &Value, meta: Option<&Map<String, Value>>) {
        match meta {
            Some(meta) => self.write_with(out, doc, |out| {
                write_json_object(out, meta, |out, _, v| write_json_value(out, v))
            }),
            None => self.write_fields(out, doc, None::<fn(&mut Vec<u8>)>),
        }
    }

    /// [`Escaped::write`] with the `metadata` field's value written by `meta` (called
    /// once, if `doc` is an object with that field).
    pub fn write_with(&self, out: &mut Vec<u8>, doc: &Value, meta: impl FnOnce(&mut Vec<u8>)) {
        self.write_fields(out, doc, Some(meta))
    }

    fn write_fields(&self, out: &mut Vec<u8>, doc: &Value, meta: Option<impl FnOnce(&mut Vec<u8>)>) {
        let Value::Object(fields) = doc else {
            write_json_value(out, doc);
            return;
        };
        let mut meta = meta;
        write_json_object(out, fields, |out, name, value| {
            if name == "metadata"
                && let Some(meta) = meta.take()
            {
                return meta(out);
            }
            match self.get(name, value) {
                Some(json) => out.extend_from_slice(json),
                None => write_json_value(out, value),
            }
        });
    }

    /// Room for `doc` written by [`Escaped::write`]: its escaped strings' length, a
    /// generous guess for the rest ([`json_size_hint`]).
    pub fn size_hint(&self, doc: &Value) -> usize {
        let Value::Object(fields) = doc else {
            return json_size_hint(doc);
        };
        let values: usize = fields
            .iter()
            .map(|(name, value)| {
                name.len()
                    + 4
                    + self
                        .get(name, value)
                        .map_or_else(|| json_size_hint(value), <[u8]>::len)
            })
            .sum();
        values + 2
    }
}

#[cfg(test)]
#[path = "escaped_tests.rs"]
mod tests;
