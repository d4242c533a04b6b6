//! An encoded value as the embedded store holds it in memory (the hot tier,
//! the writer's pending map and queue): the [`codec`] header with the start
//! of the payload (`head`: a page entry's framing, or nothing), then the
//! rest of the payload (`body`) shared with whoever made it (the fetched
//! page's body, the result entry's buffer) instead of copied beside the
//! header. The bytes are those of [`codec::encode_raw`] of the whole payload;
//! the file gets them as two slices ([`super::disk::Disk::put_many_parts`]),
//! so what is stored does not change.

use super::codec::{self, HEADER_LEN};
use super::store::{StoreError, Stored};
use bytes::Bytes;

/// An uncompressed encoded value in two pieces (see the module doc).
#[derive(Clone, Debug)]
pub struct Encoded {
    /// The codec header, then the payload's first bytes.
    head: Bytes,
    /// The payload's remaining bytes.
    body: Bytes,
}

impl Encoded {
    /// The value whose payload is `head` then `body`, stored at
    /// `stored_at_ms`, expiring at `expires_at_ms`: only `head` is copied.
    pub fn new(head: &[u8], body: Bytes, stored_at_ms: i64, expires_at_ms: i64) -> Encoded {
        let mut first = codec::encode_raw(&[], stored_at_ms, expires_at_ms);
        first.extend_from_slice(head);
        Encoded {
            head: Bytes::from(first),
            body,
        }
    }

    /// Its bytes, end to end.
    pub fn len(&self) -> usize {
        self.head.len() + self.body.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The two pieces, in order (header first).
    pub fn parts(&self) -> [&[u8]; 2] {
        [&self.head, &self.body]
    }

    /// The header and the payload's first bytes.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// The bytes in one buffer (compression, tests).
    pub fn to_vec(&self) -> Vec<u8> {
        [&self.head[..], &self.body].concat()
    }

    /// Whether `other` is this very value (not an equal one): the writer
    /// forgets a pending put only if no newer put of its key replaced it.
    pub fn same(&self, other: &Encoded) -> bool {
        self.head.as_ptr() == other.head.as_ptr() && self.body.as_ptr() == other.body.as_ptr()
    }

    pub fn header(&self) -> Result<codec::Header, StoreError> {
        codec::header(&self.head)
    }

    /// The payload and its times ([`codec::decode`] of [`Encoded::to_vec`]).
    pub fn decode(&self) -> Result<Stored, StoreError> {
        let h = self.header()?;
        if h.compressed {
            return codec::decode(&self.to_vec());
        }
        Ok(Stored {
            value: [&self.head[HEADER_LEN..], &self.body].concat(),
            stored_at_ms: h.stored_at_ms,
            expires_at_ms: h.expires_at_ms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pieces_are_the_value_encoded_whole() {
        let (head, body) = (b"DPG1\x02\0\0\0{}".as_slice(), "<p>body</p>".repeat(50));
        let whole = [head, body.as_bytes()].concat();
        let e = Encoded::new(head, Bytes::from(body.clone()), 5, 9);
        assert_eq!(e.to_vec(), codec::encode_raw(&whole, 5, 9));
        assert_eq!(e.len(), HEADER_LEN + whole.len());
        assert_eq!(e.parts().concat(), e.to_vec());
        assert_eq!(e.decode().unwrap(), codec::decode(&e.to_vec()).unwrap());
        assert_eq!(e.head().len(), HEADER_LEN + head.len());
        let bare = Encoded::new(&[], Bytes::new(), 1, 2);
        assert_eq!(bare.to_vec(), codec::encode_raw(b"", 1, 2));
        assert_eq!(bare.decode().unwrap().value, b"");
    }

    #[test]
    fn the_body_is_shared_not_copied() {
        let body = Bytes::from(vec![b'x'; 4096]);
        let e = Encoded::new(b"h", body.clone(), 1, 2);
        assert_eq!(e.parts()[1].as_ptr(), body.as_ptr());
        let copy = e.clone();
        assert!(copy.same(&e));
        let equal = Encoded::new(b"h", body.clone(), 1, 2);
        assert!(!equal.same(&e), "an equal value put again is another put");
    }
}
