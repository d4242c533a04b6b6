//! The byte layout every backend stores: a fixed 18-byte header (format
//! version, flags, when the value was stored, when it expires) followed by the
//! payload, zstd-compressed when that saves at least an eighth (docs/CACHE.md
//! has the measurements). Backends store and return these bytes untouched, so
//! an entry written by the embedded store reads the same from Redis.

use super::store::{StoreError, Stored};
use crate::scratch::Scratch;

/// Format version (first byte). Anything else is treated as corrupt.
const VERSION: u8 = 1;
/// Flag bit: the payload is zstd-compressed.
const FLAG_ZSTD: u8 = 1;
/// Header length: version, flags, stored_at (i64 LE), expires_at (i64 LE).
pub const HEADER_LEN: usize = 18;
/// Payloads shorter than this are stored as they are.
const MIN_COMPRESS_LEN: usize = 512;
/// zstd level when `DISTILL_CACHE_ZSTD_LEVEL` is unset (docs/CACHE.md has
/// the measurements behind it).
pub const DEFAULT_ZSTD_LEVEL: i32 = 1;
/// Largest payload a value may decompress to (guards against a corrupt header).
const MAX_PAYLOAD: usize = 512 << 20;

/// The header fields of an encoded value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub stored_at_ms: i64,
    pub expires_at_ms: i64,
    pub compressed: bool,
}

/// Encodes `payload` with its times; compresses when it pays.
pub fn encode(payload: &[u8], stored_at_ms: i64, expires_at_ms: i64) -> Vec<u8> {
    encode_using(None, payload, stored_at_ms, expires_at_ms)
}

/// A zstd compressor at the cache's level, for a thread that compresses many
/// values ([`compact_with`]): it keeps its context instead of creating and
/// zeroing one per value.
pub fn compressor() -> Option<zstd::bulk::Compressor<'static>> {
    zstd::bulk::Compressor::new(zstd_level()).ok()
}

/// The zstd level values are stored at: `DISTILL_CACHE_ZSTD_LEVEL` (1–19)
/// or [`DEFAULT_ZSTD_LEVEL`]. Read once.
pub fn zstd_level() -> i32 {
    static LEVEL: std::sync::OnceLock<i32> = std::sync::OnceLock::new();
    *LEVEL.get_or_init(|| {
        std::env::var("DISTILL_CACHE_ZSTD_LEVEL")
            .ok()
            .and_then(|v| v.trim().parse::<i32>().ok())
            .filter(|l| (1..=19).contains(l))
            .unwrap_or(DEFAULT_ZSTD_LEVEL)
    })
}

fn encode_using(
    compressor: Option<(&mut zstd::bulk::Compressor<'static>, &mut Scratch)>,
    payload: &[u8],
    stored_at_ms: i64,
    expires_at_ms: i64,
) -> Vec<u8> {
    let pays = |c: &[u8]| c.len() <= payload.len() - payload.len() / 8;
    let plain = || frame(payload, false, stored_at_ms, expires_at_ms);
    if payload.len() < MIN_COMPRESS_LEN {
        return plain();
    }
    match compressor {
        // Compressed into the thread's scratch: only the result is a new buffer.
        Some((c, scratch)) => scratch.with(|buf| {
            buf.reserve(zstd::zstd_safe::compress_bound(payload.len()));
            match c.compress_to_buffer(payload, buf) {
                Ok(_) if pays(buf) => frame(buf, true, stored_at_ms, expires_at_ms),
                _ => plain(),
            }
        }),
        None => match zstd::bulk::compress(payload, zstd_level()) {
            Ok(c) if pays(&c) => frame(&c, true, stored_at_ms, expires_at_ms),
            _ => plain(),
        },
    }
}

/// The header, then `body` as it is.
fn frame(body: &[u8], compressed: bool, stored_at_ms: i64, expires_at_ms: i64) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.push(VERSION);
    out.push(if compressed { FLAG_ZSTD } else { 0 });
    out.extend_from_slice(&stored_at_ms.to_le_bytes());
    out.extend_from_slice(&expires_at_ms.to_le_bytes());
    out.extend_from_slice(body);
    out
}

/// Encodes `payload` with its times, never compressed: what the embedded
/// store's hot tier holds (a hit from memory then needs no decompression).
pub fn encode_raw(payload: &[u8], stored_at_ms: i64, expires_at_ms: i64) -> Vec<u8> {
    frame(payload, false, stored_at_ms, expires_at_ms)
}

/// [`encode_raw`] of the payload the `parts` make end to end, laid out once
/// in the shared slice the hot tier and the writer hold (no `Vec` first,
/// which `Arc::from` would copy again).
pub fn encode_raw_shared(parts: &[&[u8]], stored_at_ms: i64, expires_at_ms: i64) -> std::sync::Arc<[u8]> {
    let len = HEADER_LEN + parts.iter().map(|p| p.len()).sum::<usize>();
    let mut shared = std::sync::Arc::<[u8]>::new_uninit_slice(len);
    let out = std::sync::Arc::get_mut(&mut shared).expect("a new Arc is unique");
    let header = [
        &[VERSION, 0][..],
        &stored_at_ms.to_le_bytes(),
        &expires_at_ms.to_le_bytes(),
    ];
    let mut at = 0;
    for part in header.iter().chain(parts) {
        out[at..at + part.len()].write_copy_of_slice(part);
        at += part.len();
    }
    debug_assert_eq!(at, len);
    // Safety: the loop above wrote every one of the `len` bytes.
    unsafe { shared.assume_init() }
}

