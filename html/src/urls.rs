//! URL helpers shared by cleaning, links, images and metadata: `<base href>` resolution,
//! lenient joining and credential stripping (WHATWG semantics via the `url` crate).

use dom_query::Document;
use url::Url;

use crate::dom::{Walker, attr, is, local_name, with_element};

/// Resolution base of a document: its first `<base href>` (anywhere, document order) joined to
/// `page_url`, or `page_url` itself when there is none or it cannot be joined. The flag tells
/// whether the document has any `<base>` element at all.
pub(crate) fn document_base(doc: &Document, page_url: &Url) -> (Url, bool) {
    let tree = &doc.tree;
    let mut any_base = false;
    let href = Walker::new(tree, doc.root().id).find_map(|id| {
        with_element(tree, id, |el| {
            if !is(el, &local_name!("base")) {
                return None;
            }
            any_base = true;
            attr(el, &local_name!("href")).map(str::to_string)
        })
        .flatten()
    });
    let base = href
        .and_then(|href| page_url.join(&href).ok())
        .unwrap_or_else(|| page_url.clone());
    (base, any_base)
}

/// `base.join(href)` as a string, or `None` when the reference cannot be parsed. An
/// absolute URL already in the form the parser would write ([`canonical_http_url`]) is
/// that string itself (no parse).
pub(crate) fn join(base: &Url, href: &str) -> Option<String> {
    if canonical_http_url(href) {
        return Some(href.to_string());
    }
    if let Some(joined) = join_path_absolute(base, href) {
        return Some(joined);
    }
    base.join(href).ok().map(String::from)
}

/// `base.join(href)` for a path-absolute `href` (`/a/b?c#d`, not `//host/…`) on an
/// `http`/`https` base, when the parser keeps every byte of `href` ([`canonical_tail`]):
/// the base's scheme and authority (credentials and port included), then `href`. (A
/// page's links are mostly such paths: no parse for them.)
fn join_path_absolute(base: &Url, href: &str) -> Option<String> {
    let b = href.as_bytes();
    if b.first() != Some(&b'/') || b.get(1) == Some(&b'/') || !matches!(base.scheme(), "http" | "https") {
        return None;
    }
    if !canonical_tail(b) {
        return None;
    }
    let authority = &base[..url::Position::BeforePath];
    let mut out = String::with_capacity(authority.len() + href.len());
    out.push_str(authority);
    out.push_str(href);
    Some(out)
}

/// Whether `href` is an `http`/`https` URL that `Url::parse` would serialise unchanged:
/// a host of dot-separated non-empty labels of lower-case ASCII letters, digits and `-`
/// (no `xn--` label, the last one starting with a letter: not read as IPv4), no port or
/// credentials, then a `/` and only bytes that no part of the URL percent-encodes or
/// rewrites (no space, quote, `<`, `>`, backslash, backtick, braces, `^`, `|`, `[`, `]`,
/// control or non-ASCII byte), no segment starting with `.` and no `%2e` (dot segments
/// are resolved). A sufficient condition only, checked against `Url::parse` in the tests.
fn canonical_http_url(href: &str) -> bool {
    let Some(rest) = href
        .strip_prefix("https://")
        .or_else(|| href.strip_prefix("http://"))
    else {
        return false;
    };
    let Some(host_len) = rest.bytes().position(|b| b == b'/') else {
        return false;
    };
    let (host, tail) = rest.as_bytes().split_at(host_len);
    let mut labels = host.split(|&b| b == b'.');
    let last = labels.next_back().unwrap_or_default();
    let fine = |label: &[u8]| {
        let punycode = label.starts_with(b"xn--");
        !label.is_empty()
            && !punycode
            && label
                .iter()
                .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    if !(fine(last) && last[0].is_ascii_lowercase() && labels.all(fine)) {
        return false;
    }
    canonical_tail(tail)
}

/// Bytes that no part of an `http`/`https` URL percent-encodes or rewrites.
const PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'/'
                    | b'?'
                    | b'#'
                    | b'%'
            );
        b += 1;
    }
    t
};

