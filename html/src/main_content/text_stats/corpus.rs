//! (tests only) The text statistics over the text nodes of both corpora's pages
//! (`../shared/corpus/*/html/*.html.gz` beside the workspace, or `DISTILL_CORPUS_ROOT`):
//! the SWAR loop against the reference on real texts, and a timing of the loop
//! (`--ignored`, both read every page; the texts are kept in `target/tmp` between runs).

use std::time::Instant;

use dom_query::NodeData;

use super::*;
use crate::dom::{Walker, parse};

/// Where the text nodes of the corpora are kept once gathered (length-prefixed).
const DUMP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/tmp/text-stats-corpus.bin");

/// The text nodes of every corpus page that hold something besides ASCII whitespace.
fn corpus_texts() -> Vec<String> {
    if let Ok(bytes) = std::fs::read(DUMP) {
        let mut texts = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            let n = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            texts.push(String::from_utf8(bytes[at + 4..at + 4 + n].to_vec()).unwrap());
            at += 4 + n;
        }
        return texts;
    }
    let mut texts = Vec::new();
    let root = std::env::var("DISTILL_CORPUS_ROOT")
        .unwrap_or_else(|_| format!("{}/../../shared/corpus", env!("CARGO_MANIFEST_DIR")));
    for corpus in ["articles", "wcxb-dev"] {
        let dir = format!("{root}/{corpus}/html");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("the corpus pages")
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
            .collect();
        files.sort();
        for f in files {
            let mut body = Vec::new();
            std::io::Read::read_to_end(
                &mut flate2::read::GzDecoder::new(std::fs::File::open(&f).unwrap()),
                &mut body,
            )
            .unwrap();
            let html = String::from_utf8_lossy(&body).into_owned();
            let doc = parse(&html);
            for id in Walker::new(&doc.tree, doc.root().id) {
                let text = doc.tree.query_node(&id, |n| match &n.data {
                    NodeData::Text { contents } => Some(contents.to_string()),
                    _ => None,
                });
                if let Some(Some(t)) = text
                    && first_non_space(t.as_bytes()).is_some()
                    && !in_code(&doc, id)
                {
                    texts.push(t);
                }
            }
        }
    }
    let mut out = Vec::new();
    for t in &texts {
        out.extend_from_slice(&(t.len() as u32).to_le_bytes());
        out.extend_from_slice(t.as_bytes());
    }
    let dump = std::path::Path::new(DUMP);
    std::fs::create_dir_all(dump.parent().unwrap()).unwrap();
    std::fs::write(dump, out).unwrap();
    texts
}

/// The counting loop before the SWAR one (byte classes, FNV-1a a byte), for the timing.
mod before {
    use super::super::{HASH_SEED, Text, high_alphanumeric};

    const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

    const SPACE: u8 = 1;
    const PUNCT: u8 = 2;
    const WORD: u8 = 4;
    const HIGH: u8 = 8;

    /// The byte classes, with whitespace as `u8::is_ascii_whitespace` (`vt` false) or as
    /// `char::is_whitespace` (`vt` true: U+000B is whitespace too).
    const fn byte_classes(vt: bool) -> [u8; 256] {
        let mut table = [0u8; 256];
        let mut b = 0;
        while b < 256 {
            let c = b as u8;
            table[b] = if c >= 0x80 {
                HIGH
            } else if c.is_ascii_whitespace() || (vt && c == 0x0b) {
                SPACE
            } else if matches!(c, b'.' | b',' | b';' | b':' | b'!' | b'?') {
                PUNCT
            } else if c.is_ascii_alphanumeric() {
                WORD
            } else {
                0
            };
            b += 1;
        }
        table
    }

    /// Until the first non-ASCII character, whitespace is ASCII's (U+000B counts as a
    /// character); from there on it is Unicode's. (What the statistics have always counted.)
    const ASCII_CLASS: [u8; 256] = byte_classes(false);
    const CHAR_CLASS: [u8; 256] = byte_classes(true);

    #[inline(never)]
    pub(super) fn counts(s: &str, start: usize) -> (u32, u32, u32, u64) {
        let mut t = Text::default();
        let mut h = HASH_SEED;
        let mut in_word = false;
        let b = s.as_bytes();
        let mut table = &ASCII_CLASS;
        // (Leading ASCII whitespace only ends a word that has not begun.)
        let mut i = start;
        while i < b.len() {
            match table[b[i] as usize] {
                WORD => {
                    let run = i;
                    t.words += u32::from(!in_word);
                    // (The first byte is one: the loop reads it again, which keeps the loop's
                    // body to one load and one test a letter.) Eight bytes a step while eight
                    // remain, one bounds test for the eight; then a byte at a time.
                    'run: {
                        while let Some(q) = b.get(i..i + 8) {
                            for (k, &c) in q.iter().enumerate() {
                                if table[c as usize] != WORD {
                                    i += k;
                                    break 'run;
                                }
                                h = (h ^ u64::from(c | 0x20)).wrapping_mul(FNV_PRIME);
                            }
                            i += 8;
                        }
                        while i < b.len() {
                            let c = b[i];
                            if table[c as usize] != WORD {
                                break;
                            }
                            h = (h ^ u64::from(c | 0x20)).wrapping_mul(FNV_PRIME);
                            i += 1;
                        }
                    }
                    t.chars += (i - run) as u32;
                    in_word = true;
                }
                SPACE => {
                    in_word = false;
                    i += 1;
                }
                HIGH => {
                    table = &CHAR_CLASS;
                    let c = s[i..].chars().next().unwrap_or_default();
                    i += c.len_utf8();
                    if c.is_whitespace() {
                        in_word = false;
                        continue;
                    }
                    t.chars += 1;
                    t.punct += u32::from(matches!(c, '。' | '，' | '、' | '！' | '？' | '；'));
                    let word = high_alphanumeric(c);
                    if word {
                        // Not ASCII: lower-casing ASCII leaves it as it is.
                        h = (h ^ u64::from(c)).wrapping_mul(FNV_PRIME);
                        t.words += u32::from(!in_word);
                    }
                    in_word = word;
                }
                class => {
                    t.chars += 1;
                    t.punct += u32::from(class == PUNCT);
                    in_word = false;
                    i += 1;
                }
            }
        }
        (t.chars, t.words, t.punct, h)
    }
}

