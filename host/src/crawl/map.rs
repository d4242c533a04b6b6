//! `POST /v2/map`: a site's URLs without scraping them all — the sitemaps
//! (indexes and gzip followed) and the links of the start page, kept to the
//! start host (and its subdomains with `includeSubdomains`) and under the
//! start path, de-duplicated, without what robots.txt refuses the
//! operator's agent, optionally ranked by a `search` query, cut to `limit`.

use super::discover::{page_links, robots_for, robots_path, sitemap_urls};
use super::manager::Crawls;
use super::url_norm::{KeyRules, fetch_form, key, resolve};
use crate::api::crawl_request::{MapRequest, SitemapMode, page_request};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::time::Duration;
use url::Url;

/// Time a map takes at most when the request sets no `timeout`.
pub const DEFAULT_MAP_TIMEOUT: Duration = Duration::from_secs(120);

/// A mapped URL with the title and description known for it.
type Found = (Url, Option<String>, Option<String>);

/// The map ran out of time.
#[derive(Debug)]
pub struct MapTimeout;

fn bare(h: &str) -> &str {
    h.strip_prefix("www.").unwrap_or(h)
}

fn in_scope(start: &Url, u: &Url, subdomains: bool) -> bool {
    let (s, h) = (
        bare(start.host_str().unwrap_or("")),
        bare(u.host_str().unwrap_or("")),
    );
    let same_port = start.port_or_known_default() == u.port_or_known_default();
    let host_ok = (s == h && same_port) || (subdomains && h.ends_with(&format!(".{s}")));
    let dir = start.path().trim_end_matches('/');
    host_ok && (dir.is_empty() || u.path() == dir || u.path().starts_with(&format!("{dir}/")))
}

/// Relevance of a URL's path and query (+ title) to the query terms: each
/// term found counts, in the path twice, the whole query as one phrase more.
/// (The host is left out: every mapped URL shares it, and a port's digits
/// would match numeric terms.)
pub fn relevance(query: &str, url: &str, title: &str) -> u32 {
    let hay_url = url.to_ascii_lowercase();
    let hay_title = title.to_lowercase();
    let q = query.to_lowercase();
    let mut score = 0;
    for term in q.split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()) {
        if hay_url.contains(term) {
            score += 2;
        }
        if hay_title.contains(term) {
            score += 1;
        }
    }
    let phrase = q.split_whitespace().collect::<Vec<_>>().join("-");
    if !phrase.is_empty() && (hay_url.contains(&phrase) || hay_title.contains(q.trim())) {
        score += 3;
    }
    score
}

/// Runs a map.
pub async fn map(crawls: &Crawls, req: &MapRequest) -> Result<Vec<Value>, MapTimeout> {
    let limit = req
        .timeout_ms
        .map(Duration::from_millis)
        .unwrap_or(DEFAULT_MAP_TIMEOUT);
    tokio::time::timeout(limit, collect(crawls, req))
        .await
        .map_err(|_| MapTimeout)
}

async fn collect(crawls: &Crawls, req: &MapRequest) -> Vec<Value> {
    let rules = KeyRules {
        ignore_query: req.ignore_query_parameters,
        similar: true,
    };
    let mut seen = HashSet::new();
    let mut links: Vec<Found> = Vec::new();
    let mut add = |u: Url, title: Option<String>, description: Option<String>, links: &mut Vec<_>| {
        let u = fetch_form(u, rules);
        if in_scope(&req.url, &u, req.include_subdomains) && seen.insert(key(&u, rules)) {
            links.push((u, title, description));
        }
    };
    let agent = crawls.settings.robots_user_agent.clone();
    let start_allowed = robots_for(&crawls.fetcher, &crawls.robots, &req.url, &agent)
        .await
        .allows(&robots_path(&req.url));
    if req.sitemap != SitemapMode::Only && start_allowed {
        let registry = crawls.services.plugins.registry();
        let body = serde_json::Map::from_iter([("formats".to_string(), json!(["rawHtml"]))]);
        if let Ok(page) = page_request(&body, req.url.as_str(), registry.as_ref()) {
            let id = uuid::Uuid::now_v7().to_string();
            if let Ok(data) = crate::pipeline::scrape(&crawls.services, &page, &id).await {
                let base = data["metadata"]["url"]
                    .as_str()
                    .and_then(|u| Url::parse(u).ok())
                    .unwrap_or(req.url.clone());
                let text = |k: &str| data["metadata"][k].as_str().map(str::to_string);
                add(req.url.clone(), text("title"), text("description"), &mut links);
                let raw = data["rawHtml"].as_str().unwrap_or("").to_string();
                for l in page_links(raw, base.clone()).await {
                    if let Some(u) = resolve(&base, &l) {
                        add(u, None, None, &mut links);
                    }
                }
            }
        }
    }
    if req.sitemap != SitemapMode::Skip {
        let cap = (req.limit * 4).min(400_000);
        for u in sitemap_urls(&crawls.fetcher, &crawls.robots, &req.url, &agent, cap).await {
            add(u, None, None, &mut links);
        }
    }
    // robots.txt per origin (cached): a map lists no URL a crawl would refuse.
    let mut allowed = Vec::with_capacity(links.len());
    for found in links {
        let robots = robots_for(&crawls.fetcher, &crawls.robots, &found.0, &agent).await;
        if robots.allows(&robots_path(&found.0)) {
            allowed.push(found);
        }
    }
    let mut links = allowed;
    if let Some(q) = &req.search {
        let mut scored: Vec<(u32, usize)> = links
            .iter()
            .enumerate()
            .map(|(i, (u, t, _))| {
                let target = format!("{}?{}", u.path(), u.query().unwrap_or(""));
                (relevance(q, &target, t.as_deref().unwrap_or("")), i)
            })
            .filter(|(s, _)| *s > 0)
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let order: Vec<usize> = scored.into_iter().map(|(_, i)| i).collect();
        let mut taken: Vec<Option<Found>> = links.into_iter().map(Some).collect();
        links = order.into_iter().filter_map(|i| taken[i].take()).collect();
    }
    links
        .into_iter()
        .take(req.limit)
        .map(|(u, title, description)| {
            let mut v = json!({ "url": u.to_string() });
            if let Some(t) = title {
                v["title"] = json!(t);
            }
            if let Some(d) = description {
                v["description"] = json!(d);
            }
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relevance_prefers_terms_in_the_path_and_phrases() {
        let a = relevance("blue widgets", "/products/blue-widgets", "");
        let b = relevance("blue widgets", "/blue/things", "");
        let c = relevance("blue widgets", "/about", "");
        assert!(a > b && b > c && c == 0, "{a} {b} {c}");
    }

    #[test]
    fn scope_by_host_and_path() {
        let start = Url::parse("http://a.test/docs/").unwrap();
        assert!(in_scope(
            &start,
            &Url::parse("http://www.a.test/docs/x").unwrap(),
            false
        ));
        assert!(!in_scope(
            &start,
            &Url::parse("http://a.test/blog").unwrap(),
            false
        ));
        assert!(!in_scope(
            &start,
            &Url::parse("http://api.a.test/docs/x").unwrap(),
            false
        ));
        assert!(in_scope(
            &start,
            &Url::parse("http://api.a.test/docs/x").unwrap(),
            true
        ));
    }
}
