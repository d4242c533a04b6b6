//! The stored form of a value whose end came gzipped from the origin (a page
//! entry: its framing, then the body the origin sent with
//! `Content-Encoding: gzip`). After the codec's header (flag
//! [`super::codec::FLAG_GZIP_TAIL`]): the length `n` of the plain part (u32
//! LE), the first `n` payload bytes as they are, then the origin's gzip
//! stream, which inflates to the rest of the payload. Storing it costs a copy
//! of bytes already compressed instead of compressing the body again; reading
//! it inflates under the same limit as a zstd value, with the inflater the
//! fetch used ([`crate::gunzip`]), so a stored body reads back as fetched.

use super::store::StoreError;
use crate::gunzip::{Gunzip, GunzipError};

/// The form: `header` (the codec's, as it is), then the form's body for a
/// payload whose first bytes are `head` and whose rest `gz` inflates to;
/// `None` when it would not save at least an eighth of the payload's
/// `payload_len` bytes (then the codec compresses the payload as any other).
pub fn form(header: &[u8], head: &[u8], gz: &[u8], payload_len: usize) -> Option<Vec<u8>> {
    let len = 4 + head.len() + gz.len();
    let plain = u32::try_from(head.len()).ok()?;
    if len > payload_len - payload_len / 8 {
        return None;
    }
    let mut out = Vec::with_capacity(header.len() + len);
    out.extend_from_slice(header);
    out.extend_from_slice(&plain.to_le_bytes());
    out.extend_from_slice(head);
    out.extend_from_slice(gz);
    Some(out)
}

/// The payload a form's `body` holds, inflated to at most `limit` bytes.
pub fn payload(body: &[u8], limit: usize) -> Result<Vec<u8>, StoreError> {
    let bad = |why: String| StoreError::Corrupt(format!("gzip tail: {why}"));
    let plain = body
        .get(..4)
        .map(|n| u32::from_le_bytes(n.try_into().expect("4 bytes")) as usize)
        .ok_or_else(|| bad("no length".into()))?;
    let head = body.get(4..4 + plain).ok_or_else(|| bad("cut short".into()))?;
    let gz = &body[4 + plain..];
    let mut inflate = Gunzip::after(head, limit, gz.len().saturating_mul(4));
    let out = inflate.feed(gz).and_then(|()| inflate.finish());
    out.map_err(|e| match e {
        GunzipError::TooLarge => bad(format!("inflates past {limit} bytes")),
        GunzipError::Corrupt(why) => bad(why),
    })
}

#[cfg(test)]
#[path = "gzip_tail_tests.rs"]
mod tests;
