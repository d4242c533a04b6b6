//! A generated web site for crawl, map and batch tests, on
//! `127.0.0.1:<ephemeral>`, with its own thread and Tokio runtime.
//!
//! | route | what |
//! |---|---|
//! | `/robots.txt` | `Disallow: /private/` for every agent; names `/sitemap_index.xml` |
//! | `/sitemap_index.xml` | index of `/sitemaps/sections.xml` and `/sitemaps/orphans.xml.gz` (gzip) |
//! | `/` | links to every section, `/private/secret`, `/calendar?month=0`, `/old`, `/missing`, `/slow`, an external URL, `mailto:` |
//! | `/s{s}/` | links to its pages `/s{s}/p{p}` |
//! | `/s{s}/p{p}` | links to its section, itself with a trailing slash and a fragment, the next page; `p0` also to itself with `?b=2&a=1` and `?a=1&b=2` |
//! | `/orphan/{n}` | only in the sitemap |
//! | `/calendar?month=N` | a trap: links to months N-1 and N+1 forever |
//! | `/old` | 301 to `/s0/p0` |
//! | `/missing` | 404 page |
//! | `/slow` | answered after 1 s |
//! | `/private/...` | must never be fetched (robots.txt) |
//!
//! Every request is counted by path ([`CrawlSite::hits`]) and its arrival
//! time kept ([`CrawlSite::arrivals`]).

use crate::background::serve_router;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Shape of the generated site.
#[derive(Debug, Clone, Copy)]
pub struct SiteShape {
    pub sections: usize,
    pub pages: usize,
    pub orphans: usize,
}

impl Default for SiteShape {
    fn default() -> Self {
        SiteShape {
            sections: 8,
            pages: 30,
            orphans: 5,
        }
    }
}

/// The running site.
pub struct CrawlSite {
    pub port: u16,
    pub shape: SiteShape,
    hits: Arc<Mutex<HashMap<String, u64>>>,
    arrivals: Arrivals,
}

/// Each request's path and when it arrived, in arrival order.
type Arrivals = Arc<Mutex<Vec<(String, Instant)>>>;

#[derive(Clone)]
struct Ctx {
    base: String,
    shape: SiteShape,
    hits: Arc<Mutex<HashMap<String, u64>>>,
    arrivals: Arrivals,
}

impl CrawlSite {
    /// Starts a site of the given shape.
    pub fn start(shape: SiteShape) -> CrawlSite {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("binding the crawl site");
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let hits = Arc::new(Mutex::new(HashMap::new()));
        let arrivals = Arrivals::default();
        let ctx = Ctx {
            base: format!("http://127.0.0.1:{port}"),
            shape,
            hits: hits.clone(),
            arrivals: arrivals.clone(),
        };
        let app = Router::new().fallback(serve).with_state(ctx);
        serve_router("crawl-site", listener, app);
        CrawlSite {
            port,
            shape,
            hits,
            arrivals,
        }
    }

    /// `http://127.0.0.1:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Requests whose path starts with `prefix`.
    pub fn hits(&self, prefix: &str) -> u64 {
        self.hits
            .lock()
            .unwrap()
            .iter()
            .filter(|(k, _)| k.starts_with(prefix))
            .map(|(_, v)| v)
            .sum()
    }

    /// When each request whose path starts with `prefix` arrived, in order.
    pub fn arrivals(&self, prefix: &str) -> Vec<Instant> {
        self.arrivals
            .lock()
            .unwrap()
            .iter()
            .filter(|(path, _)| path.starts_with(prefix))
            .map(|(_, at)| *at)
            .collect()
    }

    /// Paths (with sorted query) of the pages a default crawl from `/` must
    /// return when link hops are bounded by `max_depth` (≥ 3): every section
    /// and page, the `p0` query variant, the orphans, the calendar months
    /// within reach, `/missing` and `/slow`. (`/old` redirects to `/s0/p0`.)
    pub fn expected_crawl(&self, max_depth: i64) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        out.insert("/".to_string());
        for s in 0..self.shape.sections {
            out.insert(format!("/s{s}"));
            for p in 0..self.shape.pages {
                out.insert(format!("/s{s}/p{p}"));
            }
            out.insert(format!("/s{s}/p0?a=1&b=2"));
        }
        for n in 0..self.shape.orphans {
            out.insert(format!("/orphan/{n}"));
        }
        for m in -(max_depth - 1)..=(max_depth - 1) {
            out.insert(format!("/calendar?month={m}"));
        }
        out.insert("/missing".into());
        out.insert("/slow".into());
        out
    }
}

/// A URL's path without trailing slash (except `/`) and its query sorted:
/// how the tests compare page sets.
pub fn page_key(url: &str) -> String {
    let u = url::Url::parse(url).unwrap_or_else(|_| panic!("not a URL: {url}"));
    let mut path = u.path().to_string();
    while path.len() > 1 && path.ends_with('/') {
        path.pop();
    }
    let mut pairs: Vec<(String, String)> = u.query_pairs().map(|(k, v)| (k.into(), v.into())).collect();
    pairs.sort();
    if pairs.is_empty() {
        path
    } else {
        let q: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{path}?{}", q.join("&"))
    }
}

