//! (tests only) What the check reads of a page's scripts, its fast paths against the rules
//! they stand for: whether a script's `type` runs, and whether a page runs script.

use super::*;

fn page(body: &str) -> String {
    format!("<!DOCTYPE html><html><head><title>A page title here</title></head><body>{body}</body></html>")
}

#[test]
fn a_page_runs_script_whichever_of_its_scripts_does() {
    let empty = |scripts: &str| detect(&page(scripts));
    assert_eq!(empty("<script type=application/ld+json>{}</script>"), None);
    for scripts in [
        "<script type=application/ld+json>{}</script><script>go()</script>",
        "<script>go()</script><script type=application/ld+json>{}</script>",
        "<script type=text/template>x</script><script type=TEXT/JAVASCRIPT>go()</script><script type=text/x>y</script>",
    ] {
        assert_eq!(empty(scripts), Some(Signal::EmptyContent), "{scripts}");
    }
}

#[test]
fn a_scripts_type_runs_as_the_reference_rule_has_it_in_any_case() {
    // The reference's rule: the value decoded, trimmed, lowercased, then compared.
    let rule = |t: &[u8]| {
        let t = String::from_utf8_lossy(t).trim().to_ascii_lowercase();
        t.is_empty() || t == "module" || t.contains("javascript") || t.contains("ecmascript")
    };
    let types: &[&[u8]] = &[
        b"text/javascript",
        b"TEXT/JAVASCRIPT",
        b"Text/JavaScript",
        b" text/javascript ",
        b"text/javascript;charset=utf-8",
        b"text/javascrip",
        b"text/javascriptx",
        b"xtext/javascript",
        b"text/javascr\xc3\xa9pt",
        b"text/javascript\xc2\xa0",
        b"\xc2\xa0text/javascript",
        b"text/java\xffscript",
        b"\xfftext/javascript",
        b"text/\xe2\x80\x83javascript",
        b"application/ld+json",
        b"application/ecmascript",
        b"module",
        b" MODULE\t",
        b"",
        b"   ",
        b"text/template",
    ];
    let mut runs = 0;
    for &t in types {
        for quote in [&b"\""[..], b"'"] {
            let attrs = [&b" src=/a.js type="[..], quote, t, quote, b" async"].concat();
            assert_eq!(
                executable(&attrs),
                rule(t),
                "{:?}",
                String::from_utf8_lossy(&attrs)
            );
            runs += usize::from(rule(t));
        }
    }
    assert!(runs > 10 && runs < 2 * types.len() - 6, "{runs}");
    // Without a type a script runs; the first of two types counts.
    assert!(executable(b" src=/a.js"));
    assert!(!executable(b" type=text/template type=text/javascript"));
    assert!(executable(b" type=text/javascript type=text/template"));
}
