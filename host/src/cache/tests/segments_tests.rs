//! The value segments under real files: every entry written before a clean
//! close reads back byte-identical after reopening; a file written before
//! segments existed (values inline in `entries`, no `segs` table) still reads,
//! replaces and deletes; under a stream of new keys the segment files stay
//! within the cap plus a segment and a batch, and compaction gives back a
//! segment most of whose values were deleted; a child killed mid-batch leaves
//! a file whose every entry reads back whole and points inside its segment.

use super::{kill_child_after, noise, temp_dir};
use crate::cache::codec;
use crate::cache::compact;
use crate::cache::disk::{self, Disk};
use crate::cache::segments;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// Entry `i`: inline-sized (under a KiB), a few KB, or tens of KB.
fn entry(i: u64) -> Vec<u8> {
    let len = match i % 3 {
        0 => 100 + (i % 700) as usize,
        1 => 2_000 + (i % 5_000) as usize,
        _ => 20_000 + (i * 7919 % 40_000) as usize,
    };
    codec::encode(&noise(i, len), i as i64, i64::MAX)
}

fn key(i: u64) -> String {
    format!("k{i:06}")
}

fn put_batch(disk: &Disk, range: std::ops::Range<u64>) {
    let values: Vec<(String, Vec<u8>)> = range.map(|i| (key(i), entry(i))).collect();
    let items: Vec<(&str, &[u8])> = values.iter().map(|(k, v)| (k.as_str(), v.as_slice())).collect();
    disk.put_many(&items).unwrap();
}

/// Bytes of the segment files beside `path`.
fn segment_bytes(path: &Path) -> (u64, usize) {
    let files = segments::list(&segments::dir_for(path)).unwrap();
    (files.values().sum(), files.len())
}

