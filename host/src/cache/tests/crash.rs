//! kill -9 in the middle of writes: this test binary re-runs itself as a
//! child (`crash_writer_child`, inert without its environment variable)
//! that commits entries in a loop and prints each acknowledged commit; the
//! parent kills it with SIGKILL at a varying point, then checks the file
//! (redb's integrity check, every entry decodes, totals match) and that
//! every acknowledged commit is there with its exact bytes. Three rounds on
//! the same file, each continuing where the last stopped.

use super::{temp_dir, value_for};
use crate::cache::codec;
use crate::cache::disk::Disk;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHILD_ENV: &str = "DISTILL_CACHE_CRASH_CHILD";
const START_ENV: &str = "DISTILL_CACHE_CRASH_START";

fn key(i: u64) -> String {
    format!("k{i:06}")
}

/// Entry `i` is deleted once entry `i + 5` is written, for `i % 10 == 0`.
fn deleted(i: u64, acked: u64) -> bool {
    i.is_multiple_of(10) && i + 5 <= acked
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
        println!("committed {i}");
    }
}

#[test]
fn embedded_store_survives_kill_9_mid_write() {
    let dir = temp_dir("crash");
    let path = dir.join("cache.redb");
    let exe = std::env::current_exe().unwrap();
    let mut next = 0u64;
    for round in 0..3u64 {
        let mut child = Command::new(&exe)
            .args([
                "cache::tests::crash::crash_writer_child",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, &path)
            .env(START_ENV, next.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut acked: Option<u64> = None;
        let started = Instant::now();
        // Let it commit a while (more each round), then kill it mid-loop.
        let wanted = 60 + round * 45;
        while acked.is_none_or(|a| a < next + wanted) {
            let line = lines.next().expect("child output").unwrap();
            if let Some(n) = line.strip_prefix("committed ") {
                acked = Some(n.parse().unwrap());
            }
            assert!(started.elapsed() < Duration::from_secs(120), "child too slow");
        }
        std::thread::sleep(Duration::from_millis(3 + round * 7));
        child.kill().unwrap(); // SIGKILL
        let status = child.wait().unwrap();
        assert!(!status.success(), "the child was killed");
        for line in lines.map_while(Result::ok) {
            if let Some(n) = line.strip_prefix("committed ") {
                acked = Some(n.parse().unwrap());
            }
        }
        let acked = acked.unwrap();

        let usage = Disk::verify(&path).unwrap_or_else(|e| panic!("round {round}: {e}"));
        eprintln!("round {round}: killed after commit {acked}; reopened with {usage:?}");
        let disk = Disk::open(&path, 1 << 30).unwrap();
        for i in 0..=acked {
            let got = disk.get(&key(i)).unwrap();
            if deleted(i, acked) {
                assert!(got.is_none(), "round {round}: {} should be deleted", key(i));
            } else {
                let got = got.unwrap_or_else(|| panic!("round {round}: acknowledged {} lost", key(i)));
                assert_eq!(codec::decode(&got).unwrap().value, value_for(i));
            }
        }
        // At most the commit in flight got in after the last acknowledgement.
        if let Some(extra) = disk.get(&key(acked + 1)).unwrap() {
            assert_eq!(codec::decode(&extra).unwrap().value, value_for(acked + 1));
        }
        assert!(disk.get(&key(acked + 2)).unwrap().is_none());
        assert!(usage.entries > 0);
        // Still writable.
        disk.put("after-crash", &codec::encode(b"ok", 0, i64::MAX))
            .unwrap();
        assert!(disk.delete("after-crash").unwrap());
        // The next round redoes the commit that was in flight.
        next = acked + 1;
    }
    let _ = std::fs::remove_dir_all(dir);
}
