//! `redactPII` across the response (docs/FORMATS.md): which outputs are
//! redacted and how. Plugin values are redacted as they are rendered, so a
//! format consuming another (a model reading the markdown) never sees what
//! was masked; `html` and `rawHtml` keep their markup ([`distill_redact::redact_html`]);
//! `links`, `images` and plugin values have every string redacted (a URL's
//! host is kept); `metadata` too, except the fields describing the request.

use crate::api::ScrapeOptions;
use distill_redact::{RedactOptions, redact_html, redact_json};
use serde_json::{Map, Value};

/// Metadata fields the server fills about the request: never redacted.
const REQUEST_METADATA: &[&str] = &["sourceURL", "url", "scrapeId", "contentType", "statusCode"];

/// The request's `redactPII`, when on (validated when the request was parsed).
pub fn options(opts: &ScrapeOptions) -> Option<RedactOptions> {
    opts.redact_pii
        .as_ref()
        .and_then(|v| RedactOptions::from_json(v).ok().flatten())
}

/// A JSON value (a plugin's, `links`, `images`, a consumed input) redacted.
pub fn value(mut v: Value, redact: Option<&RedactOptions>) -> Value {
    if let Some(r) = redact {
        redact_json(&mut v, r);
    }
    v
}

/// HTML with its text and attribute values redacted, markup intact.
pub fn html(html: String, redact: Option<&RedactOptions>) -> String {
    match redact {
        Some(r) => redact_html(&html, r),
        None => html,
    }
}

/// The page's metadata redacted, but for the request's own fields.
pub fn metadata(mut metadata: Map<String, Value>, redact: Option<&RedactOptions>) -> Map<String, Value> {
    if let Some(r) = redact {
        for (key, v) in metadata.iter_mut() {
            if !REQUEST_METADATA.contains(&key.as_str()) {
                redact_json(v, r);
            }
        }
    }
    metadata
}