/// Whether the node `id` sits in the head or in an element whose text is no prose (the
/// arena's walk strips or skips them).
fn in_code(doc: &dom_query::Document, id: dom_query::NodeId) -> bool {
    let mut at = doc.tree.parent_of(&id);
    while let Some(p) = at {
        if let Some(name) = p.qual_name_ref()
            && matches!(
                &*name.local,
                "script" | "style" | "noscript" | "template" | "head" | "svg" | "textarea"
            )
        {
            return true;
        }
        at = p.parent();
    }
    false
}

#[test]
#[ignore = "reads every corpus page; run with --ignored"]
fn corpus_texts_are_counted_as_the_reference_counts_them() {
    let texts = corpus_texts();
    assert!(texts.len() > 100_000, "{}", texts.len());
    // Each reference hash to the new one and back: one-to-one on the corpus's texts.
    let mut to_new = std::collections::HashMap::new();
    let mut to_old = std::collections::HashMap::new();
    for s in &texts {
        let (t, h) = text_stats(s, false, false, false);
        let (chars, words, punct, r) = super::tests::counts_reference(s);
        assert_eq!((t.chars, t.words, t.punct), (chars, words, punct), "{s:?}");
        assert_eq!(*to_new.entry(r).or_insert(h), h, "{s:?}");
        assert_eq!(*to_old.entry(h).or_insert(r), r, "{s:?}");
    }
    // Many texts repeat one another's letters (menus, "Share", "Read more").
    assert!(to_new.len() < texts.len() / 2, "{} {}", to_new.len(), texts.len());
}

/// `TEXT_STATS_ROUNDS` (5) passes over the corpus texts with the counting loop before
/// and the SWAR one; prints the fastest pass's ns a pass, a byte and a text.
#[test]
#[ignore = "a timing over every corpus page; run with --ignored"]
fn time_the_text_statistics_over_the_corpus() {
    let texts = corpus_texts();
    let starts: Vec<usize> = texts
        .iter()
        .map(|t| first_non_space(t.as_bytes()).unwrap())
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let rounds: usize = std::env::var("TEXT_STATS_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let mut sink = 0u64;
    // Windows of about a page's text, each read once first (warm in the cache, as a
    // page's texts are when the arena counts them), then counted once by each loop (their
    // branch predictions not trained on it); the fastest of `rounds` passes over the
    // corpus counts (the machine is shared).
    let (mut old, mut new) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let (mut o, mut n) = (0f64, 0f64);
        let mut at = 0;
        while at < texts.len() {
            let mut end = at;
            let mut size = 0;
            while end < texts.len() && size < 32 << 10 {
                size += texts[end].len();
                end += 1;
            }
            let (window, from) = (&texts[at..end], &starts[at..end]);
            for s in window {
                sink = sink.wrapping_add(s.as_bytes().iter().map(|&b| u64::from(b)).sum::<u64>());
            }
            let t0 = Instant::now();
            for (s, &start) in window.iter().zip(from) {
                let (c, w, p, h) = before::counts(std::hint::black_box(s), start);
                sink = sink.wrapping_add(h ^ u64::from(c + w + p));
            }
            o += t0.elapsed().as_nanos() as f64;
            let t0 = Instant::now();
            for (s, &start) in window.iter().zip(from) {
                let (c, w, p, h) = counts_only(std::hint::black_box(s), start);
                sink = sink.wrapping_add(h ^ u64::from(c + w + p));
            }
            n += t0.elapsed().as_nanos() as f64;
            at = end;
        }
        old = old.min(o);
        new = new.min(n);
    }
    for (name, ns) in [("before", old), ("swar", new)] {
        println!(
            "{name}: {} texts, {} bytes: {:.3} ms a pass, {:.3} ns a byte, {:.1} ns a text",
            texts.len(),
            bytes,
            ns / 1e6,
            ns / bytes as f64,
            ns / texts.len() as f64
        );
    }
    println!("(sink {sink:x})");
}

/// The new counting loop out of line, as the old one is.
#[inline(never)]
fn counts_only(s: &str, start: usize) -> (u32, u32, u32, u64) {
    super::swar::counts(s, start)
}
