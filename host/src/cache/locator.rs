//! What the embedded store's `entries` table holds per key: either the
//! encoded value itself (inline, the [`super::codec`] form every release
//! wrote, first byte the codec's version) or a locator of a value kept in a
//! segment file ([`super::segments`]): a tag byte, a copy of the value's
//! 18-byte codec header (stored-at and expires-at without a file read), the
//! segment, offset and length, and a CRC-32 of the value's bytes.

use super::codec::{self, HEADER_LEN};
use super::store::StoreError;

/// First byte of a locator (never a codec version).
const TAG: u8 = 0xB7;
/// Locator length: tag, header, segment (u32), offset (u64), length (u32), CRC (u32).
pub const LEN: usize = 1 + HEADER_LEN + 4 + 8 + 4 + 4;
/// Values this long or shorter stay inline (a locator is 39 bytes).
pub const INLINE_MAX: usize = 1024;

/// Where a value lives in the segment files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Locator {
    pub segment: u32,
    pub offset: u64,
    pub len: u32,
    pub crc: u32,
    /// The value's codec header bytes.
    pub header: [u8; HEADER_LEN],
}

/// A stored `entries` value, parsed.
pub enum Form<'a> {
    Inline(&'a [u8]),
    At(Locator),
}

impl Locator {
    /// The locator of `encoded` written at `offset` of `segment`.
    pub fn of(encoded: &[u8], segment: u32, offset: u64) -> Locator {
        Locator::of_parts([encoded, &[]], segment, offset)
    }

    /// [`Locator::of`] the value `parts` make end to end (the header within
    /// the first).
    pub fn of_parts(parts: [&[u8]; 2], segment: u32, offset: u64) -> Locator {
        let mut header = [0u8; HEADER_LEN];
        header.copy_from_slice(&parts[0][..HEADER_LEN]);
        let mut crc = crc32fast::Hasher::new();
        parts.iter().for_each(|p| crc.update(p));
        Locator {
            segment,
            offset,
            len: u32::try_from(parts[0].len() + parts[1].len()).expect("values are under 4 GiB"),
            crc: crc.finalize(),
            header,
        }
    }

    pub fn to_bytes(&self) -> [u8; LEN] {
        let mut out = [0u8; LEN];
        out[0] = TAG;
        out[1..1 + HEADER_LEN].copy_from_slice(&self.header);
        let at = 1 + HEADER_LEN;
        out[at..at + 4].copy_from_slice(&self.segment.to_le_bytes());
        out[at + 4..at + 12].copy_from_slice(&self.offset.to_le_bytes());
        out[at + 12..at + 16].copy_from_slice(&self.len.to_le_bytes());
        out[at + 16..at + 20].copy_from_slice(&self.crc.to_le_bytes());
        out
    }

    /// Checks bytes read at this locator: length, header and CRC.
    pub fn check(&self, bytes: &[u8]) -> Result<(), StoreError> {
        if bytes.len() != self.len as usize
            || bytes[..HEADER_LEN] != self.header
            || crc32fast::hash(bytes) != self.crc
        {
            return Err(StoreError::Corrupt(format!(
                "segment {} at {}: value does not match its locator",
                self.segment, self.offset
            )));
        }
        Ok(())
    }
}

/// Parses a stored `entries` value.
pub fn parse(stored: &[u8]) -> Result<Form<'_>, StoreError> {
    if stored.first() != Some(&TAG) {
        return Ok(Form::Inline(stored));
    }
    if stored.len() != LEN {
        return Err(StoreError::Corrupt("bad locator length".into()));
    }
    let at = 1 + HEADER_LEN;
    let u32_at = |i: usize| u32::from_le_bytes(stored[i..i + 4].try_into().expect("4 bytes"));
    let mut header = [0u8; HEADER_LEN];
    header.copy_from_slice(&stored[1..at]);
    Ok(Form::At(Locator {
        segment: u32_at(at),
        offset: u64::from_le_bytes(stored[at + 4..at + 12].try_into().expect("8 bytes")),
        len: u32_at(at + 12),
        crc: u32_at(at + 16),
        header,
    }))
}

/// The codec header of a stored value (inline or located).
pub fn header(stored: &[u8]) -> Result<codec::Header, StoreError> {
    match parse(stored)? {
        Form::Inline(v) => codec::header(v),
        Form::At(l) => codec::header(&l.header),
    }
}

/// The encoded value's length and its segment, if it has one: what the
/// totals and the segments' live counts account for it.
pub fn accounted(stored: &[u8]) -> Result<(usize, Option<u32>), StoreError> {
    Ok(match parse(stored)? {
        Form::Inline(v) => (v.len(), None),
        Form::At(l) => (l.len as usize, Some(l.segment)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_tells_inline_from_located() {
        let v = codec::encode(&vec![7u8; 3000], 11, 22);
        let l = Locator::of(&v, 3, 4096);
        let bytes = l.to_bytes();
        let Form::At(back) = parse(&bytes).unwrap() else {
            panic!("a locator")
        };
        assert_eq!(back, l);
        assert_eq!(header(&bytes).unwrap().stored_at_ms, 11);
        assert_eq!(accounted(&bytes).unwrap(), (v.len(), Some(3)));
        back.check(&v).unwrap();
        let mut bad = v.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(back.check(&bad).is_err());
        assert!(matches!(parse(&v).unwrap(), Form::Inline(_)));
        assert_eq!(header(&v).unwrap().expires_at_ms, 22);
    }

    #[test]
    fn a_value_in_two_pieces_has_the_locator_of_the_whole() {
        let v = codec::encode_raw(&(0..3000u32).map(|i| (i * 7) as u8).collect::<Vec<_>>(), 11, 22);
        for split in [HEADER_LEN, HEADER_LEN + 1, 1000, v.len()] {
            let (a, b) = v.split_at(split);
            assert_eq!(
                Locator::of_parts([a, b], 5, 77),
                Locator::of(&v, 5, 77),
                "{split}"
            );
        }
    }
}
