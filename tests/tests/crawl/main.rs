//! Crawl, batch scrape and map against a generated local site
//! (`distill_e2e::crawl_site`: sections of pages, a sitemap index with a
//! gzip sitemap, robots.txt rules, a redirect, a calendar trap, an external
//! link, a slow page, a 404): page sets, every crawl option, robots, webhooks
//! (signed, retried), cancel and restart mid-crawl, the official Rust SDK.
//! Webhooks are in `webhooks.rs`, batch scrape and map in `batch_map.rs`.

use distill_e2e::client::http;
use distill_e2e::crawl_site::{CrawlSite, SiteShape, page_key};
use distill_e2e::webhook_receiver::WebhookReceiver;
use distill_e2e::{ServerOptions, TestServer, fresh_tmp_dir, get, post_raw, shared};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

mod batch_map;
mod webhooks;

async fn start(server: &str, path: &str, body: Value) -> String {
    let r = post_raw(&format!("{server}{path}"), body.to_string(), &[]).await;
    assert_eq!(r.status, 200, "{}", r.pretty());
    assert_eq!(r.json["success"], json!(true));
    let id = r.json["id"].as_str().expect("id").to_string();
    assert_eq!(
        r.json["url"].as_str().unwrap(),
        format!("{server}{path}/{id}"),
        "status URL"
    );
    id
}

