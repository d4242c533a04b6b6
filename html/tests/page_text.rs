//! A page decoded into the parse's own buffer (`PageText`) parses to the same page as its
//! decoded `String` does: same metadata, same cleaned HTML, tokens, links and images,
//! whatever the charset, byte order marks and line ends.

use distill_html::{CleanOptions, PageText, ParsedPage, decode_html};
use url::Url;

const MAIN: CleanOptions = CleanOptions {
    only_main_content: true,
    include_tags: &[],
    exclude_tags: &[],
};

/// Everything a scrape reads from a parsed page, as text.
fn outputs(page: ParsedPage) -> String {
    let metadata = serde_json::to_string(&page.metadata()).unwrap();
    let cleaned = page.into_clean(&MAIN).unwrap();
    let (ops, text) = cleaned.tokens();
    format!(
        "{metadata}\n{}\n{ops:?}\n{text}\n{:?}\n{:?}",
        cleaned.html(),
        cleaned.links(),
        cleaned.images()
    )
}

/// Asserts `body` gives the same outputs through `PageText` as through `decode_html`,
/// and the same text.
fn assert_same(body: &[u8], content_type: Option<&str>) {
    let url = Url::parse("https://example.com/a/page").unwrap();
    let decoded = decode_html(body, content_type);
    let text = PageText::decode(body, content_type);
    assert_eq!(text.len(), decoded.len());
    let html = text.open();
    assert_eq!(html.raw(), decoded, "the page as received");
    let via_string = outputs(ParsedPage::parse(&decoded, &url));
    let via_text = outputs(ParsedPage::parse_html(&html, &url));
    assert_eq!(via_text, via_string, "{:?}", String::from_utf8_lossy(body));
    // The page is still there after the parse, and a second parse of it is the same.
    assert_eq!(html.raw(), decoded);
    assert_eq!(outputs(ParsedPage::parse_html(&html, &url)), via_string);
}

fn page(body: &str) -> String {
    format!(
        "<html><head><title>Title é</title><meta name=description content=\"d\"></head><body>\
         <nav><a href=/nav>nav</a></nav><article><h1>Head</h1><p>{body}</p>\
         <p><a href=rel>link</a> <img src=i.png></p></article></body></html>"
    )
}

#[test]
fn utf8_pages_parse_the_same_from_the_buffer() {
    assert_same(
        page("Plain text &amp; a reference, long enough to be shared").as_bytes(),
        None,
    );
    assert_same(
        page("Déjà vu — UTF-8 declared").as_bytes(),
        Some("text/html; charset=utf-8"),
    );
    // Short pages (held inline in the buffer) and an empty one.
    assert_same(b"<p>x</p>", None);
    assert_same(b"", None);
}

#[test]
fn byte_order_marks_and_carriage_returns_are_handled_as_before() {
    let body = page("after a mark");
    // One mark: the decoder strips it.
    assert_same(&[b"\xEF\xBB\xBF", body.as_bytes()].concat(), None);
    // Two: the decoder strips one, the tokenizer the other.
    assert_same(&[b"\xEF\xBB\xBF\xEF\xBB\xBF", body.as_bytes()].concat(), None);
    // A mark and nothing else.
    assert_same(b"\xEF\xBB\xBF\xEF\xBB\xBF", None);
    // CR LF and lone CR line ends are normalised for the parse (in the one copy), and
    // given back as they were: first, last, doubled, CR CR LF, LF CR.
    let crlf = page("one\r\ntwo\rthree\r\n\r\n\r\r\nfour\n\rfive").replace('>', ">\r\n");
    assert_same(crlf.as_bytes(), None);
    assert_same(&[b"\r\n", crlf.as_bytes(), b"\r"].concat(), None);
    assert_same(&[b"\xEF\xBB\xBF\xEF\xBB\xBF", crlf.as_bytes()].concat(), None);
    assert_same(b"\r", None);
    assert_same(b"\r\n\r\r", None);
    // In <pre> and <textarea>, where a first newline is dropped.
    assert_same(b"<pre>\r\nkept\r\n</pre><textarea>\r\r\nx</textarea>", None);
}

#[test]
fn legacy_charsets_decode_the_same() {
    // Declared in the header, in a <meta>, and undeclared (the detector's guess).
    let latin = b"<html><head><title>Caf\xE9</title></head><body><article><p>Cr\xE8me br\xFBl\xE9e \
                  and more words for a paragraph</p></article></body></html>";
    assert_same(latin, Some("text/html; charset=windows-1252"));
    let meta = [b"<meta charset=iso-8859-1>".as_slice(), latin].concat();
    assert_same(&meta, None);
    assert_same(latin, None);
    // UTF-16 by its byte order mark.
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(page("sixteen").encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    assert_same(&utf16, None);
}

#[test]
fn a_converters_html_becomes_page_text() {
    let html = page("from a converter");
    let text = PageText::from(html.clone());
    assert_eq!(text.len(), html.len());
    assert!(!text.is_empty());
    assert!(PageText::default().is_empty());
    assert_eq!(text.open().raw(), html);
}

/// Every page of a corpus directory of gzipped HTML (`DISTILL_CORPUS_HTML`), both ways.
#[test]
#[ignore = "needs DISTILL_CORPUS_HTML, a directory of .html.gz pages"]
fn corpus_pages_parse_the_same_from_the_buffer() {
    use std::io::Read;
    let dir = std::env::var("DISTILL_CORPUS_HTML").expect("DISTILL_CORPUS_HTML");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let mut body = Vec::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
            .read_to_end(&mut body)
            .unwrap();
        assert_same(&body, Some("text/html"));
        n += 1;
    }
    assert!(n > 0);
    eprintln!("{n} pages the same");
}
