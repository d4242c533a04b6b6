//! kill -9 in the middle of writes: this test binary re-runs itself as a
//! child (`crash_writer_child`, inert without its environment variable)
//! that commits entries in a loop, flushes every 25 and prints each flush;
//! the parent kills it with SIGKILL at a varying point, then checks the file
//! (redb's integrity check, every entry decodes, totals match), that every
//! entry flushed before the kill is there with its exact bytes, and that
//! whatever else survived is whole. Three rounds on the same file, each
//! redoing what was not flushed.

use super::{kill_child_after, temp_dir};
use crate::cache::codec;
use crate::cache::disk::Disk;
use std::path::Path;
use std::time::Duration;

const CHILD_ENV: &str = "DISTILL_CACHE_CRASH_CHILD";
const START_ENV: &str = "DISTILL_CACHE_CRASH_START";

/// Entry `i`'s bytes: 1 to 60 KB that zstd cannot shrink, so every commit
/// writes that much.
fn value_for(i: u64) -> Vec<u8> {
    super::noise(i, 1000 + (i.wrapping_mul(7919) % 59_000) as usize)
}

fn key(i: u64) -> String {
    format!("k{i:06}")
}

/// Entry `i` is deleted once entry `i + 5` is written, for `i % 10 == 0`.
fn deleted(i: u64, durable: u64) -> bool {
    i.is_multiple_of(10) && i + 5 <= durable
}

/// The child's loop (runs only when re-executed by the test below).
#[test]
fn crash_writer_child() {
    let (Ok(path), Ok(start)) = (std::env::var(CHILD_ENV), std::env::var(START_ENV)) else {
        return;
    };
    let start: u64 = start.parse().unwrap();
    let disk = Disk::open(Path::new(&path), 1 << 30).unwrap();
    for i in start.. {
        disk.put(&key(i), &codec::encode(&value_for(i), i as i64, i64::MAX))
            .unwrap();
        if i % 10 == 5 {
            disk.delete(&key(i - 5)).unwrap();
        }
        if i % 25 == 24 {
            disk.flush().unwrap();
            println!("durable {i}");
        }
    }
}

#[test]
fn embedded_store_survives_kill_9_mid_write() {
    let dir = temp_dir("crash");
    let path = dir.join("cache.redb");
    let mut next = 0u64;
    for round in 0..3u64 {
        // Let it commit a while (more each round), then kill it mid-loop.
        let durable = kill_child_after(
            "cache::tests::crash::crash_writer_child",
            &[
                (CHILD_ENV, path.display().to_string()),
                (START_ENV, next.to_string()),
            ],
            next + 100 + round * 50,
            Duration::from_millis(3 + round * 7),
        );

        let usage = Disk::verify(&path).unwrap_or_else(|e| panic!("round {round}: {e}"));
        eprintln!("round {round}: killed after flush {durable}; reopened with {usage:?}");
        let disk = Disk::open(&path, 1 << 30).unwrap();
        let mut extra = 0;
        for i in 0..=durable + 200 {
            let got = disk.get(&key(i)).unwrap();
            if let Some(bytes) = &got {
                assert_eq!(
                    codec::decode(bytes).unwrap().value,
                    value_for(i),
                    "{} is whole",
                    key(i)
                );
                extra += usize::from(i > durable);
            }
            if i > durable {
                continue;
            }
            if deleted(i, durable) {
                assert!(got.is_none(), "round {round}: {} should be deleted", key(i));
            } else if !i.is_multiple_of(10) {
                assert!(got.is_some(), "round {round}: flushed {} lost", key(i));
            }
        }
        eprintln!("round {round}: {extra} entries past the last flush survived");
        // Still writable.
        disk.put("after-crash", &codec::encode(b"ok", 0, i64::MAX))
            .unwrap();
        assert!(disk.delete("after-crash").unwrap());
        // The next round redoes everything after the last flush.
        next = durable + 1;
    }
    let _ = std::fs::remove_dir_all(dir);
}