/// Polls the status until the job leaves "scraping" (at most `limit`).
async fn wait(server: &str, path: &str, id: &str, limit: Duration) -> Value {
    let until = Instant::now() + limit;
    loop {
        let r = get(&format!("{server}{path}/{id}?limit=1")).await;
        assert_eq!(r.status, 200, "{}", r.pretty());
        if r.json["status"] != json!("scraping") {
            return r.json;
        }
        assert!(Instant::now() < until, "job {id} still scraping: {}", r.pretty());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Every document, following `next` with pages of `page` documents.
async fn documents(server: &str, path: &str, id: &str, page: u64) -> Vec<Value> {
    let mut url = format!("{server}{path}/{id}?limit={page}");
    let mut docs = Vec::new();
    loop {
        let r = get(&url).await;
        assert_eq!(r.status, 200, "{}", r.pretty());
        let data = r.json["data"].as_array().unwrap();
        assert!(data.len() as u64 <= page);
        docs.extend(data.iter().cloned());
        match r.json["next"].as_str() {
            Some(next) => url = next.to_string(),
            None => return docs,
        }
    }
}

/// The page keys of `docs` (by `metadata.url`), asserting none repeats.
fn keys(docs: &[Value]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for d in docs {
        let url = d["metadata"]["url"]
            .as_str()
            .unwrap_or_else(|| panic!("no metadata.url: {d}"));
        assert!(out.insert(page_key(url)), "{url} appears twice");
    }
    out
}

async fn crawl_keys(server: &str, body: Value) -> (Value, BTreeSet<String>) {
    let id = start(server, "/v2/crawl", body).await;
    let status = wait(server, "/v2/crawl", &id, Duration::from_secs(180)).await;
    assert_eq!(status["status"], json!("completed"), "{status}");
    let docs = documents(server, "/v2/crawl", &id, 1000).await;
    (json!({"id": id, "status": status}), keys(&docs))
}

#[tokio::test]
async fn crawl_finds_every_page_once_honours_robots_and_bounds_the_trap() {
    let site = CrawlSite::start(SiteShape::default());
    let server = shared().url();
    let id = start(
        server,
        "/v2/crawl",
        json!({ "url": site.url("/"), "maxDiscoveryDepth": 4, "scrapeOptions": { "formats": ["markdown"] } }),
    )
    .await;
    let status = wait(server, "/v2/crawl", &id, Duration::from_secs(180)).await;
    assert_eq!(status["status"], json!("completed"), "{status}");
    let docs = documents(server, "/v2/crawl", &id, 25).await;
    let got = keys(&docs);
    let expected = site.expected_crawl(4);
    assert_eq!(
        got,
        expected,
        "missing: {:?}\nunexpected: {:?}",
        expected.difference(&got).collect::<Vec<_>>(),
        got.difference(&expected).collect::<Vec<_>>()
    );
    // Counters: every queued task finished; one credit per document.
    assert_eq!(status["completed"], status["total"], "{status}");
    assert_eq!(status["creditsUsed"], json!(docs.len()));
    assert!(status["expiresAt"].as_str().unwrap().ends_with('Z'));
    // One pass through the status without a limit: the same documents.
    let whole = get(&format!("{server}/v2/crawl/{id}")).await;
    assert_eq!(whole.json["data"].as_array().unwrap().len(), docs.len());
    assert!(whole.json.get("next").is_none(), "{}", whole.pretty());
    // Documents: markdown as asked, links only used for discovery.
    for d in &docs {
        assert!(d["markdown"].as_str().is_some_and(|m| !m.is_empty()), "{d}");
        assert!(d.get("links").is_none(), "links were not requested: {d}");
    }
    let missing = docs
        .iter()
        .find(|d| page_key(d["metadata"]["url"].as_str().unwrap()) == "/missing")
        .unwrap();
    assert_eq!(missing["metadata"]["statusCode"], json!(404));
    // robots.txt: fetched once, its disallowed pages never fetched and listed.
    assert_eq!(site.hits("/private"), 0);
    assert_eq!(site.hits("/robots.txt"), 1);
    let errors = get(&format!("{server}/v2/crawl/{id}/errors")).await;
    assert_eq!(errors.status, 200);
    let blocked: BTreeSet<String> = errors.json["robotsBlocked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| page_key(u.as_str().unwrap()))
        .collect();
    assert_eq!(
        blocked,
        BTreeSet::from(["/private/secret".to_string(), "/private/from-sitemap".to_string()])
    );
    assert_eq!(errors.json["errors"], json!([]), "{}", errors.pretty());
    // The trap was bounded by depth; nothing outside the site was fetched.
    assert_eq!(site.hits("/calendar"), 7);
    // Each page fetched once (the trailing-slash, fragment and query-order
    // variants share a key); /s0/p0 also reached through /old.
    assert_eq!(site.hits("/s3/p7"), 1);
}

#[tokio::test]
async fn crawl_options_shape_the_page_set() {
    let site = CrawlSite::start(SiteShape::default());
    let server = shared().url();
    let shape = site.shape;
    let (limit, s2, entire, patterns, full_url, no_query, only, skip, no_robots, external) = tokio::join!(
        crawl_keys(server, json!({"url": site.url("/"), "limit": 10})),
        crawl_keys(server, json!({"url": site.url("/s2/"), "sitemap": "skip"})),
        crawl_keys(
            server,
            json!({"url": site.url("/s2/"), "sitemap": "skip", "crawlEntireDomain": true, "maxDiscoveryDepth": 1})
        ),
        crawl_keys(
            server,
            json!({"url": site.url("/"), "includePaths": ["^/s3"], "excludePaths": ["^/s3/p1\\d$"]})
        ),
        crawl_keys(
            server,
            json!({"url": site.url("/calendar?month=0"), "sitemap": "skip", "crawlEntireDomain": true,
            "maxDiscoveryDepth": 30, "includePaths": ["month=\\d$"], "regexOnFullURL": true})
        ),
        crawl_keys(
            server,
            json!({"url": site.url("/"), "ignoreQueryParameters": true, "maxDiscoveryDepth": 4})
        ),
        crawl_keys(server, json!({"url": site.url("/"), "sitemap": "only"})),
        crawl_keys(
            server,
            json!({"url": site.url("/"), "sitemap": "skip", "maxDiscoveryDepth": 4})
        ),
        crawl_keys(
            server,
            json!({"url": site.url("/"), "sitemap": "skip", "ignoreRobotsTxt": true, "maxDiscoveryDepth": 1})
        ),
        crawl_keys(
            server,
            json!({"url": site.url("/"), "sitemap": "skip", "allowExternalLinks": true, "maxDiscoveryDepth": 1})
        ),
    );
    // limit: exactly that many pages.
    assert_eq!(limit.1.len(), 10, "{:?}", limit.1);
    assert_eq!(limit.0["status"]["total"], json!(10));
    // Without crawlEntireDomain: only under the start path.
    assert!(s2.1.iter().all(|k| k.starts_with("/s2")), "{:?}", s2.1);
    assert_eq!(
        s2.1.len(),
        shape.pages + 2,
        "section, its pages, the query variant: {:?}",
        s2.1
    );
    // With it (one hop): the home page the section links to.
    assert!(
        entire.1.contains("/") && entire.1.contains("/s2/p5"),
        "{:?}",
        entire.1
    );
    assert!(!entire.1.contains("/s0"), "two hops away: {:?}", entire.1);
    // includePaths / excludePaths on the path; the start URL always comes.
    let mut expect: BTreeSet<String> = (0..shape.pages)
        .filter(|p| !(10..20).contains(p))
        .map(|p| format!("/s3/p{p}"))
        .collect();
    expect.extend(["/".to_string(), "/s3".to_string(), "/s3/p0?a=1&b=2".to_string()]);
    assert_eq!(patterns.1, expect);
    // regexOnFullURL: the query is part of what is matched.
    let months: BTreeSet<String> = (0..10).map(|m| format!("/calendar?month={m}")).collect();
    assert_eq!(full_url.1, months);
    // ignoreQueryParameters: one page per path; the calendar is one page.
    assert!(no_query.1.iter().all(|k| !k.contains('?')), "{:?}", no_query.1);
    assert!(no_query.1.contains("/calendar"));
    assert_eq!(
        no_query.1.len(),
        site.expected_crawl(4).iter().filter(|k| !k.contains('?')).count() + 1
    );
    // sitemap only: the start page and what the sitemaps list, no link followed.
    let mut expect: BTreeSet<String> = (0..shape.sections).map(|s| format!("/s{s}")).collect();
    expect.extend((0..shape.orphans).map(|n| format!("/orphan/{n}")));
    expect.insert("/".into());
    assert_eq!(only.1, expect);
    // sitemap skip: the orphans stay unknown.
    let expect: BTreeSet<String> = site
        .expected_crawl(4)
        .into_iter()
        .filter(|k| !k.starts_with("/orphan"))
        .collect();
    assert_eq!(skip.1, expect);
    // ignoreRobotsTxt: the disallowed page is fetched.
    assert!(no_robots.1.contains("/private/secret"), "{:?}", no_robots.1);
    // allowExternalLinks: the link to another origin is followed as far as
    // that origin's robots.txt, which cannot be fetched (nothing listens
    // there): RFC 9309 says assume complete disallow.
    let errors = get(&format!(
        "{server}/v2/crawl/{}/errors",
        external.0["id"].as_str().unwrap()
    ))
    .await;
    let blocked: BTreeSet<String> = errors.json["robotsBlocked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap().to_string())
        .collect();
    let expect = BTreeSet::from([
        "http://127.0.0.1:1/elsewhere".to_string(),
        site.url("/private/secret"),
    ]);
    assert_eq!(blocked, expect, "{}", errors.pretty());
    assert!(!external.1.iter().any(|k| k.contains("elsewhere")));
}

#[tokio::test]
async fn delay_paces_a_crawl() {
    let site = CrawlSite::start(SiteShape::default());
    let server = shared().url();
    let started = Instant::now();
    let (_, got) = crawl_keys(
        server,
        json!({"url": site.url("/s1/"), "sitemap": "skip", "limit": 5, "delay": 0.3}),
    )
    .await;
    assert_eq!(got.len(), 5);
    assert!(
        started.elapsed() >= Duration::from_millis(1200),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn cancel_stops_a_crawl_mid_way() {
    let site = CrawlSite::start(SiteShape::default());
    let server = shared().url();
    let id = start(
        server,
        "/v2/crawl",
        json!({"url": site.url("/"), "sitemap": "skip", "delay": 0.2}),
    )
    .await;
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let r = get(&format!("{server}/v2/crawl/{id}")).await;
        if r.json["completed"].as_u64().unwrap() >= 3 {
            break;
        }
        assert!(Instant::now() < until, "{}", r.pretty());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let active = get(&format!("{server}/v2/crawl/active")).await;
    assert!(
        active.json["crawls"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == json!(id) && c["url"].as_str().unwrap().starts_with(&site.url("/"))),
        "{}",
        active.pretty()
    );
    let r = http()
        .delete(format!("{server}/v2/crawl/{id}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["status"], json!("cancelled"));
    let status = get(&format!("{server}/v2/crawl/{id}")).await;
    assert_eq!(status.json["status"], json!("cancelled"));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (done, hits) = (
        get(&format!("{server}/v2/crawl/{id}")).await.json["completed"].clone(),
        site.hits("/"),
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        get(&format!("{server}/v2/crawl/{id}")).await.json["completed"],
        done,
        "no page finishes after cancel"
    );
    assert_eq!(site.hits("/"), hits, "no page is fetched after cancel");
    assert!(done.as_u64().unwrap() < 50);
    let active = get(&format!("{server}/v2/crawl/active")).await;
    assert!(
        !active.json["crawls"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == json!(id))
    );

    // A finished crawl cannot be cancelled; an unknown one is not found.
    let (done, _) = crawl_keys(server, json!({"url": site.url("/s1/p1"), "limit": 1})).await;
    let r = http()
        .delete(format!("{server}/v2/crawl/{}", done["id"].as_str().unwrap()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 409);
    let r = get(&format!("{server}/v2/crawl/0190f000-0000-7000-8000-000000000000")).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.json, json!({"success": false, "error": "Job not found"}));
    // A crawl id is not a batch id.
    let r = get(&format!(
        "{server}/v2/batch/scrape/{}",
        done["id"].as_str().unwrap()
    ))
    .await;
    assert_eq!(r.status, 404);
}

#[tokio::test]
async fn a_crawl_survives_a_restart_and_resumes() {
    let site = CrawlSite::start(SiteShape {
        sections: 3,
        pages: 10,
        orphans: 3,
    });
    let data_dir = fresh_tmp_dir().join("data");
    let opts = ServerOptions {
        data_dir: Some(data_dir.to_string_lossy().into_owned()),
        ..ServerOptions::default()
    };
    let first = TestServer::start(opts.clone());
    let id = start(
        first.url(),
        "/v2/crawl",
        json!({"url": site.url("/"), "maxDiscoveryDepth": 4, "delay": 0.1}),
    )
    .await;
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let r = get(&format!("{}/v2/crawl/{id}", first.url())).await;
        if r.json["completed"].as_u64().unwrap() >= 10 {
            break;
        }
        assert!(Instant::now() < until, "{}", r.pretty());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(first); // SIGKILL mid-crawl
    let second = TestServer::start(opts);
    let status = wait(second.url(), "/v2/crawl", &id, Duration::from_secs(120)).await;
    assert_eq!(status["status"], json!("completed"), "{status}");
    let got = keys(&documents(second.url(), "/v2/crawl", &id, 1000).await);
    assert_eq!(got, site.expected_crawl(4));
    let _ = std::fs::remove_dir_all(&data_dir);
}

#[tokio::test]
async fn bad_requests_get_clear_errors() {
    let server = shared().url();
    let site = CrawlSite::start(SiteShape::default());
    let post = |path: &str, body: Value| {
        let url = format!("{server}{path}");
        async move { post_raw(&url, body.to_string(), &[]).await }
    };
    let r = post("/v2/crawl", json!({"url": site.url("/"), "includePaths": ["("]})).await;
    assert_eq!(r.status, 400, "{}", r.pretty());
    assert!(r.error().contains("Invalid regular expression"), "{}", r.pretty());
    let r = post("/v2/crawl", json!({"url": site.url("/"), "bogus": 1})).await;
    assert_eq!(r.status, 400);
    let r = post("/v2/crawl", json!({"url": site.url("/"), "maxDepth": 2})).await;
    assert!(r.error().contains("maxDiscoveryDepth"), "{}", r.pretty());
    // The spec's name of the removed v1 option points to its replacement.
    let r = post(
        "/v2/crawl",
        json!({"url": site.url("/"), "allowBackwardCrawling": true}),
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(r.error().contains("crawlEntireDomain"), "{}", r.pretty());
    let r = post(
        "/v2/crawl",
        json!({"url": site.url("/"), "scrapeOptions": {"formats": ["nope"]}}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.pretty());
    assert_eq!(
        r.json["details"][0]["path"][0],
        json!("scrapeOptions"),
        "{}",
        r.pretty()
    );
    let r = post("/v2/crawl", json!({"url": "ftp://x.test/"})).await;
    assert_eq!(r.status, 400);
    // A status call's paging that is not non-negative integers: a JSON 400.
    for query in ["skip=-1", "skip=abc", "limit=x"] {
        for path in ["/v2/crawl", "/v2/batch/scrape"] {
            let r = get(&format!("{server}{path}/some-id?{query}")).await;
            r.assert_error(400, "BAD_REQUEST");
            assert!(r.error().contains("skip and limit"), "{}", r.pretty());
        }
    }
    let r = post("/v2/crawl", json!({"url": site.url("/"), "delay": 61})).await;
    assert_eq!(r.status, 400);
    let r = post("/v2/map", json!({"url": site.url("/"), "limit": 0})).await;
    assert_eq!(r.status, 400);
    // No model configured: the prompt features say so.
    let r = post(
        "/v2/crawl/params-preview",
        json!({"url": site.url("/"), "prompt": "only the blog"}),
    )
    .await;
    r.assert_error(501, "LLM_NOT_CONFIGURED");
    let r = post(
        "/v2/crawl",
        json!({"url": site.url("/"), "prompt": "only the blog"}),
    )
    .await;
    r.assert_error(501, "LLM_NOT_CONFIGURED");
    let r = post("/v2/crawl/params-preview", json!({"url": site.url("/")})).await;
    assert_eq!(r.status, 400);
    assert!(
        r.error().starts_with("Invalid request parameters"),
        "{}",
        r.pretty()
    );
}

#[tokio::test]
async fn the_official_sdk_crawls_batches_and_maps() {
    use firecrawl::{
        BatchScrapeOptions, Client, CrawlOptions, Format, JobStatus, MapOptions, ScrapeOptions, SitemapMode,
    };
    let site = CrawlSite::start(SiteShape::default());
    let server = shared().url();
    let client = Client::new_selfhosted(server, None::<&str>).unwrap();
    let options = CrawlOptions {
        sitemap: Some(SitemapMode::Skip),
        max_discovery_depth: Some(2),
        scrape_options: Some(ScrapeOptions {
            formats: Some(vec![Format::Markdown]),
            ..Default::default()
        }),
        poll_interval: Some(250),
        ..Default::default()
    };
    let job = client.crawl(site.url("/s1/"), options).await.expect("SDK crawl");
    assert_eq!(job.status, JobStatus::Completed);
    let got: BTreeSet<String> = job
        .data
        .iter()
        .map(|d| page_key(d.metadata.as_ref().unwrap().source_url.as_deref().unwrap()))
        .collect();
    let mut expected: BTreeSet<String> = (0..site.shape.pages).map(|p| format!("/s1/p{p}")).collect();
    expected.extend(["/s1".to_string(), "/s1/p0?a=1&b=2".to_string()]);
    assert_eq!(got, expected);
    assert_eq!(job.data.len(), expected.len());
    assert!(job.data.iter().all(|d| d.markdown.is_some()));

    let urls: Vec<String> = (0..4).map(|p| site.url(&format!("/s2/p{p}"))).collect();
    let batch = client
        .batch_scrape(
            urls.clone(),
            BatchScrapeOptions {
                poll_interval: Some(250),
                ..Default::default()
            },
        )
        .await
        .expect("SDK batch scrape");
    assert_eq!(batch.status, JobStatus::Completed);
    let got: BTreeSet<String> = batch
        .data
        .iter()
        .map(|d| d.metadata.as_ref().unwrap().source_url.clone().unwrap())
        .collect();
    assert_eq!(got, urls.into_iter().collect());

    let map = client
        .map(site.url("/"), MapOptions::default())
        .await
        .expect("SDK map");
    assert!(map.links.iter().any(|l| l.url.ends_with("/orphan/1")));
    assert_eq!(map.links[0].title.as_deref(), Some("Home"));
}
