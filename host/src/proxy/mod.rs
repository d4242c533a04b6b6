//! Operator-configured forward proxies (docs/OPERATORS.md, "Proxies"): a
//! `basic` and an `enhanced` pool, each with default entries and optional
//! per-country entries that `location.country` picks. HTTP (`http://`) and
//! SOCKS5 (`socks5://`, `socks5h://`) proxies, optionally with credentials.
//! Entries of a pool are used in turn. Nothing here fetches; the HTTP engine
//! (`fetch::http`) routes through what [`ProxyPools::pick`] returns.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use url::Url;

/// A pool tier, as the request's `proxy` names it and `metadata.proxyUsed`
/// reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    Basic,
    Enhanced,
}

impl Tier {
    pub fn name(self) -> &'static str {
        match self {
            Tier::Basic => "basic",
            Tier::Enhanced => "enhanced",
        }
    }
}

/// One proxy. Its URL may hold credentials: show it with [`fmt::Display`]
/// (scheme, host and port only), never with `{:?}` of `url`.
#[derive(Clone, PartialEq, Eq)]
pub struct ProxyEndpoint {
    pub url: Url,
}

impl fmt::Display for ProxyEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let host = self.url.host_str().unwrap_or("?");
        match self.url.port() {
            Some(port) => write!(f, "{}://{host}:{port}", self.url.scheme()),
            None => write!(f, "{}://{host}", self.url.scheme()),
        }
    }
}

impl fmt::Debug for ProxyEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ProxyEndpoint({self})")
    }
}

/// One tier's proxies: the default list and the per-country lists.
#[derive(Debug, Default)]
struct Pool {
    default: Vec<Arc<ProxyEndpoint>>,
    by_country: BTreeMap<String, Vec<Arc<ProxyEndpoint>>>,
    next: AtomicUsize,
}

impl Pool {
    fn is_empty(&self) -> bool {
        self.default.is_empty() && self.by_country.is_empty()
    }

    fn pick(&self, country: Option<&str>) -> Option<Arc<ProxyEndpoint>> {
        let list = country
            .and_then(|c| self.by_country.get(&c.to_ascii_uppercase()))
            .filter(|l| !l.is_empty())
            .unwrap_or(&self.default);
        if list.is_empty() {
            return None;
        }
        let turn = self.next.fetch_add(1, Ordering::Relaxed);
        Some(list[turn % list.len()].clone())
    }
}

/// The operator's proxy pools (empty: every fetch goes direct).
#[derive(Debug, Default)]
pub struct ProxyPools {
    basic: Pool,
    enhanced: Pool,
}