/// Whether an `http`/`https` URL's part from its path on (`/`, or `?`/`#`, onwards) is
/// kept byte for byte by the parser: only [`PLAIN`] bytes, no path segment starting with
/// `.` and no `%2e` in the path (dot segments are resolved). One pass: a table look-up a
/// byte, the dot tests at `/` and `%` until the path ends.
fn canonical_tail(tail: &[u8]) -> bool {
    let mut in_path = true;
    for (i, &b) in tail.iter().enumerate() {
        if !PLAIN[usize::from(b)] {
            return false;
        }
        if in_path {
            match b {
                b'?' | b'#' => in_path = false,
                b'/' if tail.get(i + 1) == Some(&b'.') => return false,
                b'%' if tail.get(i + 1) == Some(&b'2')
                    && tail.get(i + 2).is_some_and(|&c| c | 0x20 == b'e') =>
                {
                    return false;
                }
                _ => {}
            }
        }
    }
    true
}

/// Removes `user:pass@` from a URL.
pub(crate) fn strip_credentials(mut url: Url) -> Url {
    if !url.username().is_empty() || url.password().is_some() {
        // Only fails for URLs that cannot carry credentials, which then have none.
        let _ = url.set_username("");
        let _ = url.set_password(None);
    }
    url
}

/// True when a parsed URL carries `user` or `user:pass`.
pub(crate) fn has_credentials(url: &Url) -> bool {
    !url.username().is_empty() || url.password().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse;

    fn page() -> Url {
        Url::parse("https://example.com/dir/page.html?q=1#frag").unwrap()
    }

    #[test]
    fn base_defaults_to_page_url() {
        let doc = parse("<p>x</p>");
        assert_eq!(document_base(&doc, &page()), (page(), false));
    }

    #[test]
    fn relative_base_is_resolved_against_page() {
        let doc = parse("<head><base href='/static/'><base href='/other/'></head>");
        assert_eq!(
            document_base(&doc, &page()).0.as_str(),
            "https://example.com/static/"
        );
    }

    #[test]
    fn base_without_href_is_skipped() {
        let doc = parse("<head><base target='_blank'><base href='https://cdn.example/x/'></head>");
        assert_eq!(
            document_base(&doc, &page()),
            (Url::parse("https://cdn.example/x/").unwrap(), true)
        );
    }

    #[test]
    fn unjoinable_base_falls_back() {
        let doc = parse("<head><base href='http://[bad'></head>");
        assert_eq!(document_base(&doc, &page()), (page(), true));
    }

    /// Pieces of a URL's tail: plain bytes, every byte the parser encodes or rewrites, dot
    /// segments.
    const TAIL: &[&str] = &[
        "/",
        "?",
        "#",
        "a",
        "Z",
        ".",
        "..",
        "/.",
        "/..",
        "%2e",
        "%2E",
        "%41",
        "%",
        " ",
        "\"",
        "'",
        "<",
        ">",
        "`",
        "{",
        "}",
        "^",
        "|",
        "[",
        "]",
        "\\",
        "\t",
        "\n",
        "~",
        "!",
        "$",
        "&",
        "(",
        ")",
        "*",
        "+",
        ",",
        ";",
        "=",
        ":",
        "@",
        "\u{e9}",
        "\u{7f}",
        "index.html",
        "x=1",
        ".hidden",
    ];

    /// The fast path says yes only where `Url::parse` gives the same string back, and
    /// `join` with any base gives it too.
    #[test]
    fn canonical_http_urls_serialise_unchanged() {
        const LABEL: &[&str] = &[
            "a", "z", "com", "ab-c", "x9", "-", "0", "9", "80", "0x", "xn--a", "Q", "\u{e9}", "_", "",
            "u:p@a", "a:443", "a:80", "%41",
        ];
        let bases = [
            page(),
            Url::parse("http://u:p@other.example:8080/a/b?c#d").unwrap(),
        ];
        let mut rng = crate::test_rng::TestRng::new(0x2f69_3e2d_6c4b_9a17);
        let mut canonical = 0;
        for _ in 0..300_000 {
            let mut href = String::from(["http://", "https://"][rng.below(2)]);
            for i in 0..1 + rng.below(3) {
                if i > 0 {
                    href.push('.');
                }
                // Mostly plain labels, sometimes anything.
                let choices = if rng.below(4) == 0 { LABEL.len() } else { 5 };
                href.push_str(LABEL[rng.below(choices)]);
            }
            if rng.below(5) > 0 {
                href.push('/');
            }
            for _ in 0..rng.below(8) {
                href.push_str(TAIL[rng.below(TAIL.len())]);
            }
            if canonical_http_url(&href) {
                canonical += 1;
                let url = Url::parse(&href).unwrap_or_else(|e| panic!("{href:?}: {e}"));
                assert_eq!(url.as_str(), href);
                for base in &bases {
                    assert_eq!(
                        base.join(&href).ok().map(String::from).as_deref(),
                        Some(href.as_str())
                    );
                }
            }
        }
        assert!(canonical > 10_000, "{canonical}");
    }

    /// The path-absolute fast path gives what `Url::join` gives, on bases with and without
    /// credentials, a port, a query or a fragment, and leaves other schemes to the parser.
    #[test]
    fn path_absolute_joins_are_the_parsers() {
        let bases = [
            page(),
            Url::parse("http://u:p@other.example:8080/a/b?c#d").unwrap(),
            Url::parse("https://user@example.org:443/").unwrap(),
            Url::parse("http://127.0.0.1/x/").unwrap(),
            Url::parse("ftp://files.example/dir/").unwrap(),
            Url::parse("file:///home/x/page.html").unwrap(),
        ];
        let mut rng = crate::test_rng::TestRng::new(0x5a17_23c9_0e4f_b381);
        let mut fast = 0;
        for _ in 0..200_000 {
            let mut href = String::from(["/", "//", "/", "a/", "?", "#"][rng.below(6)]);
            for _ in 0..rng.below(8) {
                href.push_str(TAIL[rng.below(TAIL.len())]);
            }
            for base in &bases {
                let parsed = base.join(&href).ok().map(String::from);
                if let Some(joined) = join_path_absolute(base, &href) {
                    fast += 1;
                    assert_eq!(Some(joined), parsed, "{base} {href:?}");
                }
                assert_eq!(join(base, &href), parsed, "{base} {href:?}");
            }
        }
        assert!(fast > 50_000, "{fast}");
    }

    /// The tail test as it was: three scans (bytes, `/.`, `%2e`).
    fn canonical_tail_reference(tail: &[u8]) -> bool {
        let plain = |b: u8| b.is_ascii_alphanumeric() || b"-._~!$&()*+,;=:@/?#%".contains(&b);
        let path_end = tail
            .iter()
            .position(|&b| b == b'?' || b == b'#')
            .unwrap_or(tail.len());
        let dotted = |w: &[u8]| w == b"/." || w.eq_ignore_ascii_case(b"%2e");
        tail.iter().all(|&b| plain(b))
            && !tail[..path_end].windows(2).any(dotted)
            && !tail[..path_end].windows(3).any(dotted)
    }

    #[test]
    fn the_one_pass_tail_test_is_the_three_scans() {
        const PIECES: &[&[u8]] = &[
            b"/", b".", b"%", b"2", b"e", b"E", b"%2e", b"%2E", b"/.", b"?", b"#", b"a", b"\x80", b"\xff",
            b" ", b"\\", b"%25", b"~", b"`", b"0",
        ];
        let mut rng = crate::test_rng::TestRng::new(0x71c3_9a05_d2e8_4b61);
        let mut yes = 0;
        for b in 0..=255u8 {
            assert_eq!(canonical_tail(&[b]), canonical_tail_reference(&[b]), "{b}");
        }
        for _ in 0..300_000 {
            let tail: Vec<u8> = (0..rng.below(10))
                .flat_map(|_| PIECES[rng.below(PIECES.len())].iter().copied())
                .collect();
            let fast = canonical_tail(&tail);
            assert_eq!(fast, canonical_tail_reference(&tail), "{tail:?}");
            yes += usize::from(fast);
        }
        assert!(yes > 10_000, "{yes}");
    }

    #[test]
    fn join_and_credentials() {
        assert_eq!(
            join(&page(), "../a b.png").as_deref(),
            Some("https://example.com/a%20b.png")
        );
        assert_eq!(join(&page(), "http://[bad"), None);
        let u = Url::parse("https://user:pw@example.com/x").unwrap();
        assert!(has_credentials(&u));
        assert_eq!(strip_credentials(u).as_str(), "https://example.com/x");
    }
}
