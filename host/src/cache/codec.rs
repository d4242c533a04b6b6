//! The byte layout every backend stores: a fixed 18-byte header (format
//! version, flags, when the value was stored, when it expires) followed by the
//! payload, zstd-compressed when that saves at least an eighth (docs/CACHE.md
//! has the measurements), or a page whose body the origin gzipped stored with
//! the origin's bytes ([`super::gzip_tail`]). Backends store and return these bytes untouched, so
//! an entry written by the embedded store reads the same from Redis.

use super::store::{StoreError, Stored};
use crate::scratch::Scratch;

/// Format version (first byte). Anything else is treated as corrupt.
const VERSION: u8 = 1;
/// Flag bit: the payload is zstd-compressed.
const FLAG_ZSTD: u8 = 1;
/// Flag bit: the payload's end is a gzip stream ([`super::gzip_tail`]).
/// Never set together with [`FLAG_ZSTD`].
pub const FLAG_GZIP_TAIL: u8 = 2;
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
    /// Stored compressed: zstd, or with a gzip tail.
    pub compressed: bool,
}

/// Encodes `payload` with its times; compresses when it pays.
pub fn encode(payload: &[u8], stored_at_ms: i64, expires_at_ms: i64) -> Vec<u8> {
    encode_using(None, payload, stored_at_ms, expires_at_ms)
}

/// A zstd compressor at the cache's level, for a thread that compresses many
/// values ([`compacted`]): it keeps its context instead of creating and
/// zeroing one per value. `None` when values are stored uncompressed
/// (level 0).
pub fn compressor() -> Option<zstd::bulk::Compressor<'static>> {
    match zstd_level() {
        0 => None,
        level => zstd::bulk::Compressor::new(level).ok(),
    }
}

/// The zstd level values are stored at: `DISTILL_CACHE_ZSTD_LEVEL` or
/// [`DEFAULT_ZSTD_LEVEL`]. 1–19 as zstd counts them, negative levels are
/// zstd's fast ones (faster, larger), 0 stores values uncompressed. Read once.
pub fn zstd_level() -> i32 {
    static LEVEL: std::sync::OnceLock<i32> = std::sync::OnceLock::new();
    *LEVEL.get_or_init(|| level_from(std::env::var("DISTILL_CACHE_ZSTD_LEVEL").ok().as_deref()))
}

/// The level a `DISTILL_CACHE_ZSTD_LEVEL` value asks for; the default when
/// unset or out of zstd's range.
fn level_from(setting: Option<&str>) -> i32 {
    setting
        .and_then(|v| v.trim().parse::<i32>().ok())
        .filter(|l| *l == 0 || zstd::compression_level_range().contains(l))
        .filter(|l| *l <= 19)
        .unwrap_or(DEFAULT_ZSTD_LEVEL)
}

