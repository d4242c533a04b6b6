//! What the two kinds of entry hold (see [`super::key`]): a fetched
//! [`PageEntry`] (raw bytes plus what the fetch learned) in a small binary
//! framing, and a result document (the response `data` JSON) with the
//! per-request metadata stripped before storing and filled in on a hit.

use super::store::StoreError;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

const PAGE_MAGIC: &[u8; 4] = b"DPG1";

/// A fetched page as the pipeline got it from a fetch engine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageEntry {
    /// URL after redirects (`metadata.url`).
    pub final_url: String,
    /// HTTP status of the final response (`metadata.statusCode`).
    pub status_code: u16,
    /// `Content-Type` of the final response (`metadata.contentType`).
    pub content_type: Option<String>,
    /// Response headers the pipeline needs again (e.g. for charset decoding);
    /// names lower-case.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// What the fetch engine added to the response (the browser's
    /// `screenshot` URL): served again with the page. An entry holding a
    /// media URL expires with the media file ([`super::page_cache::MEDIA_ENTRY_TTL`]).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub engine_data: Map<String, Value>,
    /// The body, undecoded (shared with the fetched page, not copied).
    #[serde(skip)]
    pub body: bytes::Bytes,
}

impl PageEntry {
    /// `DPG1`, u32 LE length of the JSON fields, the JSON, then the body.
    pub fn to_bytes(&self) -> Vec<u8> {
        [self.head().as_slice(), &self.body].concat()
    }

    /// The framing before the body (`DPG1`, length, JSON): stored followed
    /// by [`PageEntry::body`] without joining the two into another page-sized copy.
    pub fn head(&self) -> Vec<u8> {
        let meta = serde_json::to_vec(self).expect("page entry serialises");
        let mut out = Vec::with_capacity(8 + meta.len());
        out.extend_from_slice(PAGE_MAGIC);
        out.extend_from_slice(&(meta.len() as u32).to_le_bytes());
        out.extend_from_slice(&meta);
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<PageEntry, StoreError> {
        let bad = |why: &str| StoreError::Corrupt(format!("page entry: {why}"));
        if bytes.len() < 8 || &bytes[..4] != PAGE_MAGIC {
            return Err(bad("no header"));
        }
        let len = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) as usize;
        let meta = bytes.get(8..8 + len).ok_or_else(|| bad("truncated"))?;
        let mut page: PageEntry = serde_json::from_slice(meta).map_err(|e| bad(&e.to_string()))?;
        page.body = bytes::Bytes::copy_from_slice(&bytes[8 + len..]);
        Ok(page)
    }
}

/// `metadata` fields that belong to one request, not to the page: never
/// stored, set again when a stored document is served.
pub const PER_REQUEST_METADATA: &[&str] = &[
    "scrapeId",
    "sourceURL",
    "cacheState",
    "cachedAt",
    "creditsUsed",
    "concurrencyLimited",
    "concurrencyQueueDurationMs",
];

/// Marks, while a document is serialised for storing, where the per-request
/// metadata goes back on a hit (a key no page can produce: it starts with NUL).
const SPLICE_KEY: &str = "\u{0}distill:splice";
/// How [`SPLICE_KEY`] with its value `0` appears in the serialised JSON.
const SPLICE_JSON: &str = "\"\\u0000distill:splice\":0";
/// The first stored-document layout (no [`DocFacts`]); still read.
const RESULT_MAGIC_V1: &[u8; 4] = b"DRS1";
const RESULT_MAGIC: &[u8; 4] = b"DRS2";
/// Header bytes of a `DRS2` entry: magic, splice offset, comma, facts.
const HEADER_V2: usize = 14;
/// No splice point (the document has no `metadata` object).
const NO_SPLICE: u32 = u32::MAX;

/// What a document served from the cache costs depends on these facts of
/// the page (the billing rules, pipeline/cost.rs); they are stored beside the
/// document so a hit is billed without parsing the stored JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocFacts {
    /// Pages billed: a PDF's `numPages` (at least 1), else 1.
    pub pages: u32,
}

impl DocFacts {
    /// The facts of a response document.
    pub fn of(doc: &Value) -> DocFacts {
        let metadata = &doc["metadata"];
        let is_pdf = metadata["contentType"]
            .as_str()
            .is_some_and(|t| t.to_ascii_lowercase().contains("pdf"));
        let pages = metadata["numPages"]
            .as_u64()
            .filter(|_| is_pdf)
            .map_or(1, |n| n.clamp(1, u64::from(u32::MAX)) as u32);
        DocFacts { pages }
    }
}

