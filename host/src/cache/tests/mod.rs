//! Store tests against real backends: a redb file in a temporary directory,
//! a child process killed with SIGKILL mid-write, and a real `redis-server`
//! started on a free loopback port.

mod contract;
mod crash;
mod embedded_tests;
mod redis_tests;
mod segments_tests;

use std::path::PathBuf;

/// A fresh directory under the system temp dir, unique per test and process.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("distill-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Deterministic bytes for entry `i` (HTML-like, so compression applies),
/// 1 to ~60 KB long.
pub(crate) fn value_for(i: u64) -> Vec<u8> {
    let len = 1000 + (i.wrapping_mul(2_654_435_761) % 60_000) as usize;
    let line = format!("<p class=\"row-{i}\">entry {i} of the cache test, some words to compress</p>\n");
    line.bytes().cycle().take(len).collect()
}

/// `len` bytes zstd cannot shrink, seeded by `seed`.
pub(crate) fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// Re-runs this test binary's test `name` as a child with `env`, reads the
/// `durable N` lines it prints until N reaches `until`, lets it run `linger`
/// more, kills it with SIGKILL and returns the last N it printed.
pub(crate) fn kill_child_after(
    name: &str,
    env: &[(&str, String)],
    until: u64,
    linger: std::time::Duration,
) -> u64 {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut durable: Option<u64> = None;
    let started = std::time::Instant::now();
    let parse = |line: &str, durable: &mut Option<u64>| {
        if let Some(n) = line.strip_prefix("durable ") {
            *durable = Some(n.parse().unwrap());
        }
    };
    while durable.is_none_or(|d| d < until) {
        parse(&lines.next().expect("child output").unwrap(), &mut durable);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "child too slow"
        );
    }
    std::thread::sleep(linger);
    child.kill().unwrap(); // SIGKILL
    assert!(!child.wait().unwrap().success(), "the child was killed");
    for line in lines.map_while(Result::ok) {
        parse(&line, &mut durable);
    }
    durable.unwrap()
}
