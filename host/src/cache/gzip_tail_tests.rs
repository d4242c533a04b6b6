//! A page stored with its origin's gzip bytes reads back as the page; the
//! writer prefers that form under half the cap and past it; hostile forms
//! are refused, a tail that inflates past the limit too.

use super::*;
use crate::cache::codec::{self, FLAG_GZIP_TAIL, HEADER_LEN};
use crate::cache::disk::Disk;
use crate::cache::encoded::Encoded;
use crate::cache::store::now_ms;
use crate::cache::tests::temp_dir;
use crate::cache::writer::{GzipTail, HotTier, Writer};
use flate2::Compression;
use flate2::write::GzEncoder;
use moka::future::Cache;
use std::io::Write;
use std::sync::Arc;

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::new(6));
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// A page entry's framing and body, the value they make, and the body gzipped.
fn page(i: usize) -> (Vec<u8>, String, Encoded, Vec<u8>) {
    let head = format!("DPG1 head of page {i}").into_bytes();
    let body = format!("<li><a href=\"/p/{i}\">item {i}</a> words <b>more</b></li>\n").repeat(2000);
    let now = now_ms();
    let raw = Encoded::new(&head, body.clone().into(), now, now + 86_400_000);
    let packed = gz(body.as_bytes());
    (head, body, raw, packed)
}

#[test]
fn the_form_reads_back_as_the_value() {
    let (head, _, raw, packed) = page(1);
    // Given the value's first bytes only, the same form.
    let of_head = codec::gzip_tail_of(raw.head(), raw.len(), head.len(), &packed);
    let raw = raw.to_vec();
    assert_eq!(
        of_head.unwrap(),
        codec::gzip_tail(&raw, head.len(), &packed).unwrap()
    );
    let form = codec::gzip_tail(&raw, head.len(), &packed)
        .unwrap()
        .expect("pays");
    assert_eq!(form[1], FLAG_GZIP_TAIL);
    assert_eq!(form.len(), HEADER_LEN + 4 + head.len() + packed.len());
    assert!(codec::header(&form).unwrap().compressed);
    assert_eq!(codec::decode(&form).unwrap(), codec::decode(&raw).unwrap());
    assert_eq!(codec::expand(&form).unwrap(), raw.to_vec());
    assert_eq!(codec::compacted(&form, None).unwrap(), None, "already compressed");
    // A plain part past the payload, or a tail that does not pay: no form.
    assert_eq!(codec::gzip_tail(&raw, raw.len(), &packed).unwrap(), None);
    assert_eq!(codec::gzip_tail(&raw, head.len(), &raw).unwrap(), None);
}

#[test]
fn hostile_forms_are_refused() {
    let (head, _, raw, packed) = page(2);
    let raw = raw.to_vec();
    let form = codec::gzip_tail(&raw, head.len(), &packed).unwrap().unwrap();
    // A plain length past the end, a body with no length, a cut stream, garbage.
    let mut long = form.clone();
    long[HEADER_LEN..HEADER_LEN + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(codec::decode(&long).is_err());
    assert!(codec::decode(&form[..HEADER_LEN + 2]).is_err());
    assert!(codec::decode(&form[..form.len() - 5]).is_err());
    let mut garbage = form.clone();
    let at = HEADER_LEN + 4 + head.len();
    garbage[at..].fill(0xAB);
    assert!(codec::decode(&garbage).is_err() && codec::expand(&garbage).is_err());
    // A tail that inflates past the limit stops there.
    let zeros = gz(&vec![0u8; 4 << 20]);
    let mut bomb = 0u32.to_le_bytes().to_vec();
    bomb.extend_from_slice(&zeros);
    assert!(payload(&bomb, 1 << 20).is_err());
    assert_eq!(payload(&bomb, 4 << 20).unwrap().len(), 4 << 20);
}

#[tokio::test]
async fn the_writer_stores_the_origin_bytes_under_half_the_cap_and_past_it() {
    let dir = temp_dir("gzip-tail-writer");
    let path = dir.join("cache.redb");
    let cap = 1u64 << 20;
    let disk = Arc::new(Disk::open(&path, cap).expect("open the file"));
    let hot: HotTier = Cache::builder().max_capacity(1 << 20).build();
    let w = Writer::start(disk.clone(), hot);
    let stored = |key: &str| disk.get(key).expect("read").expect("in the file");
    let put = |i: usize| {
        let (head, _, raw, packed) = page(i);
        let tail = GzipTail {
            plain: head.len(),
            gz: packed.clone().into(),
        };
        assert!(w.put_with(&format!("p{i}"), raw.clone(), Some(tail)));
        (raw, packed)
    };
    let (first, packed) = put(0);
    w.sync().await.expect("written");
    assert!(disk.has_room_for_raw());
    let kept = stored("p0");
    assert_eq!(kept[1], FLAG_GZIP_TAIL, "the origin's bytes, not the raw value");
    assert!(kept.ends_with(&packed));
    assert_eq!(codec::decode(&kept).unwrap(), first.decode().unwrap());
    // Past half the cap (raw values fill it), still the origin's bytes.
    let mut i = 1;
    while disk.has_room_for_raw() {
        let (_, _, raw, _) = page(i);
        assert!(w.put(&format!("r{i}"), raw));
        w.sync().await.expect("written");
        i += 1;
    }
    let (late, _) = put(99);
    w.sync().await.expect("written");
    let kept = stored("p99");
    assert_eq!(kept[1], FLAG_GZIP_TAIL);
    assert_eq!(codec::expand(&kept).unwrap(), late.to_vec());
    drop(w);
    drop(disk);
    Disk::verify(&path).expect("consistent file");
    let _ = std::fs::remove_dir_all(dir);
}
