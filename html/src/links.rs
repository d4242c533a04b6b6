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

/// Resolves one raw `href`; `None` drops it.
pub(crate) fn resolve_link(raw: &str, base: &Url) -> Option<String> {
    let fixed = fix_scheme_slashes(raw);
    let href = js_trim(&fixed);
    if href.starts_with("http://") || href.starts_with("https://") {
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
