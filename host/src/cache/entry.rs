//! What the two kinds of entry hold (see [`super::key`]): a fetched
//! [`PageEntry`] (raw bytes plus what the fetch learned) in a small binary
//! framing, and a result document (the response `data` JSON) with the
//! per-request metadata stripped before storing and filled in on a hit.

use super::escaped::Escaped;
use super::json_string::{write_json_fields, write_json_value};
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
    /// The body gzipped as the origin sent it, when it did
    /// (the fetched page's `wire_gzip`): the cache may store these
    /// bytes instead of compressing the body ([`super::codec::gzip_tail`]).
    /// Never part of [`PageEntry::head`]; a page read back has `None`.
    #[serde(skip)]
    pub wire_gzip: Option<bytes::Bytes>,
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
        PageEntry::from_vec(bytes.to_vec())
    }

    /// [`PageEntry::from_bytes`] of an entry read into its own buffer: the
    /// body is left in it, not copied out.
    pub fn from_vec(bytes: Vec<u8>) -> Result<PageEntry, StoreError> {
        let bad = |why: &str| StoreError::Corrupt(format!("page entry: {why}"));
        if bytes.len() < 8 || &bytes[..4] != PAGE_MAGIC {
            return Err(bad("no header"));
        }
        let len = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) as usize;
        let meta = bytes.get(8..8 + len).ok_or_else(|| bad("truncated"))?;
        let mut page: PageEntry = serde_json::from_slice(meta).map_err(|e| bad(&e.to_string()))?;
        page.body = bytes::Bytes::from(bytes).slice(8 + len..);
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
    result_to_bytes_escaped(doc, &Escaped::default())
}

/// [`result_to_bytes`] with `doc`'s long strings already escaped (`escaped`,
/// made of `doc`): the same bytes, copied instead of escaped again.
pub fn result_to_bytes_escaped(doc: &Value, escaped: &Escaped) -> Vec<u8> {
    let facts = DocFacts::of(doc);
    match doc.get("metadata").and_then(Value::as_object) {
        Some(meta) if !has_splice_key(doc) => written_in_place(doc, meta, escaped, &facts),
        _ => edited_copy(doc, escaped, &facts),
    }
}

/// The stored form of a document whose `metadata` is an object, written
/// from `doc` as it is: the metadata without the per-request fields, in the
/// order [`edited_copy`]'s removals leave (serde_json's `remove` is a
/// `swap_remove`), the splice point where its marker would have been (last,
/// before the closing brace). No copy of the metadata, no marker to find.
fn written_in_place(doc: &Value, meta: &Map<String, Value>, escaped: &Escaped, facts: &DocFacts) -> Vec<u8> {
    let mut fields: Vec<(&String, &Value)> = meta.iter().collect();
    for k in PER_REQUEST_METADATA {
        if let Some(at) = fields.iter().position(|(name, _)| name.as_str() == *k) {
            fields.swap_remove(at);
        }
    }
    let mut out = Vec::with_capacity(HEADER_V2 + escaped.size_hint(doc));
    out.resize(HEADER_V2, 0);
    let mut splice = NO_SPLICE;
    escaped.write_with(&mut out, doc, |out| {
        write_json_fields(out, fields.iter().copied(), |out, _, value| {
            write_json_value(out, value)
        });
        splice = u32::try_from(out.len() - HEADER_V2).unwrap_or(NO_SPLICE);
        out.push(b'}');
    });
    if splice == NO_SPLICE {
        // A document over 4 GiB: the marker's offset would not fit either.
        return edited_copy(doc, escaped, facts);
    }
    header(&mut out, splice, !fields.is_empty(), facts);
    out.shrink_to_fit();
    out
}

/// Whether an object key anywhere in `doc` ends with [`SPLICE_KEY`]: only
/// such a key (followed by a value written from `0`) can make
/// [`SPLICE_JSON`] appear in the serialised document besides the marker
/// itself (inside a string a quote is escaped), so without one the marker
/// is found exactly once and [`written_in_place`] stores what
/// [`edited_copy`] does.
fn has_splice_key(doc: &Value) -> bool {
    match doc {
        Value::Object(fields) => fields
            .iter()
            .any(|(name, value)| name.ends_with(SPLICE_KEY) || has_splice_key(value)),
        Value::Array(items) => items.iter().any(has_splice_key),
        _ => false,
    }
}

/// [`result_to_bytes_escaped`] by editing a copy of the metadata: the per-request
/// fields removed, a marker put where they go back, the marker found in the
/// serialised document and cut out ([`framed`]). For documents without an
/// object `metadata` or with a key that could imitate the marker.
fn edited_copy(doc: &Value, escaped: &Escaped, facts: &DocFacts) -> Vec<u8> {
    // Only the metadata changes for storing: it alone is copied, the rest
    // (markdown, html, ...) is written from `doc` itself.
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
    let mut out = Vec::with_capacity(HEADER_V2 + escaped.size_hint(doc));
    out.resize(HEADER_V2, 0);
    escaped.write(&mut out, doc, meta.as_ref());
    framed(out, has_meta, facts, |out| {
        if let Some(meta) = meta.as_mut() {
            meta.remove(SPLICE_KEY);
        }
        escaped.write(out, doc, meta.as_ref());
    })
}

