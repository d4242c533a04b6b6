//! What the two kinds of entry hold (see [`super::key`]): a fetched
//! [`PageEntry`] (raw bytes plus what the fetch learned) in a small binary
//! framing, and a result document (the response `data` JSON) with the
//! per-request metadata stripped before storing and filled in on a hit.

use super::store::StoreError;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    /// The body, undecoded.
    #[serde(skip)]
    pub body: Vec<u8>,
}

impl PageEntry {
    /// `DPG1`, u32 LE length of the JSON fields, the JSON, then the body.
    pub fn to_bytes(&self) -> Vec<u8> {
        let meta = serde_json::to_vec(self).expect("page entry serialises");
        let mut out = Vec::with_capacity(8 + meta.len() + self.body.len());
        out.extend_from_slice(PAGE_MAGIC);
        out.extend_from_slice(&(meta.len() as u32).to_le_bytes());
        out.extend_from_slice(&meta);
        out.extend_from_slice(&self.body);
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
        page.body = bytes[8 + len..].to_vec();
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

/// A response document ready to store.
pub fn result_to_bytes(doc: &Value) -> Vec<u8> {
    let mut doc = doc.clone();
    if let Some(meta) = doc.get_mut("metadata").and_then(Value::as_object_mut) {
        for k in PER_REQUEST_METADATA {
            meta.remove(*k);
        }
    }
    serde_json::to_vec(&doc).expect("JSON values serialise")
}

/// A stored document, for the pipeline to complete with this request's
/// `scrapeId`, `sourceURL` and [`super::policy::annotate`].
pub fn result_from_bytes(bytes: &[u8]) -> Result<Value, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt(format!("result entry: {e}")))
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
            body: vec![0, 159, 146, 150, 255, b'<'],
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
            back,
            json!({"markdown": "# Hi", "metadata": {"title": "Hi", "url": "https://example.com/", "statusCode": 200}})
        );
    }
}
