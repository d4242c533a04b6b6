//! Discovery: robots.txt per origin (cached) and the URLs a sitemap offers a
//! crawl or a map.

use super::fetcher::RawFetcher;
use super::robots::{MAX_ROBOTS_BYTES, Robots, RobotsCache};
use super::sitemap;
use std::sync::Arc;
use url::Url;

/// `scheme://host[:port]`.
pub fn origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// robots.txt of `url`'s origin as seen by `agent`, fetched once per TTL
/// (the cache key includes the agent).
pub async fn robots_for(fetcher: &RawFetcher, cache: &RobotsCache, url: &Url, agent: &str) -> Arc<Robots> {
    let key = format!("{}\n{agent}", origin(url));
    if let Some(r) = cache.get(&key) {
        return r;
    }
    let robots = match url.join("/robots.txt") {
        Ok(robots_url) => match fetcher.get(&robots_url).await {
            Some(p) if (200..300).contains(&p.status) => {
                let body = &p.body[..p.body.len().min(MAX_ROBOTS_BYTES)];
                Robots::parse(&String::from_utf8_lossy(body), agent)
            }
            Some(p) if (400..500).contains(&p.status) => Robots::allow_all(),
            _ => Robots::deny_all(),
        },
        Err(_) => Robots::allow_all(),
    };
    let robots = Arc::new(robots);
    cache.put(&key, robots.clone());
    robots
}

/// What robots.txt rules match against: the path and query of `url`.
pub fn robots_path(url: &Url) -> String {
    match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_string(),
    }
}

/// Page URLs from the site's sitemaps: those robots.txt names, else `/sitemap.xml`.
pub async fn sitemap_urls(
    fetcher: &RawFetcher,
    cache: &RobotsCache,
    start: &Url,
    agent: &str,
    max: usize,
) -> Vec<Url> {
    let robots = robots_for(fetcher, cache, start, agent).await;
    let mut roots: Vec<Url> = robots
        .sitemaps
        .iter()
        .filter_map(|s| Url::parse(s).ok())
        .collect();
    if roots.is_empty()
        && let Ok(u) = start.join("/sitemap.xml")
    {
        roots.push(u);
    }
    sitemap::collect(fetcher, roots, max)
        .await
        .into_iter()
        .filter_map(|s| start.join(&s).ok())
        .filter(|u| u.scheme() == "http" || u.scheme() == "https")
        .collect()
}

/// The links of a whole page (navigation included, as a crawler needs them;
/// the `links` format lists only the cleaned content's), resolved against
/// the page's `<base>` or `page_url`. Parsing runs on a blocking thread, within
/// the server's node budget (a page over it has no links to follow).
pub async fn page_links(raw_html: String, page_url: Url) -> Vec<String> {
    tokio::task::spawn_blocking(move || {
        let html = distill_html::PageText::new(&raw_html).open();
        let most = crate::pipeline::prepare::max_page_nodes();
        let Ok(page) = distill_html::ParsedPage::parse_html_within(&html, &page_url, most) else {
            tracing::warn!("no links followed from a crawled page: it makes more than {most} elements");
            return Vec::new();
        };
        let whole = distill_html::CleanOptions {
            only_main_content: false,
            include_tags: &[],
            exclude_tags: &[],
        };
        page.clean(&whole).map(|c| c.links()).unwrap_or_default()
    })
    .await
    .unwrap_or_default()
}
