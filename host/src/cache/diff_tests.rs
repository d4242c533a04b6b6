//! git-diff mode over three versions of a markdown page; the expected texts
//! are what `git diff --no-index` (git 2.47) printed for them, from `@@` on.

use super::*;

const V1: &str = r#"# Release notes

Distill turns web pages into clean markdown.

## Version 1.0

- First public release
- Markdown and HTML formats
- Plugins written in Rust

## Installation

Run the installer, then start the server.
Point your SDK at port 3002.

## Support

Open an issue on the tracker.
Security reports go to the security address.

Thanks for trying Distill."#;
const V2: &str = r#"# Release notes

Distill turns web pages into clean markdown.

## Version 1.1

- First public release
- Markdown and HTML formats
- Plugins written in Rust
- A page cache with change tracking

## Installation

Run the installer, then start the server.
Point your SDK at port 3002.

## Support

Open an issue on the tracker.
Security reports go to the security address.

Thanks for trying Distill."#;
const V3: &str = r#"# Release notes

## Version 1.1

- First public release
- Markdown and HTML formats
- Plugins written in Rust
- A page cache with change tracking

## Installation

Run the installer, then start the server.
Point your SDK at port 3002.

## Support

Open an issue on the tracker.
Security reports go to the security address.

Thanks for trying Distill!
"#;

/// git diff v1 v2
const D12: &str = r#"@@ -2,11 +2,12 @@
 
 Distill turns web pages into clean markdown.
 
-## Version 1.0
+## Version 1.1
 
 - First public release
 - Markdown and HTML formats
 - Plugins written in Rust
+- A page cache with change tracking
 
 ## Installation
 
"#;
/// git diff v2 v3
const D23: &str = r#"@@ -1,7 +1,5 @@
 # Release notes
 
-Distill turns web pages into clean markdown.
-
 ## Version 1.1
 
 - First public release
@@ -19,4 +17,4 @@ Point your SDK at port 3002.
 Open an issue on the tracker.
 Security reports go to the security address.
 
-Thanks for trying Distill.
\ No newline at end of file
+Thanks for trying Distill!
"#;
/// git diff v1 v3
const D13: &str = r#"@@ -1,12 +1,11 @@
 # Release notes
 
-Distill turns web pages into clean markdown.
-
-## Version 1.0
+## Version 1.1
 
 - First public release
 - Markdown and HTML formats
 - Plugins written in Rust
+- A page cache with change tracking
 
 ## Installation
 
@@ -18,4 +17,4 @@ Point your SDK at port 3002.
 Open an issue on the tracker.
 Security reports go to the security address.
 
-Thanks for trying Distill.
\ No newline at end of file
+Thanks for trying Distill!
"#;

#[test]
fn identical_texts_have_no_diff() {
    assert_eq!(git_diff(V1, V1), None);
    assert_eq!(git_diff("", ""), None);
}

#[test]
fn text_matches_git() {
    assert_eq!(git_diff(V1, V2).unwrap().text, D12);
    assert_eq!(git_diff(V2, V3).unwrap().text, D23);
    assert_eq!(git_diff(V1, V3).unwrap().text, D13);
}

#[test]
fn structured_form_is_parse_diff_as_upstream_maps_it() {
    let d = git_diff(V2, V3).unwrap().json;
    let files = d["files"].as_array().unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!((&files[0]["from"], &files[0]["to"]), (&Value::Null, &Value::Null));
    let chunks = files[0]["chunks"].as_array().unwrap();
    assert_eq!(chunks.len(), 2);
    assert_eq!(chunks[0]["content"], "@@ -1,7 +1,5 @@");
    assert_eq!(
        chunks[1]["content"],
        "@@ -19,4 +17,4 @@ Point your SDK at port 3002."
    );
    let first = chunks[0]["changes"].as_array().unwrap();
    assert_eq!(
        first[0],
        json!({"type": "normal", "content": " # Release notes", "normal": true, "ln1": 1, "ln2": 1})
    );
    assert_eq!(
        first[2],
        json!({"type": "del", "content": "-Distill turns web pages into clean markdown.", "del": true, "ln": 3})
    );
    let last = chunks[1]["changes"].as_array().unwrap();
    let n = last.len();
    assert_eq!(
        last[n - 3],
        json!({"type": "del", "content": "-Thanks for trying Distill.", "del": true, "ln": 22})
    );
    assert_eq!(
        last[n - 2],
        json!({"type": "del", "content": "\\ No newline at end of file", "del": true, "ln": 22})
    );
    assert_eq!(
        last[n - 1],
        json!({"type": "add", "content": "+Thanks for trying Distill!", "add": true, "ln": 20})
    );
    // Every line of the text (but the headers) is one change, in order.
    let body: Vec<&str> = D23.lines().filter(|l| !l.starts_with("@@")).collect();
    let contents: Vec<&str> = chunks
        .iter()
        .flat_map(|c| c["changes"].as_array().unwrap())
        .map(|c| c["content"].as_str().unwrap())
        .collect();
    assert_eq!(contents, body);
    assert_eq!(git_diff(V2, V3).unwrap().to_json()["text"], D23);
}

#[test]
fn ranges_and_edges() {
    // Added to an empty text: the old range is "0,0".
    assert_eq!(git_diff("", "a\nb\n").unwrap().text, "@@ -0,0 +1,2 @@\n+a\n+b\n");
    // One line each side: ",1" is left out.
    assert_eq!(git_diff("a\n", "b\n").unwrap().text, "@@ -1 +1 @@\n-a\n+b\n");
    // Only the final newline differs.
    assert_eq!(
        git_diff("a", "a\n").unwrap().text,
        "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"
    );
    assert_eq!(hunk_context(&["x y  \n", "# h\n"], 2).as_deref(), Some("x y"));
    assert_eq!(hunk_context(&["é\n"], 1), None);
    assert_eq!(hunk_context(&[&"w".repeat(100)], 1).unwrap().len(), 80);
}