/// An encoded value in its stored form: compressed when that pays (a value
/// already compressed is returned as it is).
pub fn compact(encoded: &[u8]) -> Result<Vec<u8>, StoreError> {
    compact_with(encoded, None)
}

/// [`compact`] with a reused compressor ([`compressor`]) and its thread's
/// scratch buffer for the compressed bytes.
pub fn compact_with(
    encoded: &[u8],
    compressor: Option<(&mut zstd::bulk::Compressor<'static>, &mut Scratch)>,
) -> Result<Vec<u8>, StoreError> {
    let h = header(encoded)?;
    if h.compressed {
        return Ok(encoded.to_vec());
    }
    Ok(encode_using(
        compressor,
        &encoded[HEADER_LEN..],
        h.stored_at_ms,
        h.expires_at_ms,
    ))
}

/// An encoded value in its hot-tier form: uncompressed.
pub fn expand(encoded: &[u8]) -> Result<Vec<u8>, StoreError> {
    let h = header(encoded)?;
    if !h.compressed {
        return Ok(encoded.to_vec());
    }
    let s = decode(encoded)?;
    Ok(encode_raw(&s.value, h.stored_at_ms, h.expires_at_ms))
}

/// Reads the header without touching the payload.
pub fn header(bytes: &[u8]) -> Result<Header, StoreError> {
    if bytes.len() < HEADER_LEN || bytes[0] != VERSION || bytes[1] & !FLAG_ZSTD != 0 {
        return Err(StoreError::Corrupt("bad entry header".into()));
    }
    let stored_at_ms = i64::from_le_bytes(bytes[2..10].try_into().expect("8 bytes"));
    let expires_at_ms = i64::from_le_bytes(bytes[10..18].try_into().expect("8 bytes"));
    Ok(Header {
        stored_at_ms,
        expires_at_ms,
        compressed: bytes[1] & FLAG_ZSTD != 0,
    })
}

/// Decodes an entry into its payload and times.
pub fn decode(bytes: &[u8]) -> Result<Stored, StoreError> {
    let h = header(bytes)?;
    let body = &bytes[HEADER_LEN..];
    let value = if h.compressed {
        zstd::bulk::decompress(body, MAX_PAYLOAD).map_err(|e| StoreError::Corrupt(format!("zstd: {e}")))?
    } else {
        body.to_vec()
    };
    Ok(Stored {
        value,
        stored_at_ms: h.stored_at_ms,
        expires_at_ms: h.expires_at_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_small_value_stays_raw() {
        let e = encode(b"hello", 5, 9);
        assert_eq!(e.len(), HEADER_LEN + 5);
        assert!(!header(&e).unwrap().compressed);
        let s = decode(&e).unwrap();
        assert_eq!(
            (s.value.as_slice(), s.stored_at_ms, s.expires_at_ms),
            (&b"hello"[..], 5, 9)
        );
    }

    #[test]
    fn html_is_compressed_and_round_trips() {
        let page = "<div class=\"item\"><a href=\"/x\">link</a> text text</div>\n".repeat(500);
        let e = encode(page.as_bytes(), 1, 2);
        assert!(header(&e).unwrap().compressed);
        assert!(e.len() < page.len() / 4, "{} vs {}", e.len(), page.len());
        assert_eq!(decode(&e).unwrap().value, page.as_bytes());
    }

    #[test]
    fn incompressible_bytes_are_stored_raw() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let e = encode(&noise, 1, 2);
        assert!(!header(&e).unwrap().compressed);
        assert_eq!(decode(&e).unwrap().value, noise);
    }

    #[test]
    fn raw_compact_and_expand_round_trip() {
        let page = "<p>some html that compresses well</p>\n".repeat(200);
        let raw = encode_raw(page.as_bytes(), 3, 4);
        assert!(!header(&raw).unwrap().compressed);
        let small = compact(&raw).unwrap();
        assert!(header(&small).unwrap().compressed && small.len() < raw.len() / 4);
        assert_eq!(expand(&small).unwrap(), raw);
        assert_eq!(decode(&small).unwrap(), decode(&raw).unwrap());
        assert_eq!(compact(&small).unwrap(), small);
        let mut c = compressor();
        let mut scratch = Scratch::new(1 << 20);
        for _ in 0..3 {
            assert_eq!(
                compact_with(&raw, c.as_mut().map(|c| (c, &mut scratch))).unwrap(),
                small,
                "a reused context compresses alike"
            );
        }
    }

    #[test]
    fn a_value_laid_out_from_parts_is_the_value_encoded_whole() {
        let (head, body) = (b"DPG1\x02\0\0\0{}".as_slice(), "<p>body</p>".repeat(50));
        let whole = [head, body.as_bytes()].concat();
        let shared = encode_raw_shared(&[head, body.as_bytes()], 5, 9);
        assert_eq!(&shared[..], encode_raw(&whole, 5, 9).as_slice());
        assert_eq!(decode(&shared).unwrap().value, whole);
        assert_eq!(
            &encode_raw_shared(&[], 1, 2)[..],
            encode_raw(b"", 1, 2).as_slice()
        );
    }

    #[test]
    fn corrupt_entries_are_errors_not_panics() {
        assert!(decode(b"").is_err());
        assert!(decode(&[9u8; 40]).is_err());
        let mut e = encode(&vec![b'a'; 4096], 1, 2);
        e.truncate(HEADER_LEN + 3);
        assert!(decode(&e).is_err());
    }
}
