//! A crawl's scope: which discovered URLs it may queue. Upstream's rules:
//! by default only pages under the start URL's path on its host;
//! `crawlEntireDomain` the whole host; `allowSubdomains` its subdomains;
//! `allowExternalLinks` any host; `includePaths` / `excludePaths` are regular
//! expressions on the path (the whole URL with `regexOnFullURL`), exclusion
//! first; `maxDiscoveryDepth` bounds link hops from the start page (sitemap
//! URLs count as depth 0).

use regex::Regex;
use url::Url;

/// The scope of one crawl.
#[derive(Debug, Clone)]
pub struct Scope {
    pub start: Url,
    pub include: Vec<Regex>,
    pub exclude: Vec<Regex>,
    pub regex_on_full_url: bool,
    pub max_depth: Option<u32>,
    pub entire_domain: bool,
    pub allow_external: bool,
    pub allow_subdomains: bool,
}

/// Why a URL is out of scope (for logs and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Depth,
    Host,
    Path,
    Excluded,
    NotIncluded,
}

fn bare_host(url: &Url) -> String {
    let h = url.host_str().unwrap_or("").to_ascii_lowercase();
    h.strip_prefix("www.").map(str::to_string).unwrap_or(h)
}

impl Scope {
    /// Whether `url`, found at `depth`, may be queued.
    pub fn check(&self, url: &Url, depth: u32) -> Result<(), Refusal> {
        if self.max_depth.is_some_and(|max| depth > max) {
            return Err(Refusal::Depth);
        }
        let same_host = bare_host(url) == bare_host(&self.start)
            && url.port_or_known_default() == self.start.port_or_known_default();
        let sub = bare_host(url).ends_with(&format!(".{}", bare_host(&self.start)));
        if !(same_host || self.allow_external || (self.allow_subdomains && sub)) {
            return Err(Refusal::Host);
        }
        if same_host && !self.entire_domain && !self.allow_external {
            let base = self.start.path();
            let base_dir = base.trim_end_matches('/');
            let path = url.path();
            let under = base_dir.is_empty() || path == base_dir || path.starts_with(&format!("{base_dir}/"));
            if !under {
                return Err(Refusal::Path);
            }
        }
        self.check_patterns(url)
    }

    /// includePaths / excludePaths alone (sitemap URLs and links alike).
    pub fn check_patterns(&self, url: &Url) -> Result<(), Refusal> {
        let subject = if self.regex_on_full_url {
            url.as_str()
        } else {
            url.path()
        };
        if self.exclude.iter().any(|r| r.is_match(subject)) {
            return Err(Refusal::Excluded);
        }
        if !self.include.is_empty() && !self.include.iter().any(|r| r.is_match(subject)) {
            return Err(Refusal::NotIncluded);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(start: &str) -> Scope {
        Scope {
            start: Url::parse(start).unwrap(),
            include: vec![],
            exclude: vec![],
            regex_on_full_url: false,
            max_depth: None,
            entire_domain: false,
            allow_external: false,
            allow_subdomains: false,
        }
    }

    fn u(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn children_only_unless_entire_domain() {
        let mut s = scope("http://a.test/blog/");
        assert_eq!(s.check(&u("http://a.test/blog/post"), 1), Ok(()));
        assert_eq!(s.check(&u("http://a.test/blog"), 1), Ok(()));
        assert_eq!(s.check(&u("http://a.test/about"), 1), Err(Refusal::Path));
        assert_eq!(s.check(&u("http://a.test/blogger"), 1), Err(Refusal::Path));
        s.entire_domain = true;
        assert_eq!(s.check(&u("http://a.test/about"), 1), Ok(()));
    }

    #[test]
    fn hosts_subdomains_external() {
        let mut s = scope("http://a.test/");
        assert_eq!(s.check(&u("http://www.a.test/x"), 1), Ok(()));
        assert_eq!(s.check(&u("http://docs.a.test/x"), 1), Err(Refusal::Host));
        assert_eq!(s.check(&u("http://a.test:81/x"), 1), Err(Refusal::Host));
        assert_eq!(s.check(&u("http://b.test/x"), 1), Err(Refusal::Host));
        s.allow_subdomains = true;
        assert_eq!(s.check(&u("http://docs.a.test/x"), 1), Ok(()));
        assert_eq!(s.check(&u("http://xa.test/x"), 1), Err(Refusal::Host));
        s.allow_external = true;
        assert_eq!(s.check(&u("http://b.test/x"), 1), Ok(()));
    }

    #[test]
    fn patterns_and_depth() {
        let mut s = scope("http://a.test/");
        s.include = vec![Regex::new("^/docs/").unwrap()];
        s.exclude = vec![Regex::new("private").unwrap()];
        s.max_depth = Some(2);
        assert_eq!(s.check(&u("http://a.test/docs/a"), 2), Ok(()));
        assert_eq!(s.check(&u("http://a.test/docs/a"), 3), Err(Refusal::Depth));
        assert_eq!(s.check(&u("http://a.test/blog/a"), 1), Err(Refusal::NotIncluded));
        assert_eq!(
            s.check(&u("http://a.test/docs/private"), 1),
            Err(Refusal::Excluded)
        );
        s.regex_on_full_url = true;
        s.include = vec![Regex::new("^http://a\\.test/docs/").unwrap()];
        assert_eq!(s.check(&u("http://a.test/docs/a"), 1), Ok(()));
    }
}