fn encode_using(
    compressor: Option<(&mut zstd::bulk::Compressor<'static>, &mut Scratch)>,
    payload: &[u8],
    stored_at_ms: i64,
    expires_at_ms: i64,
) -> Vec<u8> {
    let pays = |c: &[u8]| c.len() <= payload.len() - payload.len() / 8;
    let plain = || frame(payload, false, stored_at_ms, expires_at_ms);
    if payload.len() < MIN_COMPRESS_LEN || zstd_level() == 0 {
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
    Ok(compacted(encoded, compressor)?.unwrap_or_else(|| encoded.to_vec()))
}

/// The stored form of the raw value `encoded` whose payload is its first
/// `plain` bytes, then what `gz` inflates to ([`super::gzip_tail`]): a copy
/// of bytes already compressed. `None` when it would not save an eighth (or
/// `plain` is not within the payload): then [`compacted`] applies.
pub fn gzip_tail(encoded: &[u8], plain: usize, gz: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
    gzip_tail_of(encoded, encoded.len(), plain, gz)
}

/// [`gzip_tail`] of a raw value `len` bytes long given only its first bytes
/// (`prefix`: the header and at least the `plain` bytes; the rest, what `gz`
/// inflates to, is not read).
pub fn gzip_tail_of(
    prefix: &[u8],
    len: usize,
    plain: usize,
    gz: &[u8],
) -> Result<Option<Vec<u8>>, StoreError> {
    let h = header(prefix)?;
    if h.compressed || zstd_level() == 0 {
        return Ok(None);
    }
    let Some(head) = prefix[HEADER_LEN..].get(..plain) else {
        return Ok(None);
    };
    let Some(mut out) = super::gzip_tail::form(&prefix[..HEADER_LEN], head, gz, len - HEADER_LEN) else {
        return Ok(None);
    };
    out[1] = FLAG_GZIP_TAIL;
    Ok(Some(out))
}

/// [`compact_with`] without copying a value whose stored form is the value
/// itself: `None` when `encoded` is to be stored as it is (already
/// compressed, too small, incompressible, or compression is off).
pub fn compacted(
    encoded: &[u8],
    compressor: Option<(&mut zstd::bulk::Compressor<'static>, &mut Scratch)>,
) -> Result<Option<Vec<u8>>, StoreError> {
    let h = header(encoded)?;
    if h.compressed || encoded.len() - HEADER_LEN < MIN_COMPRESS_LEN || zstd_level() == 0 {
        return Ok(None);
    }
    let stored = encode_using(
        compressor,
        &encoded[HEADER_LEN..],
        h.stored_at_ms,
        h.expires_at_ms,
    );
    Ok(header(&stored)?.compressed.then_some(stored))
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
    if bytes.len() < HEADER_LEN || bytes[0] != VERSION || !matches!(bytes[1], 0 | FLAG_ZSTD | FLAG_GZIP_TAIL)
    {
        return Err(StoreError::Corrupt("bad entry header".into()));
    }
    let stored_at_ms = i64::from_le_bytes(bytes[2..10].try_into().expect("8 bytes"));
    let expires_at_ms = i64::from_le_bytes(bytes[10..18].try_into().expect("8 bytes"));
    Ok(Header {
        stored_at_ms,
        expires_at_ms,
        compressed: bytes[1] != 0,
    })
}

/// Decodes an entry into its payload and times.
pub fn decode(bytes: &[u8]) -> Result<Stored, StoreError> {
    let h = header(bytes)?;
    let body = &bytes[HEADER_LEN..];
    let value = match bytes[1] {
        0 => body.to_vec(),
        FLAG_GZIP_TAIL => super::gzip_tail::payload(body, MAX_PAYLOAD)?,
        _ => zstd::bulk::decompress(body, MAX_PAYLOAD)
            .map_err(|e| StoreError::Corrupt(format!("zstd: {e}")))?,
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
    fn the_level_setting_takes_zstd_levels_zero_and_fast_levels() {
        assert_eq!(level_from(None), DEFAULT_ZSTD_LEVEL);
        assert_eq!(level_from(Some(" 3 ")), 3);
        assert_eq!(level_from(Some("0")), 0, "0 stores values uncompressed");
        assert_eq!(level_from(Some("-5")), -5, "zstd's fast levels");
        for bad in ["20", "-200000", "fast", ""] {
            assert_eq!(level_from(Some(bad)), DEFAULT_ZSTD_LEVEL, "{bad:?}");
        }
        // A fast level compresses, less well than level 1, and round-trips.
        let page = "<li><a href=\"/p/1\">item</a> words <b>x</b></li>\n".repeat(400);
        let fast = zstd::bulk::compress(page.as_bytes(), -5).unwrap();
        assert!(fast.len() < page.len() / 2);
        assert_eq!(
            zstd::bulk::decompress(&fast, page.len()).unwrap(),
            page.as_bytes()
        );
    }

    #[test]
    fn compacted_leaves_what_is_stored_as_it_is_uncopied() {
        let page = "<p>some html that compresses well</p>\n".repeat(200);
        let raw = encode_raw(page.as_bytes(), 3, 4);
        let small = compacted(&raw, None).unwrap().expect("compressible: a new form");
        assert_eq!(small, compact(&raw).unwrap());
        assert_eq!(decode(&small).unwrap().value, page.as_bytes());
        assert_eq!(compacted(&small, None).unwrap(), None, "already compressed");
        assert_eq!(compacted(&encode_raw(b"tiny", 3, 4), None).unwrap(), None);
        let mut x = 0x9e37_79b9u64;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                (x >> 33) as u8
            })
            .collect();
        assert_eq!(
            compacted(&encode_raw(&noise, 3, 4), None).unwrap(),
            None,
            "incompressible"
        );
        assert!(compacted(b"\x07 not an entry at all", None).is_err());
    }

    #[test]
    fn an_entry_written_by_earlier_releases_still_decodes() {
        // Version 1, zstd flag, stored 5, expires 9, then a level-1 frame of
        // "<p>kept</p>\n" x 64 as the cache wrote it before this release.
        let mut old = vec![1u8, 1];
        old.extend_from_slice(&5i64.to_le_bytes());
        old.extend_from_slice(&9i64.to_le_bytes());
        old.extend_from_slice(&[
            0x28, 0xb5, 0x2f, 0xfd, 0x60, 0x00, 0x02, 0x9d, 0x00, 0x00, 0x60, 0x3c, 0x70, 0x3e, 0x6b, 0x65,
            0x70, 0x74, 0x3c, 0x2f, 0x70, 0x3e, 0x0a, 0x01, 0x00, 0xf1, 0x5e, 0x95, 0x24,
        ]);
        let s = decode(&old).unwrap();
        assert_eq!(s.value, "<p>kept</p>\n".repeat(64).as_bytes());
        assert_eq!((s.stored_at_ms, s.expires_at_ms), (5, 9));
        assert_eq!(expand(&old).unwrap(), encode_raw(&s.value, 5, 9));
        // An uncompressed entry is what every release reads as it is.
        assert_eq!(decode(&encode_raw(b"plain", 5, 9)).unwrap().value, b"plain");
    }

    #[test]
    fn hostile_entries_are_refused() {
        let mut e = encode(&"<p>x</p>".repeat(200).into_bytes(), 1, 2);
        for flags in [0b100, 0b11, 0x80] {
            e[1] = flags; // a flag no release defines, or both codecs at once
            assert!(header(&e).is_err() && decode(&e).is_err(), "{flags:#b}");
        }
        e[1] = FLAG_ZSTD;
        e[0] = 2; // a version no release wrote
        assert!(decode(&e).is_err());
        // Flagged compressed, but garbage or a frame cut short.
        let mut garbage = encode_raw(&[0xAB; 64], 1, 2);
        garbage[1] = FLAG_ZSTD;
        assert!(decode(&garbage).is_err() && expand(&garbage).is_err());
        // A frame that claims more than any value may hold.
        let mut bomb = vec![1u8, FLAG_ZSTD];
        bomb.extend_from_slice(&[0; 16]);
        bomb.extend_from_slice(&[0x28, 0xb5, 0x2f, 0xfd, 0xa0]); // magic, 4-byte size
        bomb.extend_from_slice(&(u32::MAX).to_le_bytes());
        bomb.extend_from_slice(&[0x01, 0x00, 0x00]);
        assert!(decode(&bomb).is_err());
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