#[test]
fn every_entry_reads_back_identical_after_a_clean_reopen() {
    let dir = temp_dir("seg-restart");
    let path = dir.join("cache.redb");
    let mut want: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    {
        let disk = Disk::open(&path, 256 << 20).unwrap();
        for b in 0..20 {
            put_batch(&disk, b * 10..b * 10 + 10);
        }
        for i in 0..200 {
            want.insert(key(i), entry(i));
        }
        // Replaced (inline by located and back) and deleted keys.
        for i in (0..200).step_by(7) {
            let v = entry(i + 1000);
            disk.put(&key(i), &v).unwrap();
            want.insert(key(i), v);
        }
        for i in (3..200).step_by(11) {
            assert!(disk.delete(&key(i)).unwrap());
            want.remove(&key(i));
        }
    }
    let usage = Disk::verify(&path).expect("consistent after close");
    assert_eq!(usage.entries, want.len() as u64);
    let (bytes, files) = segment_bytes(&path);
    assert!(
        files >= 1 && bytes > 1 << 20,
        "values went to segments: {files} files, {bytes} bytes"
    );
    let disk = Disk::open(&path, 256 << 20).unwrap();
    for i in 0..200 {
        assert_eq!(
            disk.get(&key(i)).unwrap(),
            want.get(&key(i)).cloned(),
            "{}",
            key(i)
        );
    }
    // Appends after a reopen go to a new segment and read back too.
    put_batch(&disk, 500..510);
    assert_eq!(disk.get(&key(505)).unwrap(), Some(entry(505)));
    drop(disk);
    Disk::verify(&path).expect("consistent after the second close");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_file_written_before_segments_reads_replaces_and_deletes() {
    let dir = temp_dir("seg-oldformat");
    let path = dir.join("cache.redb");
    // The former layout: every value inline in `entries`, no `segs` table.
    {
        let db = redb::Database::create(&path).unwrap();
        let w = db.begin_write().unwrap();
        {
            let mut entries = w.open_table(compact::ENTRIES).unwrap();
            let mut age = w.open_table(compact::AGE).unwrap();
            let mut stats = w.open_table(compact::STATS).unwrap();
            let mut bytes = 0u64;
            for i in 0..30 {
                let (k, v) = (key(i), entry(i));
                entries.insert(k.as_str(), v.as_slice()).unwrap();
                age.insert((i as i64, k.as_str()), (k.len() + v.len()) as u64)
                    .unwrap();
                bytes += (k.len() + v.len()) as u64;
            }
            stats.insert(compact::BYTES, bytes).unwrap();
            stats.insert(compact::COUNT, 30).unwrap();
        }
        w.commit().unwrap();
    }
    {
        let disk = Disk::open(&path, 256 << 20).unwrap();
        for i in 0..30 {
            assert_eq!(disk.get(&key(i)).unwrap(), Some(entry(i)), "old {}", key(i));
        }
        // An old inline value replaced by a located one, and one deleted.
        let v = entry(2000 + 2);
        disk.put(&key(2), &v).unwrap();
        assert_eq!(disk.get(&key(2)).unwrap(), Some(v));
        assert!(disk.delete(&key(5)).unwrap());
        assert_eq!(disk.usage().unwrap().entries, 29);
    }
    let usage = Disk::verify(&path).expect("a mixed file checks");
    assert_eq!(usage.entries, 29);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn segments_stay_within_the_cap_and_compaction_gives_space_back() {
    let dir = temp_dir("seg-cap");
    let path = dir.join("cache.redb");
    let cap = 8u64 << 20;
    let target = disk::segment_target(cap);
    let disk = Disk::open(&path, cap).unwrap();
    let batch = 10u64;
    let mut seen_files = 0usize;
    let created = |p: &Path| {
        segments::list(&segments::dir_for(p))
            .unwrap()
            .keys()
            .max()
            .copied()
            .unwrap_or(0)
    };
    // A stream of new keys: over three times the cap.
    for b in 0..200u64 {
        let range = b * batch..(b + 1) * batch;
        put_batch(&disk, range);
        if b % 3 != 2 {
            continue;
        }
        // Retired segments are deleted after the next durable commit.
        disk.flush().unwrap();
        let (bytes, files) = segment_bytes(&path);
        seen_files = seen_files.max(files);
        assert!(
            bytes <= cap + target,
            "batch {b}: {bytes} segment bytes over cap {cap} + segment {target}"
        );
        assert!(disk.usage().unwrap().bytes <= cap);
    }
    disk.flush().unwrap();
    assert!(
        created(&path) as usize > 2 * seen_files,
        "old segments were deleted: {} made, at most {seen_files} at once",
        created(&path)
    );
    let written: u64 = (0..2000).map(|i| entry(i).len() as u64).sum();
    assert!(written > 3 * cap, "the stream wrote {written} bytes");
    // The newest entries are there and whole.
    for i in 1990..2000 {
        assert_eq!(disk.get(&key(i)).unwrap(), Some(entry(i)));
    }
    // Compaction: fill some segments, delete three values in four, and the
    // segment bytes shrink while the rest reads back.
    let fresh = 10_000u64;
    for b in 0..12 {
        let values: Vec<(String, Vec<u8>)> = (0..10)
            .map(|j| fresh + b * 10 + j)
            .map(|i| (key(i), codec::encode(&noise(i, 30_000), 1 << 40, i64::MAX)))
            .collect();
        let items: Vec<(&str, &[u8])> = values.iter().map(|(k, v)| (k.as_str(), v.as_slice())).collect();
        disk.put_many(&items).unwrap();
    }
    disk.flush().unwrap();
    let (before, _) = segment_bytes(&path);
    for i in (fresh..fresh + 120).filter(|i| i % 4 != 0) {
        assert!(disk.delete(&key(i)).unwrap());
    }
    disk.flush().unwrap();
    let (after, _) = segment_bytes(&path);
    assert!(
        after + 1_000_000 < before,
        "compaction gave back space: {before} -> {after} bytes"
    );
    for i in (fresh..fresh + 120).filter(|i| i % 4 == 0) {
        assert_eq!(
            disk.get(&key(i)).unwrap(),
            Some(codec::encode(&noise(i, 30_000), 1 << 40, i64::MAX))
        );
    }
    drop(disk);
    Disk::verify(&path).expect("consistent after eviction and compaction");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn overwrites_of_the_same_keys_keep_the_files_within_the_cap() {
    let dir = temp_dir("seg-overwrite");
    let path = dir.join("cache.redb");
    let cap = 8u64 << 20;
    let target = disk::segment_target(cap);
    let disk = Disk::open(&path, cap).unwrap();
    // 200 keys of 20-60 KB (about 8 MB live, nearly the cap), overwritten in
    // a scattered order: every segment keeps some live values among dead
    // ones, so a cap on live bytes alone would leave the files well past it.
    let keys = 200u64;
    let value = |k: u64, version: u64| {
        let len = 20_000 + (k * 7919 % 40_000) as usize;
        codec::encode(&noise(k * 1000 + version, len), version as i64, i64::MAX)
    };
    let mut latest: BTreeMap<u64, u64> = BTreeMap::new();
    let (mut written, mut most, mut x) = (0u64, 0u64, 12345u64);
    for version in 0..600u64 {
        let mut batch = Vec::new();
        for _ in 0..8 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let k = if version < keys / 8 {
                batch.len() as u64 + version * 8
            } else {
                (x >> 33) % keys
            };
            batch.push((k, value(k, version)));
            latest.insert(k, version);
        }
        let items: Vec<(String, &[u8])> = batch.iter().map(|(k, v)| (key(*k), v.as_slice())).collect();
        let items: Vec<(&str, &[u8])> = items.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        written += batch.iter().map(|(_, v)| v.len() as u64).sum::<u64>();
        disk.put_many(&items).unwrap();
        if version % 4 != 3 {
            continue;
        }
        disk.flush().unwrap();
        let (bytes, _) = segment_bytes(&path);
        most = most.max(bytes);
        assert!(
            bytes <= cap + target,
            "after {written} bytes written: {bytes} segment bytes over cap {cap} + segment {target}"
        );
    }
    assert!(written > 5 * cap, "the overwrites wrote {written} bytes");
    // What is left holds each key's last value, and most keys are left.
    let mut present = 0;
    for (&k, &version) in &latest {
        if let Some(v) = disk.get(&key(k)).unwrap() {
            assert_eq!(v, value(k, version), "{} holds its last value", key(k));
            present += 1;
        }
    }
    eprintln!("segment bytes at most {most} (cap {cap}); {present} of {keys} keys left");
    assert!(present * 2 > keys, "{present} of {keys} keys left");
    drop(disk);
    Disk::verify(&path).expect("consistent after overwrites");
    let _ = std::fs::remove_dir_all(dir);
}

const CHILD_ENV: &str = "DISTILL_SEGMENT_CRASH_CHILD";
const START_ENV: &str = "DISTILL_SEGMENT_CRASH_START";
const CRASH_CAP: u64 = 6 << 20;

/// The child: batches of eight under a small cap (evicting and compacting
/// as it goes), a flush every fourth batch, printed.
#[test]
fn segment_crash_child() {
    let (Ok(path), Ok(start)) = (std::env::var(CHILD_ENV), std::env::var(START_ENV)) else {
        return;
    };
    let start: u64 = start.parse().unwrap();
    let disk = Disk::open(Path::new(&path), CRASH_CAP).unwrap();
    for b in 0.. {
        let first = start + b * 8;
        put_batch(&disk, first..first + 8);
        if b % 5 == 4 {
            disk.delete(&key(first)).unwrap();
        }
        if b % 4 == 3 {
            disk.flush().unwrap();
            println!("durable {}", first + 7);
        }
    }
}

#[test]
fn a_child_killed_mid_batch_leaves_every_entry_whole() {
    let dir = temp_dir("seg-crash");
    let path = dir.join("cache.redb");
    let mut next = 0u64;
    for round in 0..3u64 {
        let durable = kill_child_after(
            "cache::tests::segments_tests::segment_crash_child",
            &[
                (CHILD_ENV, path.display().to_string()),
                (START_ENV, next.to_string()),
            ],
            next + 400 + round * 160,
            Duration::from_millis(2 + round * 5),
        );
        let usage = Disk::verify(&path).unwrap_or_else(|e| panic!("round {round}: {e}"));
        let disk = Disk::open(&path, CRASH_CAP).unwrap();
        let mut present = 0;
        for i in 0..=durable + 400 {
            if let Some(bytes) = disk.get(&key(i)).unwrap() {
                assert_eq!(bytes, entry(i), "round {round}: {} whole", key(i));
                present += 1;
            }
        }
        // The last flushed batch is too new to be evicted.
        for i in durable - 6..=durable {
            assert_eq!(
                disk.get(&key(i)).unwrap(),
                Some(entry(i)),
                "round {round}: flushed {} lost",
                key(i)
            );
        }
        eprintln!("round {round}: killed after flush {durable}; {usage:?}, {present} entries read back");
        drop(disk);
        next = durable + 1;
    }
    let _ = std::fs::remove_dir_all(dir);
}
