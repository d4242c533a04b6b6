//! changeTracking's `git-diff` mode: the unified diff of two markdown texts
//! as `git diff` prints it from the first `@@` on (what upstream's npm
//! `git-diff` returns: 3 lines of context, `-a,b +c,d` ranges with `,1`
//! omitted, git's default hunk-header context line, `\ No newline at end of
//! file`), and the structured form upstream builds with `parse-diff`
//! (`{files: [{from, to, chunks: [{content, changes: [...]}]}]}`), made here
//! from the same edit script rather than by re-parsing the text.
//! The edit script is Myers' (git's default algorithm); git's extra
//! sliding heuristics may place an ambiguous insertion a line apart.

use serde_json::{Value, json};
use similar::{Algorithm, DiffOp, capture_diff_slices, group_diff_ops};

/// Lines of context around each change (git's default `-U3`).
const CONTEXT: usize = 3;
/// Longest hunk-header context git prints, in bytes.
const FUNC_MAX: usize = 80;
const NO_NEWLINE: &str = "\\ No newline at end of file";

/// `diff` of a changeTracking result in git-diff mode.
#[derive(Debug, Clone, PartialEq)]
pub struct GitDiff {
    /// The unified diff text.
    pub text: String,
    /// `{files: [...]}` as upstream returns it.
    pub json: Value,
}

impl GitDiff {
    /// `{"text": ..., "json": ...}`, upstream's `changeTracking.diff`.
    pub fn to_json(&self) -> Value {
        json!({"text": self.text, "json": self.json})
    }
}

/// The diff of `old` → `new`; `None` when they are identical (git prints nothing).
pub fn git_diff(old: &str, new: &str) -> Option<GitDiff> {
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = capture_diff_slices(Algorithm::Myers, &a, &b);
    let groups = group_diff_ops(ops, CONTEXT);
    if groups.is_empty() {
        return None;
    }
    let mut text = String::new();
    let mut chunks = Vec::new();
    for group in &groups {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let (o0, n0) = (first.old_range().start, first.new_range().start);
        let (o1, n1) = (last.old_range().end, last.new_range().end);
        let mut header = format!("@@ -{} +{} @@", range(o0, o1 - o0), range(n0, n1 - n0));
        if let Some(func) = hunk_context(&a, o0) {
            header.push(' ');
            header.push_str(&func);
        }
        text.push_str(&header);
        text.push('\n');
        let mut changes = Vec::new();
        let mut emit = |kind: Kind, line: &str, ln_old: usize, ln_new: usize| {
            let body = line.strip_suffix('\n').unwrap_or(line);
            let marker = match kind {
                Kind::Normal => ' ',
                Kind::Add => '+',
                Kind::Del => '-',
            };
            let content = format!("{marker}{body}");
            text.push_str(&content);
            text.push('\n');
            let change = change_json(kind, &content, ln_old, ln_new);
            changes.push(change.clone());
            if !line.ends_with('\n') {
                text.push_str(NO_NEWLINE);
                text.push('\n');
                // parse-diff repeats the previous change's type and numbers.
                let mut eof = change;
                eof["content"] = NO_NEWLINE.into();
                changes.push(eof);
            }
        };
        // git prints each run of changes as its deletions, then its additions.
        let (mut dels, mut adds) = (Vec::new(), Vec::new());
        for op in group {
            if let DiffOp::Equal { .. } = op {
                for (i, j) in dels.drain(..).chain(adds.drain(..)) {
                    emit_change(&mut emit, &a, &b, i, j);
                }
                for (i, j) in op.old_range().zip(op.new_range()) {
                    emit(Kind::Normal, a[i], i + 1, j + 1);
                }
            } else {
                dels.extend(op.old_range().map(|i| (Some(i), None)));
                adds.extend(op.new_range().map(|j| (None, Some(j))));
            }
        }
        for (i, j) in dels.drain(..).chain(adds.drain(..)) {
            emit_change(&mut emit, &a, &b, i, j);
        }
        chunks.push(json!({"content": header, "changes": changes}));
    }
    let json = json!({"files": [{"from": null, "to": null, "chunks": chunks}]});
    Some(GitDiff { text, json })
}

#[derive(Clone, Copy)]
enum Kind {
    Normal,
    Add,
    Del,
}

/// Emits a deleted (`i`) or added (`j`) line.
fn emit_change(
    emit: &mut impl FnMut(Kind, &str, usize, usize),
    a: &[&str],
    b: &[&str],
    i: Option<usize>,
    j: Option<usize>,
) {
    match (i, j) {
        (Some(i), _) => emit(Kind::Del, a[i], i + 1, 0),
        (None, Some(j)) => emit(Kind::Add, b[j], 0, j + 1),
        (None, None) => {}
    }
}

/// One change as upstream maps parse-diff's output.
fn change_json(kind: Kind, content: &str, ln_old: usize, ln_new: usize) -> Value {
    match kind {
        Kind::Normal => {
            json!({"type": "normal", "content": content, "normal": true, "ln1": ln_old, "ln2": ln_new})
        }
        Kind::Add => json!({"type": "add", "content": content, "add": true, "ln": ln_new}),
        Kind::Del => json!({"type": "del", "content": content, "del": true, "ln": ln_old}),
    }
}

/// git's range: `start,count`, `start` alone when count is 1, and the line
/// before the range when it is empty.
fn range(start0: usize, count: usize) -> String {
    match count {
        0 => format!("{start0},0"),
        1 => format!("{}", start0 + 1),
        n => format!("{},{n}", start0 + 1),
    }
}

/// git's default hunk-header context: the nearest line above the hunk that
/// starts with an ASCII letter, `_` or `$`, trailing whitespace trimmed, at
/// most 80 bytes.
fn hunk_context(a: &[&str], hunk_start0: usize) -> Option<String> {
    a[..hunk_start0.min(a.len())].iter().rev().find_map(|line| {
        let first = line.bytes().next()?;
        if !(first.is_ascii_alphabetic() || first == b'_' || first == b'$') {
            return None;
        }
        let trimmed = line.trim_end_matches(|c: char| c.is_ascii_whitespace());
        let mut end = trimmed.len().min(FUNC_MAX);
        while !trimmed.is_char_boundary(end) {
            end -= 1;
        }
        Some(trimmed[..end].to_string())
    })
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod tests;
