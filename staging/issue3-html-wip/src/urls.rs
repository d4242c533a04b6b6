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

/// `base.join(href)` as a string, or `None` when the reference cannot be parsed.
pub(crate) fn join(base: &Url, href: &str) -> Option<String> {
    base.join(href).ok().map(String::from)
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
