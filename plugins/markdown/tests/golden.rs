//! Golden tests: every `tests/golden/<construct>.html` converts to exactly
//! `tests/golden/<construct>.md` (without the final newline of the file).
//!
//! `UPDATE_GOLDEN=1 cargo test -p distill-markdown --test golden` rewrites the
//! expected files from the current output; review the diff before keeping it.

use distill_markdown::html_to_markdown;
use std::path::{Path, PathBuf};

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    cases.sort();
    cases
}

#[test]
fn golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 20, "golden cases missing: {}", cases.len());
    for html_path in &cases {
        let html = std::fs::read_to_string(html_path).unwrap();
        let actual = html_to_markdown(&html);
        let md_path = html_path.with_extension("md");
        if update {
            std::fs::write(&md_path, format!("{actual}\n")).unwrap();
            continue;
        }
        let expected =
            std::fs::read_to_string(&md_path).unwrap_or_else(|e| panic!("{}: {e}", md_path.display()));
        let expected = expected.strip_suffix('\n').unwrap_or(&expected);
        if actual != expected {
            failures.push(format!(
                "--- {} ---\n{}",
                html_path.file_name().unwrap().to_string_lossy(),
                diff(expected, &actual)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden file(s) differ:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A line diff good enough to read a failure: `-` expected, `+` actual.
fn diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    // Longest common subsequence table over lines.
    let mut lcs = vec![vec![0u32; a.len() + 1]; e.len() + 1];
    for i in (0..e.len()).rev() {
        for j in (0..a.len()).rev() {
            lcs[i][j] = if e[i] == a[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < e.len() || j < a.len() {
        if i < e.len() && j < a.len() && e[i] == a[j] {
            out.push_str(&format!("  {}\n", e[i]));
            i += 1;
            j += 1;
        } else if j < a.len() && (i == e.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push_str(&format!("+ {:?}\n", a[j]));
            j += 1;
        } else {
            out.push_str(&format!("- {:?}\n", e[i]));
            i += 1;
        }
    }
    out
}

/// Output is a fixed point of the post-processing: trimmed, no runs of blank
/// lines outside code, no trailing spaces except hard breaks.
#[test]
fn golden_outputs_are_tidy() {
    for html_path in cases() {
        let md = html_to_markdown(&std::fs::read_to_string(&html_path).unwrap());
        let name = html_path.display();
        assert_eq!(md.trim(), md, "{name}: not trimmed");
        assert!(!md.replace("![](", "").contains("[]("), "{name}: empty link");
        assert!(!md.contains('\u{a0}'), "{name}: no-break space");
        let mut in_code = false;
        for line in md.lines() {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
            }
            if !in_code {
                let trailing = line.len() - line.trim_end().len();
                assert!(
                    trailing == 0 || trailing == 2,
                    "{name}: trailing spaces in {line:?}"
                );
            }
        }
    }
}
