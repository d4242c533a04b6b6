//! URL normalisation for de-duplication: a crawl queues each key once.
//! The key drops the fragment, the default port, a trailing slash (except the
//! root), and sorts the query; with `ignoreQueryParameters` the query goes;
//! with `deduplicateSimilarURLs` (upstream's default) the scheme and a leading
//! `www.` do not count and `/index.html`-style paths equal their directory.

use url::Url;

/// How keys are made for one job.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeyRules {
    pub ignore_query: bool,
    pub similar: bool,
}

/// Parses `raw` relative to `base`: http(s) only, fragment removed.
pub fn resolve(base: &Url, raw: &str) -> Option<Url> {
    let mut url = base.join(raw.trim()).ok()?;
    if url.scheme() != "http" && url.scheme() != "https" {
        return None;
    }
    url.host_str()?;
    url.set_fragment(None);
    Some(url)
}

/// The de-duplication key of `url`.
pub fn key(url: &Url, rules: KeyRules) -> String {
    let host = url.host_str().unwrap_or("").to_ascii_lowercase();
    let host = if rules.similar {
        host.strip_prefix("www.").unwrap_or(&host).to_string()
    } else {
        host
    };
    let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
    let mut path = url.path().to_string();
    if rules.similar {
        for index in ["index.html", "index.htm", "index.php"] {
            if let Some(dir) = path.strip_suffix(index)
                && dir.ends_with('/')
            {
                path = dir.to_string();
            }
        }
    }
    while path.len() > 1 && path.ends_with('/') {
        path.pop();
    }
    let scheme = if rules.similar { "" } else { url.scheme() };
    let colon = if rules.similar { "" } else { ":" };
    let mut out = format!("{scheme}{colon}//{host}{port}{path}");
    if !rules.ignore_query {
        let mut pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        if !pairs.is_empty() {
            pairs.sort();
            let query = url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(pairs)
                .finish();
            out.push('?');
            out.push_str(&query);
        }
    }
    out
}

/// The URL to fetch for a discovered link: fragment gone, and the query too
/// when the job ignores query parameters.
pub fn fetch_form(mut url: Url, rules: KeyRules) -> Url {
    url.set_fragment(None);
    if rules.ignore_query {
        url.set_query(None);
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(s: &str, ignore_query: bool, similar: bool) -> String {
        key(
            &Url::parse(s).unwrap(),
            KeyRules {
                ignore_query,
                similar,
            },
        )
    }

    #[test]
    fn equal_urls_share_a_key() {
        assert_eq!(
            k("http://a.test/x/#top", false, false),
            k("http://A.test:80/x", false, false)
        );
        assert_eq!(
            k("http://a.test/x?b=2&a=1", false, false),
            k("http://a.test/x/?a=1&b=2", false, false)
        );
        assert_ne!(
            k("http://a.test/x?a=1", false, false),
            k("http://a.test/x?a=2", false, false)
        );
        assert_eq!(
            k("http://a.test/x?a=1", true, false),
            k("http://a.test/x?a=2", true, false)
        );
        assert_ne!(
            k("https://www.a.test/d/index.html", false, false),
            k("http://a.test/d/", false, false)
        );
        assert_eq!(
            k("https://www.a.test/d/index.html", false, true),
            k("http://a.test/d/", false, true)
        );
        assert_eq!(k("http://a.test/", false, false), "http://a.test/");
    }

    #[test]
    fn resolves_relative_links_and_refuses_other_schemes() {
        let base = Url::parse("http://a.test/dir/page").unwrap();
        assert_eq!(resolve(&base, "../x#f").unwrap().as_str(), "http://a.test/x");
        assert!(resolve(&base, "mailto:me@a.test").is_none());
        assert!(resolve(&base, "javascript:void(0)").is_none());
    }
}
