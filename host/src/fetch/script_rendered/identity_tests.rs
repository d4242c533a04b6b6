//! The byte-reading check against the reference (the `str` reader it replaced): the same
//! facts (script runs, visible characters, empty mount, noscript notice) and so the same
//! signal, on every page of the corpora beside the repository (when present) and on
//! random pages built from tricky pieces (any case, stray quotes, Unicode and invalid
//! bytes, unclosed elements). The shortcut for pages without `<script` is held to the full
//! scan on all of them too.

use super::{detect_bytes, facts, pieced_bodies, reference, script_tag::has_script_tag};
use crate::test_corpus::{gunzip, pages as corpus_pages};

fn same(body: &[u8]) -> Result<(), String> {
    let (new, old) = (facts(body), reference::facts(body));
    // What `detect_bytes`' shortcut takes for granted: without `<script` no script runs.
    if !has_script_tag(body) && new.0 {
        return Err(format!("a script runs without `<script`: facts {new:?}"));
    }
    let (sig_new, sig_old) = (
        detect_bytes(body).map(|s| s.name()),
        reference::detect_bytes(body).map(|s| s.name()),
    );
    if new == old && sig_new == sig_old {
        Ok(())
    } else {
        Err(format!(
            "facts {new:?} vs reference {old:?}, signal {sig_new:?} vs {sig_old:?}"
        ))
    }
}

#[test]
fn every_corpus_page_gets_the_reference_answer() {
    let pages = corpus_pages();
    if pages.is_empty() {
        eprintln!("no corpus beside the checkout: skipped");
        return;
    }
    let mut signals = 0;
    for path in &pages {
        let body = gunzip(path);
        if let Err(e) = same(&body) {
            panic!("{}: {e}", path.display());
        }
        // Each page's head and a cut through its middle too (a body that ends mid-tag).
        for cut in [body.len() / 8, body.len() / 2 + 7] {
            if let Err(e) = same(&body[..cut]) {
                panic!("{} cut at {cut}: {e}", path.display());
            }
        }
        signals += usize::from(detect_bytes(&body).is_some());
    }
    eprintln!("{} pages, {signals} look script-rendered", pages.len());
}

/// Pieces random pages are made of: markup the reader treats specially, written oddly.
const PIECES: &[&[u8]] = &[
    b"<html>",
    b"<head>",
    b"</head>",
    b"<body>",
    b"<BODY class=x>",
    b"<bodyx>",
    b"</body>",
    b"<script>",
    b"<script type=module>",
    b"<SCRIPT TYPE='Text/JavaScript'>",
    b"<script type=\"application/ld+json\">",
    b"<script type=\" \">",
    b"<script type=\xc2\xa0>",
    b"<script type = x>",
    b"<script ttype=x type=y>",
    b"</script>",
    b"</SCRIPT >",
    b"</scripty>",
    b"<style>",
    b"</style>",
    b"<title>",
    b"</title>",
    b"<template>",
    b"</template>",
    b"<textarea>",
    b"</textarea>",
    b"<xmp>",
    b"</xmp>",
    b"<noscript>",
    b"</noscript>",
    b"<NoScript>",
    b"Please enable JavaScript",
    b"ENABLE \xc2\xa0JAVASCRIPT",
    b"javascript is required",
    b"<header>",
    b"</header>",
    b"<nav>",
    b"</NAV>",
    b"<footer>",
    b"</footer>",
    b"<aside>",
    b"</aside>",
    b"<div id=root>",
    b"<div id=\"app\">",
    b"<div ID=app>",
    b"<div iD='__next'>",
    b"<div id=\xe2\x80\x83root\xe2\x80\x83>",
    b"<div id=\"\x0broot\">",
    b"<div class='x id=app'>",
    b"<div ID=\"root\">",
    b"<DIV Id = 'app'>",
    b"<div class=\"a\"id=app>",
    b"<div/id=root>",
    b"<div id id=root>",
    b"<div id=x ID=root>",
    b"<div title='id=root'>",
    b"<div x=a=' id=root '>",
    b"<div =id=root>",
    b"<div id\xc2\xa0=root>",
    b"<SCRIPT Type=\"application/json\" TYPE=text/javascript>",
    b"<script data-type=json>",
    b"<div data-id=root>",
    b"<div\tid\n=\n__nuxt>",
    b"<div id=___gatsby/>",
    b"<div id=root />",
    b"<div id=root /\xc2\xa0>",
    b"<app-root>",
    b"</app-root>",
    b"<APP-ROOT>",
    b"<div>",
    b"</div>",
    b"<DIV>",
    b"<p>",
    b"</p>",
    b"<a href=\"/x>y\">",
    b"</a>",
    b"<img alt='it\"s'>",
    b"<link href=\xe2\x80\x9d/a\">",
    b"<meta content=\"<script>\">",
    b"<a title=x\"y>",
    b"<!-- c -->",
    b"<!-- <body> ",
    b"-->",
    b"<!DOCTYPE html>",
    b"<?xml ?>",
    b"</ x>",
    b"<",
    b" < ",
    b"<3",
    b">",
    b"\"",
    b"'",
    b"=",
    b"/",
    b"Loading...",
    b"Some words of visible text. ",
    b"A longer run of visible text that adds up to many characters quickly enough. ",
    b" \t\n\r\x0b\x0c ",
    b"\xc2\xa0\xe2\x80\x80\xe3\x80\x80\xc2\x85",
    b"caf\xc3\xa9 na\xc3\xafve",
    b"\xff",
    b"\xc3",
    b"\xe2\x80",
    b"\xed\xa0\x80",
    b"\xf0\x9f\x98\x80",
    b"\xef\xbb\xbf",
    b"<d\xffv id=root>",
    b"</d\xfev>",
    b"<\xc3\xa9>",
    b"<a\xc3>",
    b"</a\xc4>",
    b"<div id=\"\xff",
    b"\0",
    b"<div\0id=root>",
    b"<scr\0ipt>",
    b"<script>var s = '</script';",
    b"<script>if (a<b && c </ d) {}",
    b"</script\0>",
    b"<!---->",
    b"<!-->",
    b"--!>",
    b"<style>a>b{}",
];