fn page(title: &str, body: &str, links: &[String]) -> Response {
    let links: String = links
        .iter()
        .map(|l| format!("<li><a href=\"{l}\">{l}</a></li>"))
        .collect();
    let html = format!(
        "<!doctype html><html><head><title>{title}</title><meta name=\"description\" content=\"About {title}\"></head>\
         <body><nav><ul>{links}</ul></nav><main><article><h1>{title}</h1><p>{body}</p>\
         <p>This page exists so that a crawler has something to read: a paragraph of plain prose about {title}, \
         long enough to be the main content of the page.</p></article></main></body></html>"
    );
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

fn urlset(base: &str, paths: &[String]) -> String {
    let urls: String = paths
        .iter()
        .map(|p| format!("<url><loc>{base}{p}</loc></url>"))
        .collect();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{urls}</urlset>"
    )
}

async fn serve(State(ctx): State<Ctx>, req: Request) -> Response {
    let path = req.uri().path().to_string();
    let query = req.uri().query().unwrap_or("").to_string();
    *ctx.hits.lock().unwrap().entry(path.clone()).or_insert(0) += 1;
    ctx.arrivals.lock().unwrap().push((path.clone(), Instant::now()));
    let shape = ctx.shape;
    let trimmed = if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        "/"
    };
    let segments: Vec<&str> = trimmed.split('/').filter(|s| !s.is_empty()).collect();
    match segments.as_slice() {
        [] => {
            let mut links: Vec<String> = (0..shape.sections).map(|s| format!("/s{s}/")).collect();
            links.extend(
                [
                    "/private/secret",
                    "/calendar?month=0",
                    "/old",
                    "/missing",
                    "/slow",
                    "http://127.0.0.1:1/elsewhere",
                    "mailto:someone@example.com",
                    "/#top",
                ]
                .map(String::from),
            );
            page("Home", "The home page of the generated site.", &links)
        }
        ["robots.txt"] => format!(
            "User-agent: *\nDisallow: /private/\n\nSitemap: {}/sitemap_index.xml\n",
            ctx.base
        )
        .into_response(),
        ["sitemap_index.xml"] => {
            let body = format!(
                "<?xml version=\"1.0\"?><sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
                 <sitemap><loc>{b}/sitemaps/sections.xml</loc></sitemap>\
                 <sitemap><loc>{b}/sitemaps/orphans.xml.gz</loc></sitemap></sitemapindex>",
                b = ctx.base
            );
            ([(header::CONTENT_TYPE, "application/xml")], body).into_response()
        }
        ["sitemaps", "sections.xml"] => {
            let paths: Vec<String> = (0..shape.sections).map(|s| format!("/s{s}/")).collect();
            (
                [(header::CONTENT_TYPE, "application/xml")],
                urlset(&ctx.base, &paths),
            )
                .into_response()
        }
        ["sitemaps", "orphans.xml.gz"] => {
            let mut paths: Vec<String> = (0..shape.orphans).map(|n| format!("/orphan/{n}")).collect();
            paths.push("/private/from-sitemap".into());
            let body = gzip(urlset(&ctx.base, &paths).as_bytes());
            ([(header::CONTENT_TYPE, "application/gzip")], body).into_response()
        }
        ["old"] => (StatusCode::MOVED_PERMANENTLY, [(header::LOCATION, "/s0/p0")]).into_response(),
        ["missing"] => {
            let mut r = page("Not found", "Nothing here.", &["/".to_string()]);
            *r.status_mut() = StatusCode::NOT_FOUND;
            r
        }
        ["slow"] => {
            tokio::time::sleep(Duration::from_secs(1)).await;
            page("Slow page", "This page took a second.", &["/".to_string()])
        }
        ["calendar"] => {
            let month: i64 = query
                .strip_prefix("month=")
                .and_then(|m| m.parse().ok())
                .unwrap_or(0);
            let links = vec![
                format!("/calendar?month={}", month - 1),
                format!("/calendar?month={}", month + 1),
            ];
            page(&format!("Calendar month {month}"), "An endless calendar.", &links)
        }
        ["orphan", n] => page(
            &format!("Orphan {n}"),
            "Only the sitemap knows this page.",
            &["/".to_string()],
        ),
        ["private", ..] => page("Private", "Robots must not read this.", &[]),
        [sec] if sec.starts_with('s') => {
            let s = &sec[1..];
            let mut links: Vec<String> = (0..shape.pages).map(|p| format!("/s{s}/p{p}")).collect();
            links.push("/".into());
            page(&format!("Section {s}"), "A section listing its pages.", &links)
        }
        [sec, pg] if sec.starts_with('s') && pg.starts_with('p') => {
            let s = &sec[1..];
            let p: usize = pg[1..].parse().unwrap_or(0);
            let mut links = vec![
                format!("/s{s}/"),
                format!("/s{s}/p{p}/"),
                format!("/s{s}/p{p}#section-2"),
                format!("/s{s}/p{}", (p + 1) % shape.pages.max(1)),
            ];
            if p == 0 {
                links.push(format!("/s{s}/p0?b=2&a=1"));
                links.push(format!("/s{s}/p0?a=1&b=2"));
            }
            page(
                &format!("Section {s} page {p}"),
                &format!("Page {p} of section {s}; the topic of this page is lichen number {p}."),
                &links,
            )
        }
        _ => (StatusCode::NOT_FOUND, "no such page").into_response(),
    }
}