/// A response document ready to store: `DRS2`, the splice offset (u32 LE),
/// whether a comma goes before the spliced fields (u8), the [`DocFacts`]
/// (pages u32 LE, a flags byte, 0 so far), then the JSON with the per-request metadata
/// removed. A hit writes the stored JSON with this request's fields spliced
/// in, without parsing it.
pub fn result_to_bytes(doc: &Value) -> Vec<u8> {
    let facts = DocFacts::of(doc);
    // Only the metadata changes for storing: it alone is copied, the rest
    // (markdown, html, ...) is written from `doc` itself ([`Stored`]).
    let mut meta = doc.get("metadata").and_then(Value::as_object).cloned();
    let has_meta = match meta.as_mut() {
        Some(meta) => {
            for k in PER_REQUEST_METADATA {
                meta.remove(*k);
            }
            meta.insert(SPLICE_KEY.into(), Value::from(0));
            true
        }
        None => false,
    };
    // The JSON is written straight after a header left blank, then the
    // marker cut out in place: no second buffer, no copy of the document.
    let mut out = Vec::with_capacity(HEADER_V2 + crate::pipeline::response::json_size_hint(doc));
    out.extend_from_slice(RESULT_MAGIC);
    out.resize(HEADER_V2, 0);
    serde_json::to_writer(
        &mut out,
        &Stored {
            doc,
            meta: meta.as_ref(),
        },
    )
    .expect("JSON values serialise");
    let json = &out[HEADER_V2..];
    let found = memchr::memmem::find(json, SPLICE_JSON.as_bytes())
        .filter(|&at| has_meta && memchr::memmem::rfind(json, SPLICE_JSON.as_bytes()) == Some(at));
    let (splice, comma) = match found {
        Some(at) => {
            let comma = json[at - 1] == b',';
            let splice = if comma { at - 1 } else { at };
            out.drain(HEADER_V2 + splice..HEADER_V2 + at + SPLICE_JSON.len());
            (splice as u32, comma)
        }
        None => {
            // The marker is not there exactly once: the document again
            // without it, and no splice point.
            out.truncate(HEADER_V2);
            if let Some(meta) = meta.as_mut() {
                meta.remove(SPLICE_KEY);
            }
            serde_json::to_writer(
                &mut out,
                &Stored {
                    doc,
                    meta: meta.as_ref(),
                },
            )
            .expect("JSON values serialise");
            (NO_SPLICE, false)
        }
    };
    out[4..8].copy_from_slice(&splice.to_le_bytes());
    out[8] = u8::from(comma);
    out[9..13].copy_from_slice(&facts.pages.to_le_bytes());
    out[13] = 0; // flags, none defined yet
    out
}

/// A document as stored: `doc` with its `metadata` replaced by `meta` (when
/// given), written as `doc` itself would be (the same map, the same order).
struct Stored<'a> {
    doc: &'a Value,
    meta: Option<&'a Map<String, Value>>,
}

impl Serialize for Stored<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match (self.doc, self.meta) {
            (Value::Object(fields), Some(meta)) => {
                let mut map = s.serialize_map(Some(fields.len()))?;
                for (k, v) in fields {
                    if k == "metadata" {
                        map.serialize_entry(k, meta)?;
                    } else {
                        map.serialize_entry(k, v)?;
                    }
                }
                map.end()
            }
            (doc, _) => doc.serialize(s),
        }
    }
}

/// A stored response document (see [`result_to_bytes`]).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredResult {
    json: Vec<u8>,
    /// Where the per-request metadata goes, if the document has `metadata`.
    splice: Option<usize>,
    comma: bool,
    /// `None` for a document stored before facts were kept (`DRS1`).
    facts: Option<DocFacts>,
}

impl StoredResult {
    /// The stored document as JSON (tests, and the slow path).
    pub fn to_value(&self) -> Result<Value, StoreError> {
        serde_json::from_slice(&self.json).map_err(|e| StoreError::Corrupt(format!("result entry: {e}")))
    }

    /// Whether this request's fields are spliced in without parsing.
    pub fn has_splice(&self) -> bool {
        self.splice.is_some()
    }

    /// The billing facts stored with the document, if any.
    pub fn facts(&self) -> Option<DocFacts> {
        self.facts
    }