#[test]
fn random_pages_get_the_reference_answer() {
    for (round, page) in pieced_bodies(0x9e37_79b9_7f4a_7c15, PIECES, 1..41, 200_000).enumerate() {
        if let Err(e) = same(&page) {
            panic!("round {round}: {e}\n{}", String::from_utf8_lossy(&page));
        }
    }
}

#[test]
fn hostile_pages_get_the_reference_answer() {
    let huge = "a=b ".repeat(5000);
    let long_text = "word ".repeat(300);
    let pages: Vec<Vec<u8>> = vec![
        // Unclosed comments, scripts, styles, attributes, tags.
        b"<html><body><script src=a.js></script><!-- never closed <p>text</p>".to_vec(),
        b"<html><body><div id=root></div><script>never closed".to_vec(),
        b"<html><head><style>body{} <body><p>not the body</p>".to_vec(),
        b"<html><body><div id=\"root><p>inside the value</p><script></script>".to_vec(),
        b"<html><body><p>unclosed tag <script src=x".to_vec(),
        // An end tag spelled inside a script's string, and in other cases.
        b"<body><script>var s = '</scr' + 'ipt>'; document.write('</SCRIPT >')</script><p>x</p>".to_vec(),
        b"<body><script>var t = \"</script>\"; more()</script><div id=app></div>".to_vec(),
        // A huge attribute source, with and without the mount id at its end.
        format!("<body><div class=\"{huge}\" id=root></div><script></script>").into_bytes(),
        format!("<body><div {huge}id=root></div><script></script>").into_bytes(),
        format!("<body><div {huge} id=root></div><script></script>").into_bytes(),
        format!("<body><div title='{huge}>' id='app'></div><script></script>").into_bytes(),
        // NUL bytes and bytes that are not UTF-8, in text, names, values and scripts.
        b"<body>\0\0\0<div id=root>\0</div><script>\0</script>".to_vec(),
        b"<body><p>\xff\xfe\xfd caf\xe9 \xc3</p><div id=\"\xffroot\"></div><script></script>".to_vec(),
        b"<body><d\xffv id=app></d\xffv><script type=\"\xff\"></script>".to_vec(),
        b"\xef\xbb\xbf<body><noscript>\xe2\x80\x83Enable\xc2\xa0JavaScript</noscript><script></script>"
            .to_vec(),
        // Past the text that decides, the scan stops.
        format!("<body><p>{long_text}</p><div id=root></div><script></script>").into_bytes(),
    ];
    // The mount id's name at every offset across the pre-check's 16-byte steps, spelled
    // `id`, `iD`, `Id` and `ID`, its `i` and `d` apart, in sources of every length.
    let mut pages = pages;
    for pad in 0..40 {
        for name in ["id", "iD", "Id", "ID", "i d", "i"] {
            let filler = "x".repeat(pad);
            for attrs in [
                format!("{filler} {name}=root"),
                format!(" {name} = 'app' {filler}"),
                format!("class=\"{filler}\"{name}=__next"),
                format!("{filler}{name}"),
            ] {
                pages.push(format!("<body><div {attrs}></div><script></script>").into_bytes());
            }
        }
    }
    for (i, page) in pages.iter().enumerate() {
        for cut in [page.len(), page.len() / 2, page.len() / 3 + 1] {
            if let Err(e) = same(&page[..cut]) {
                panic!("page {i} cut at {cut}: {e}");
            }
        }
    }
}

#[test]
fn visible_characters_are_counted_as_the_decoded_text_counts_them() {
    const BYTES: &[u8] = b" \t\n\x0b\x0c\r\x08\x0e\x1f\x20!a~\x7f\xc2\xa0\x85\xe3\x80\xff";
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..100_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = (state % 40) as usize;
        // Half the texts ASCII only (the first 14 bytes), half with the rest.
        let alphabet = if state & 1 == 0 { &BYTES[..14] } else { BYTES };
        let text: Vec<u8> = (0..len)
            .map(|i| alphabet[((state >> (i % 50)) as usize + i * 7) % alphabet.len()])
            .collect();
        let decoded = String::from_utf8_lossy(&text);
        let expected = decoded.chars().filter(|c| !c.is_whitespace()).count();
        assert_eq!(super::visible::visible_chars(&text), expected, "{text:?}");
    }
}
