//! The `links` format (compat notes §1.8): every `a[href]` of the cleaned document, resolved
//! like upstream's `extractLinks` and deduplicated in document order.

use std::collections::HashSet;

use dom_query::Document;
use url::Url;

use crate::dom::{Walker, attr, is, local_name, with_element};
use crate::urls::{has_credentials, strip_credentials};

/// Upstream's `http:/x` → `http://x` repair (applied before trimming, as upstream does).
fn fix_scheme_slashes(href: &str) -> String {
    for scheme in ["http:/", "https:/"] {
        if let Some(rest) = href.strip_prefix(scheme)
            && !rest.starts_with('/')
        {
            return format!("{scheme}/{rest}");
        }
    }
    href.to_string()
}

/// JavaScript `String.prototype.trim` (also strips U+FEFF).
fn js_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

/// Whether `href` (which starts `http://` or `https://`) surely parses as a URL without
/// credentials, judged from its host alone, so that it is kept verbatim without a
/// `Url::parse` (some 5,000 instructions a link). The host (up to `/`, `?`, `#` or `\`)
/// must be dot-separated non-empty labels of ASCII letters, digits and `-`: no `@`
/// (credentials), no `:` (port), no `%` or brackets, no `xn--` label (Punycode is
/// validated), and a last label starting with a letter (a host ending in a number is
/// read as IPv4). The path, query and fragment never fail to parse. A sufficient
/// condition only (other links take the parse), checked against `Url::parse` in the tests.
fn plain_http_url(href: &str) -> bool {
    let rest = href
        .strip_prefix("http://")
        .or_else(|| href.strip_prefix("https://"))
        .unwrap_or("");
    let host_len = rest
        .bytes()
        .position(|b| matches!(b, b'/' | b'?' | b'#' | b'\\'))
        .unwrap_or(rest.len());
    let host = &rest.as_bytes()[..host_len];
    if host.is_empty()
        || !host
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
    {
        return false;
    }
    let mut labels = host.split(|&b| b == b'.');
    let last = labels.next_back().unwrap_or_default();
    let fine = |label: &[u8]| {
        let punycode = label.get(..4).is_some_and(|p| p.eq_ignore_ascii_case(b"xn--"));
        !label.is_empty() && !punycode
    };
    fine(last) && last[0].is_ascii_alphabetic() && labels.all(fine)
}

/// Resolves one raw `href`; `None` drops it.
pub(crate) fn resolve_link(raw: &str, base: &Url) -> Option<String> {
    let fixed = fix_scheme_slashes(raw);
    let href = js_trim(&fixed);
    if href.starts_with("http://") || href.starts_with("https://") {
        if plain_http_url(href) {
            return Some(href.to_string());
        }
        // Kept verbatim unless it carries credentials; unparsable ones are dropped.
        let parsed = Url::parse(href).ok()?;
        return Some(if has_credentials(&parsed) {
            strip_credentials(parsed).into()
        } else {
            href.to_string()
        });
    }
    if href.starts_with("mailto:") {
        return Some(href.to_string());
    }
    if href.starts_with('#') {
        return None;
    }
    let resolved = base.join(href).ok()?;
    if resolved.scheme().eq_ignore_ascii_case("javascript") {
        return None;
    }
    Some(strip_credentials(resolved).into())
}

/// All links of `doc`, resolved against `base`, deduplicated keeping the first occurrence.
pub(crate) fn extract(doc: &Document, base: &Url) -> Vec<String> {
    let tree = &doc.tree;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for id in Walker::new(tree, doc.root().id) {
        let href = with_element(tree, id, |el| {
            is(el, &local_name!("a"))
                .then(|| attr(el, &local_name!("href")).map(str::to_string))
                .flatten()
        })
        .flatten();
        if let Some(link) = href.and_then(|h| resolve_link(&h, base))
            && seen.insert(link.clone())
        {
            out.push(link);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse;

    fn base() -> Url {
        Url::parse("https://example.com/docs/page").unwrap()
    }

    #[test]
    fn resolution_rules() {
        let r = |h: &str| resolve_link(h, &base());
        assert_eq!(r("  /a  ").as_deref(), Some("https://example.com/a"));
        assert_eq!(r("b?x=1").as_deref(), Some("https://example.com/docs/b?x=1"));
        assert_eq!(r("http:/foo.com/x").as_deref(), Some("http://foo.com/x"));
        assert_eq!(r("https:/foo.com").as_deref(), Some("https://foo.com"));
        assert_eq!(
            r("HTTPS://Kept.Verbatim/A").as_deref(),
            Some("https://kept.verbatim/A")
        );
        assert_eq!(
            r("https://Kept.Verbatim/A").as_deref(),
            Some("https://Kept.Verbatim/A")
        );
        assert_eq!(r("mailto:Someone@x.org").as_deref(), Some("mailto:Someone@x.org"));
        assert_eq!(r("#section"), None);
        assert_eq!(r("javascript:void(0)"), None);
        assert_eq!(r(" JavaScript:alert(1)"), None);
        assert_eq!(r("https://[bad"), None);
        assert_eq!(r("tel:+123").as_deref(), Some("tel:+123"));
    }

    /// The fast path says yes only where `Url::parse` succeeds without credentials.
    #[test]
    fn plain_http_urls_parse_without_credentials() {
        const HOST: &[&str] = &[
            "a", "Z", "q", "0", "9", ".", "-", "xn--", "XN--", "0x", "0X", "@", ":", "%", "[", "]", "_",
            "\u{e9}", " ", "\t", "80", "..", "com", "u:p@", "1.2.3.4", "ab", "--",
        ];
        const TAIL: &[&str] = &[
            "",
            "/",
            "?",
            "#",
            "\\",
            "/p a\u{e9}th",
            "?q=1#f",
            ":8080/",
            "/%zz",
            "//x",
        ];
        let long = "l".repeat(70);
        let mut rng = crate::test_rng::TestRng::new(0x853c_49e6_748f_ea9b);
        let mut plain = 0;
        for _ in 0..300_000 {
            let mut href = String::from(["http://", "https://"][rng.below(2)]);
            for _ in 0..1 + rng.below(6) {
                match rng.below(40) {
                    0 => href.push_str(&long),
                    _ => href.push_str(HOST[rng.below(HOST.len())]),
                }
            }
            href.push_str(TAIL[rng.below(TAIL.len())]);
            if plain_http_url(&href) {
                plain += 1;
                let url = Url::parse(&href).unwrap_or_else(|e| panic!("{href:?}: {e}"));
                assert!(!has_credentials(&url), "{href:?}");
            }
        }
        assert!(plain > 10_000, "{plain}");
    }

    #[test]
    fn credentials_are_stripped() {
        let r = |h: &str| resolve_link(h, &base());
        assert_eq!(
            r("https://u:p@example.org/x").as_deref(),
            Some("https://example.org/x")
        );
        let with_creds = Url::parse("https://u:p@example.com/").unwrap();
        assert_eq!(
            resolve_link("rel", &with_creds).as_deref(),
            Some("https://example.com/rel")
        );
    }

    #[test]
    fn extracts_in_order_and_dedupes() {
        let doc = parse(
            "<a href='/a'>1</a><a>no href</a><a href='#x'>f</a><a href='https://example.com/a'>dup</a>\
             <a href=''>empty</a><a href='mailto:x@y.z'>m</a><svg><a href='/svg'>s</a></svg>",
        );
        assert_eq!(
            extract(&doc, &base()),
            [
                "https://example.com/a",
                "https://example.com/docs/page",
                "mailto:x@y.z",
                "https://example.com/svg"
            ]
        );
    }
}