/// Fills in a `DRS2` header: the splice offset, whether a comma goes before
/// the spliced fields, the facts.
fn header(out: &mut [u8], splice: u32, comma: bool, facts: &DocFacts) {
    out[..4].copy_from_slice(RESULT_MAGIC);
    out[4..8].copy_from_slice(&splice.to_le_bytes());
    out[8] = u8::from(comma);
    out[9..13].copy_from_slice(&facts.pages.to_le_bytes());
    out[13] = 0; // flags, none defined yet
}

/// The stored form of a document: `out` holds [`HEADER_V2`] bytes of room,
/// then the document serialised with the splice marker in its metadata
/// (`has_meta`). The header is filled in and the marker cut out, in place.
/// Where the marker is not found exactly once, `whole` writes the document
/// again, without it, after the header, and no splice point is recorded.
fn framed(mut out: Vec<u8>, has_meta: bool, facts: &DocFacts, whole: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let marker = SPLICE_JSON.as_bytes();
    let json = &out[HEADER_V2..];
    let found = memchr::memmem::find(json, marker)
        .filter(|&at| has_meta && memchr::memmem::rfind(json, marker) == Some(at));
    let (splice, comma) = match found {
        Some(at) => {
            let comma = json[at - 1] == b',';
            let splice = if comma { at - 1 } else { at };
            out.drain(HEADER_V2 + splice..HEADER_V2 + at + marker.len());
            (splice as u32, comma)
        }
        None => {
            out.truncate(HEADER_V2);
            whole(&mut out);
            (NO_SPLICE, false)
        }
    };
    header(&mut out, splice, comma, facts);
    out
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
            wire_gzip: None,
        };
        let bytes = page.to_bytes();
        assert_eq!(PageEntry::from_bytes(&bytes).unwrap(), page);
        assert_eq!(PageEntry::from_vec(bytes.clone()).unwrap(), page);
        assert!(PageEntry::from_vec(bytes[..7].to_vec()).is_err());
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

    /// [`result_to_bytes`] as it was before it wrote the document itself: the document copied
    /// whole, its metadata edited in the copy, the copy serialised (the
    /// framing is the shared [`framed`]).
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
        let mut out = vec![0; HEADER_V2];
        serde_json::to_writer(&mut out, &doc).expect("JSON values serialise");
        framed(out, has_meta, &facts, |out| {
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
            // Every per-request key, in an order that swaps the kept ones about.
            json!({"metadata": {"creditsUsed": 1, "a": 1, "scrapeId": "s", "b": [1, {"c": null}],
                "cacheState": "miss", "concurrencyLimited": false, "d": "x", "sourceURL": "u",
                "concurrencyQueueDurationMs": 3, "cachedAt": "t"}, "markdown": "m"}),
            json!({"metadata": {"scrapeId": "only per-request"}}),
        ];
        for doc in &docs {
            assert_eq!(result_to_bytes(doc), result_to_bytes_copied(doc), "{doc}");
        }
        // A key that imitates the marker (anywhere, with a value written from `0`)
        // leaves the document without a splice point, as before.
        let imitating = [
            json!({"metadata": {"title": "T"}, "json": {"\u{0}distill:splice": 0}}),
            json!({"metadata": {"title": "T", "x\"\u{0}distill:splice": 0.5}}),
            json!({"metadata": {"\u{0}distill:splice": 7, "scrapeId": "1"}}),
            json!({"metadata": {"title": "T"}, "list": [{"k": [{"\u{0}distill:splice": 1}]}]}),
        ];
        for doc in &imitating {
            assert!(has_splice_key(doc), "{doc}");
            assert_eq!(result_to_bytes(doc), result_to_bytes_copied(doc), "{doc}");
        }
        let stored = result_from_bytes(&result_to_bytes(&imitating[0])).unwrap();
        assert!(!stored.has_splice());
        assert!(!has_splice_key(&docs[0]) && !has_splice_key(&docs[2]));
    }

    #[test]
    fn strings_escaped_beforehand_store_the_same_bytes() {
        // Long strings (escaped beforehand) with quotes, controls, non-ASCII and a
        // marker look-alike, first, between and after the metadata; short ones beside.
        let long = |s: &str| s.repeat(400 / s.len() + 1);
        let tricky = long("\u{0}distill:splice\":0 ");
        let docs = [
            json!({"markdown": long("# A \"b\"\n\u{1}\u{7f} é — 😀 \\ "), "html": "<p>short</p>",
                "metadata": {"scrapeId": "1", "title": "T", "statusCode": 200}, "summary": long("s ")}),
            json!({"metadata": {"title": "T", "cachedAt": "x"}, "rawHtml": long("<p>&amp;</p>\r\n\t")}),
            json!({"markdown": tricky, "metadata": {"title": "t"}}),
            json!({"markdown": long("no metadata ")}),
            json!({"metadata": "not an object", "html": long("<b>x</b>")}),
            json!(long("a string document ")),
        ];
        for doc in &docs {
            let escaped = Escaped::of(doc);
            assert_eq!(
                result_to_bytes_escaped(doc, &escaped),
                result_to_bytes_copied(doc),
                "{doc}"
            );
        }
        assert!(!Escaped::of(&docs[0]).is_empty());
    }
}