    /// The response's `data` bytes with `fields` (already-serialised JSON
    /// values, by name) added at the end of `metadata`.
    pub fn complete(&self, fields: &[(&str, &str)]) -> Result<Vec<u8>, StoreError> {
        let Some(at) = self.splice else {
            let mut doc = self.to_value()?;
            if let Some(meta) = doc.get_mut("metadata").and_then(Value::as_object_mut) {
                for (name, json) in fields {
                    let v = serde_json::from_str(json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
                    meta.insert((*name).to_string(), v);
                }
            }
            return Ok(serde_json::to_vec(&doc).expect("JSON values serialise"));
        };
        let extra: usize = fields.iter().map(|(n, j)| n.len() + j.len() + 4).sum();
        let mut out = Vec::with_capacity(self.json.len() + extra);
        out.extend_from_slice(&self.json[..at]);
        for (i, (name, json)) in fields.iter().enumerate() {
            if i > 0 || self.comma {
                out.push(b',');
            }
            out.push(b'"');
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(b"\":");
            out.extend_from_slice(json.as_bytes());
        }
        out.extend_from_slice(&self.json[at..]);
        Ok(out)
    }
}

/// Reads a stored document (see [`result_to_bytes`]).
pub fn result_from_bytes(bytes: &[u8]) -> Result<StoredResult, StoreError> {
    let bad = |why: &str| StoreError::Corrupt(format!("result entry: {why}"));
    let (header, facts) = match bytes.get(..4) {
        Some(m) if m == RESULT_MAGIC && bytes.len() >= HEADER_V2 => {
            let pages = u32::from_le_bytes(bytes[9..13].try_into().expect("4 bytes"));
            (HEADER_V2, Some(DocFacts { pages }))
        }
        Some(m) if m == RESULT_MAGIC_V1 && bytes.len() >= 9 => (9, None),
        _ => return Err(bad("no header")),
    };
    let splice = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes"));
    let json = bytes[header..].to_vec();
    let splice = (splice != NO_SPLICE).then_some(splice as usize);
    if splice.is_some_and(|at| at > json.len()) {
        return Err(bad("splice point past the end"));
    }
    Ok(StoredResult {
        json,
        splice,
        comma: bytes[8] == 1,
        facts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn page_round_trip_keeps_binary_body() {
        let page = PageEntry {
            final_url: "https://example.com/b".into(),
            status_code: 404,
            content_type: Some("text/html; charset=shift_jis".into()),
            headers: vec![("content-language".into(), "ja".into())],
            engine_data: serde_json::json!({"screenshot": "http://h/media/a.png"})
                .as_object()
                .cloned()
                .unwrap(),
            body: bytes::Bytes::from_static(&[0, 159, 146, 150, 255, b'<']),
        };
        let bytes = page.to_bytes();
        assert_eq!(PageEntry::from_bytes(&bytes).unwrap(), page);
        assert!(PageEntry::from_bytes(&bytes[..6]).is_err());
        assert!(PageEntry::from_bytes(b"XXXX\0\0\0\0").is_err());
        let mut cut = bytes.clone();
        cut[4] = 200;
        assert!(PageEntry::from_bytes(&cut).is_err());
    }

    #[test]
    fn per_request_metadata_is_not_stored() {
        let doc = json!({"markdown": "# Hi", "metadata": {
            "title": "Hi", "scrapeId": "019a", "sourceURL": "example.com", "url": "https://example.com/",
            "statusCode": 200, "cacheState": "miss", "creditsUsed": 1}});
        let back = result_from_bytes(&result_to_bytes(&doc)).unwrap();
        assert_eq!(
            back.to_value().unwrap(),
            json!({"markdown": "# Hi", "metadata": {"title": "Hi", "url": "https://example.com/", "statusCode": 200}})
        );
    }

    #[test]
    fn a_hit_splices_this_requests_fields_into_metadata() {
        // Content that looks like the marker must not confuse the splice.
        let tricky = "\u{0}distill:splice\":0 and \\u0000distill:splice";
        let doc =
            json!({"markdown": tricky, "metadata": {"title": "T", "cacheState": "miss"}, "warning": "w"});
        let stored = result_from_bytes(&result_to_bytes(&doc)).unwrap();
        assert!(stored.splice.is_some());
        let out = stored
            .complete(&[("scrapeId", "\"id-1\""), ("cacheState", "\"hit\"")])
            .unwrap();
        let back: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            back,
            json!({"markdown": tricky, "metadata": {"title": "T", "scrapeId": "id-1", "cacheState": "hit"}, "warning": "w"})
        );
        // Empty metadata: no leading comma.
        let empty = json!({"html": "<p>x</p>", "metadata": {"scrapeId": "old"}});
        let stored = result_from_bytes(&result_to_bytes(&empty)).unwrap();
        let out = stored.complete(&[("scrapeId", "\"new\"")]).unwrap();
        assert_eq!(
            serde_json::from_slice::<Value>(&out).unwrap(),
            json!({"html": "<p>x</p>", "metadata": {"scrapeId": "new"}})
        );
        // No metadata: stored whole, served as it was.
        let bare = json!({"html": "x"});
        let stored = result_from_bytes(&result_to_bytes(&bare)).unwrap();
        assert_eq!(stored.splice, None);
        assert_eq!(
            serde_json::from_slice::<Value>(&stored.complete(&[("a", "1")]).unwrap()).unwrap(),
            bare
        );
        assert!(result_from_bytes(b"{\"old\": 1}").is_err());
    }

    #[test]
    fn billing_facts_are_stored_with_the_document() {
        let pdf = json!({"markdown": "x", "metadata": {"contentType": "application/pdf", "numPages": 7}});
        let stored = result_from_bytes(&result_to_bytes(&pdf)).unwrap();
        assert_eq!(stored.facts(), Some(DocFacts { pages: 7 }));
        // numPages counts only for a PDF.
        let html = json!({"markdown": "x", "metadata": {"contentType": "text/html", "numPages": 7}});
        let stored = result_from_bytes(&result_to_bytes(&html)).unwrap();
        assert_eq!(stored.facts(), Some(DocFacts { pages: 1 }));
        // A `DRS1` entry (stored before the facts) still reads, without facts.
        let mut v1 = b"DRS1".to_vec();
        v1.extend_from_slice(&u32::MAX.to_le_bytes());
        v1.push(0);
        v1.extend_from_slice(br#"{"html":"x"}"#);
        let old = result_from_bytes(&v1).unwrap();
        assert_eq!(old.facts(), None);
        assert_eq!(old.to_value().unwrap(), json!({"html": "x"}));
    }

    /// The stored form of a document serialised as `json` with the splice marker
    /// in its metadata (`has_meta`): the header, then the JSON with the marker cut
    /// out. Where the marker is not found exactly once, `whole` writes the
    /// document again without it and no splice point is recorded.
    fn framed(json: &str, has_meta: bool, facts: &DocFacts, whole: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
        let found = json
            .find(SPLICE_JSON)
            .filter(|&at| has_meta && json.rfind(SPLICE_JSON) == Some(at));
        let mut out = Vec::with_capacity(json.len() + HEADER_V2);
        out.extend_from_slice(RESULT_MAGIC);
        let facts_bytes = |out: &mut Vec<u8>| {
            out.extend_from_slice(&facts.pages.to_le_bytes());
            out.push(0); // flags, none defined yet
        };
        match found {
            Some(at) => {
                let comma = json.as_bytes()[at - 1] == b',';
                let splice = if comma { at - 1 } else { at };
                out.extend_from_slice(&(splice as u32).to_le_bytes());
                out.push(u8::from(comma));
                facts_bytes(&mut out);
                out.extend_from_slice(&json.as_bytes()[..splice]);
                out.extend_from_slice(&json.as_bytes()[at + SPLICE_JSON.len()..]);
            }
            None => {
                out.extend_from_slice(&NO_SPLICE.to_le_bytes());
                out.push(0);
                facts_bytes(&mut out);
                whole(&mut out);
            }
        }
        out
    }

    /// [`result_to_bytes`] as it was before [`Stored`]: the document copied
    /// whole, its metadata edited in the copy, the copy serialised (the
    /// framing as it was, [`framed`]).
    fn result_to_bytes_copied(doc: &Value) -> Vec<u8> {
        let facts = DocFacts::of(doc);
        let mut doc = doc.clone();
        let has_meta = match doc.get_mut("metadata").and_then(Value::as_object_mut) {
            Some(meta) => {
                for k in PER_REQUEST_METADATA {
                    meta.remove(*k);
                }
                meta.insert(SPLICE_KEY.into(), Value::from(0));
                true
            }
            None => false,
        };
        let json = serde_json::to_string(&doc).expect("JSON values serialise");
        framed(&json, has_meta, &facts, |out| {
            if let Some(meta) = doc.get_mut("metadata").and_then(Value::as_object_mut) {
                meta.remove(SPLICE_KEY);
            }
            serde_json::to_writer(out, &doc).expect("JSON values serialise");
        })
    }

    #[test]
    fn the_stored_bytes_are_the_edited_copys() {
        // Per-request keys first, middle and last (removal reorders the map),
        // metadata first or last among the fields, a marker look-alike (no
        // splice point), no metadata, not an object.
        let tricky = "\u{0}distill:splice\":0";
        let docs = [
            json!({"markdown": "# A \"b\"\n\u{1}", "metadata": {"scrapeId": "1", "title": "T",
                "sourceURL": "s", "url": "u", "statusCode": 200, "creditsUsed": 1}, "warning": "w"}),
            json!({"metadata": {"title": "T", "cachedAt": "x", "language": "en"}, "links": ["a", "b"]}),
            json!({"markdown": tricky, "metadata": {"title": tricky, "scrapeId": "2"}}),
            json!({"metadata": {}}),
            json!({"metadata": "not an object", "html": "<p>x</p>"}),
            json!({"markdown": "no metadata"}),
            json!(["an", "array"]),
        ];
        for doc in &docs {
            assert_eq!(result_to_bytes(doc), result_to_bytes_copied(doc), "{doc}");
        }
    }
}
