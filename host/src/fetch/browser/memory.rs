//! Chromium's memory, read from /proc: the process tree under the browser
//! process and each member's proportional set size (PSS, from
//! `smaps_rollup`: pages shared between Chromium's processes are counted
//! once overall; RSS where PSS cannot be read).

use std::collections::HashMap;

/// One process of the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub pid: u32,
    /// Bytes (PSS, else RSS).
    pub bytes: u64,
    /// A renderer (one page's or site's process), which may be killed alone.
    pub renderer: bool,
}

/// The tree rooted at `root` (the browser process included).
pub fn tree(root: u32) -> Vec<Member> {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            if let Some(ppid) = parent(pid) {
                children.entry(ppid).or_default().push(pid);
            }
        }
    }
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(pid) = stack.pop() {
        let Some(bytes) = resident(pid) else { continue };
        let renderer = std::fs::read(format!("/proc/{pid}/cmdline"))
            .map(|c| c.windows(15).any(|w| w == b"--type=renderer"))
            .unwrap_or(false);
        out.push(Member { pid, bytes, renderer });
        stack.extend(children.get(&pid).into_iter().flatten());
    }
    out
}

/// The tree's total in bytes.
pub fn total(members: &[Member]) -> u64 {
    members.iter().map(|m| m.bytes).sum()
}

/// `pid`'s parent, from /proc/PID/stat (the field after the `)` of the name).
fn parent(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// `pid`'s PSS in bytes, else its RSS; `None` when it is gone.
fn resident(pid: u32) -> Option<u64> {
    let kib = |text: &str, key: &str| {
        text.lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
    };
    if let Ok(rollup) = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
        && let Some(pss) = kib(&rollup, "Pss:")
    {
        return Some(pss * 1024);
    }
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    kib(&status, "VmRSS:").map(|k| k * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_holds_a_child_and_its_memory() {
        let mut child = std::process::Command::new("sleep").arg("5").spawn().unwrap();
        let me = std::process::id();
        let members = tree(me);
        assert_eq!(members[0].pid, me);
        assert!(members.iter().any(|m| m.pid == child.id()), "{members:?}");
        assert!(total(&members) > 1024 * 1024);
        assert!(members.iter().all(|m| !m.renderer));
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