impl ProxyPools {
    /// Parses `DISTILL_PROXY_BASIC` / `DISTILL_PROXY_ENHANCED`: entries
    /// separated by commas or whitespace, each `[CC=]scheme://[user:pass@]host:port`
    /// (CC: an ISO 3166-1 alpha-2 country code).
    pub fn parse(basic: Option<&str>, enhanced: Option<&str>) -> anyhow::Result<ProxyPools> {
        Ok(ProxyPools {
            basic: parse_pool("basic", basic.unwrap_or(""))?,
            enhanced: parse_pool("enhanced", enhanced.unwrap_or(""))?,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.basic.is_empty() && self.enhanced.is_empty()
    }

    /// Whether `tier` has any proxy.
    pub fn has(&self, tier: Tier) -> bool {
        !self.pool(tier).is_empty()
    }

    /// Whether any tier has a per-country entry.
    pub fn has_country_pools(&self) -> bool {
        !self.basic.by_country.is_empty() || !self.enhanced.by_country.is_empty()
    }

    /// The next proxy of `tier` for `country`: from that country's entries
    /// when there are some, else from the default entries; `None` when the
    /// tier has neither (the fetch then goes direct).
    pub fn pick(&self, tier: Tier, country: Option<&str>) -> Option<Arc<ProxyEndpoint>> {
        self.pool(tier).pick(country)
    }

    /// Every configured proxy, once each.
    pub fn endpoints(&self) -> Vec<Arc<ProxyEndpoint>> {
        let mut all: Vec<Arc<ProxyEndpoint>> = Vec::new();
        for pool in [&self.basic, &self.enhanced] {
            for e in pool.default.iter().chain(pool.by_country.values().flatten()) {
                if !all.iter().any(|seen| seen.url == e.url) {
                    all.push(e.clone());
                }
            }
        }
        all
    }

    fn pool(&self, tier: Tier) -> &Pool {
        match tier {
            Tier::Basic => &self.basic,
            Tier::Enhanced => &self.enhanced,
        }
    }
}

fn parse_pool(tier: &str, text: &str) -> anyhow::Result<Pool> {
    let mut pool = Pool::default();
    for entry in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|e| !e.is_empty())
    {
        let (country, url) = match entry.split_once('=') {
            Some((cc, url)) if !cc.contains(':') => (Some(cc), url),
            _ => (None, entry),
        };
        let endpoint = Arc::new(parse_endpoint(tier, url)?);
        match country {
            Some(cc) => {
                anyhow::ensure!(
                    cc.len() == 2 && cc.bytes().all(|b| b.is_ascii_alphabetic()),
                    "{tier} proxy pool: {cc:?} is not a two-letter country code (entries are [CC=]URL)"
                );
                pool.by_country
                    .entry(cc.to_ascii_uppercase())
                    .or_default()
                    .push(endpoint);
            }
            None => pool.default.push(endpoint),
        }
    }
    Ok(pool)
}

fn parse_endpoint(tier: &str, text: &str) -> anyhow::Result<ProxyEndpoint> {
    // The message must not echo credentials: name only what is wrong.
    let url =
        Url::parse(text).map_err(|e| anyhow::anyhow!("{tier} proxy pool: an entry is not a URL ({e})"))?;
    anyhow::ensure!(
        matches!(url.scheme(), "http" | "socks5" | "socks5h"),
        "{tier} proxy pool: scheme {:?} is not supported (use http://, socks5:// or socks5h://)",
        url.scheme()
    );
    anyhow::ensure!(
        url.host_str().is_some(),
        "{tier} proxy pool: an entry has no host"
    );
    anyhow::ensure!(
        url.path() == "/" || url.path().is_empty(),
        "{tier} proxy pool: an entry has a path; give scheme://host:port"
    );
    Ok(ProxyEndpoint { url })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_default_and_country_entries() {
        let pools = ProxyPools::parse(
            Some("http://a:1, de=socks5://u:secret@b:2"),
            Some("socks5h://c:3 DE=http://d:4 DE=http://e:5"),
        )
        .unwrap();
        assert!(pools.has(Tier::Basic) && pools.has(Tier::Enhanced) && pools.has_country_pools());
        assert_eq!(pools.pick(Tier::Basic, None).unwrap().to_string(), "http://a:1");
        assert_eq!(
            pools.pick(Tier::Basic, Some("FR")).unwrap().to_string(),
            "http://a:1"
        );
        assert_eq!(
            pools.pick(Tier::Basic, Some("de")).unwrap().to_string(),
            "socks5://b:2"
        );
        // Entries of a pool are used in turn.
        let turns: Vec<String> = (0..3)
            .map(|_| pools.pick(Tier::Enhanced, Some("DE")).unwrap().to_string())
            .collect();
        assert_eq!(turns, ["http://d:4", "http://e:5", "http://d:4"]);
        assert_eq!(pools.endpoints().len(), 5);
        // Credentials are never shown.
        assert!(!format!("{:?}", pools.pick(Tier::Basic, Some("DE")).unwrap()).contains("secret"));
    }

    #[test]
    fn empty_and_bad_configurations() {
        let none = ProxyPools::parse(None, Some("  ")).unwrap();
        assert!(none.is_empty() && none.pick(Tier::Basic, None).is_none());
        // A tier with only country entries has no proxy for other countries.
        let de_only = ProxyPools::parse(None, Some("DE=http://d:4")).unwrap();
        assert!(de_only.pick(Tier::Enhanced, Some("US")).is_none());
        for bad in ["ftp://x:1", "not a url", "USA=http://x:1", "http://x:1/path"] {
            let err = ProxyPools::parse(Some(bad), None).unwrap_err().to_string();
            assert!(err.starts_with("basic proxy pool:"), "{bad}: {err}");
        }
        let err = ProxyPools::parse(Some("http://u:hunter2@x:1/p"), None)
            .unwrap_err()
            .to_string();
        assert!(!err.contains("hunter2"), "{err}");
    }
}
