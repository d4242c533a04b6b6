//! Batch scrape (invalid URLs, errors, appends while finishing) and map (sitemap and page links).

use super::*;

#[tokio::test]
async fn batch_scrape_reports_invalid_urls_errors_and_appends() {
    let site = CrawlSite::start(SiteShape::default());
    let server = shared().url();
    let r = post_raw(
        &format!("{server}/v2/batch/scrape"),
        json!({"urls": [site.url("/slow"), site.url("/s1/p1"), "http://exa mple.com/", site.url("/missing"), "http://127.0.0.1:1/x"],
               "formats": ["markdown", "links"], "maxConcurrency": 2})
        .to_string(),
        &[],
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.pretty());
    assert_eq!(r.json["invalidURLs"], json!(["http://exa mple.com/"]));
    let id = r.json["id"].as_str().unwrap().to_string();
    let appended = post_raw(
        &format!("{server}/v2/batch/scrape"),
        json!({"urls": [site.url("/s1/p2")], "appendToId": id}).to_string(),
        &[],
    )
    .await;
    assert_eq!(appended.status, 200, "{}", appended.pretty());
    assert_eq!(appended.json["id"], json!(id));
    let status = wait(server, "/v2/batch/scrape", &id, Duration::from_secs(60)).await;
    assert_eq!(status["status"], json!("completed"));
    assert_eq!(status["total"], json!(5));
    assert_eq!(status["completed"], json!(5));
    let docs = documents(server, "/v2/batch/scrape", &id, 2).await;
    assert_eq!(
        keys(&docs),
        BTreeSet::from(["/slow", "/s1/p1", "/s1/p2", "/missing"].map(String::from))
    );
    assert!(
        docs.iter()
            .all(|d| d["links"].is_array() && d["markdown"].is_string())
    );
    let errors = get(&format!("{server}/v2/batch/scrape/{id}/errors")).await;
    assert_eq!(
        errors.json["errors"].as_array().unwrap().len(),
        1,
        "{}",
        errors.pretty()
    );
    assert_eq!(errors.json["errors"][0]["url"], json!("http://127.0.0.1:1/x"));
    let e = &errors.json["errors"][0];
    assert!(
        e["id"].is_string() && e["timestamp"].is_string() && e["error"].is_string() && e["code"].is_string(),
        "{e}"
    );

    // ignoreInvalidURLs: false refuses the batch.
    let r = post_raw(
        &format!("{server}/v2/batch/scrape"),
        json!({"urls": ["http://exa mple.com/"], "ignoreInvalidURLs": false}).to_string(),
        &[],
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.pretty());
    // Scrape options are validated as /v2/scrape validates them.
    let r = post_raw(
        &format!("{server}/v2/batch/scrape"),
        json!({"urls": [site.url("/")], "formats": ["nope"]}).to_string(),
        &[],
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.pretty());
}

/// Appending while the batch finishes: either the URL is accepted and
/// scraped, or the answer is 409 JOB_FINISHED — never accepted and dropped.
/// Both outcomes are first forced (an append to a batch still waiting on a
/// slow page, an append to a completed batch), then the append is raced
/// against the batch's end, where only the invariant is asserted: how the
/// race falls depends on the machine's speed.
#[tokio::test]
async fn appending_to_a_finishing_batch_never_loses_a_url() {
    let site = CrawlSite::start(SiteShape::default());
    let server = shared().url();
    let append = |id: String, url: String| async move {
        post_raw(
            &format!("{server}/v2/batch/scrape"),
            json!({"urls": [url], "appendToId": id}).to_string(),
            &[],
        )
        .await
    };

    // A batch held open by a page answered after a second takes the append.
    let id = start(
        server,
        "/v2/batch/scrape",
        json!({"urls": [site.url("/slow")], "formats": ["markdown"]}),
    )
    .await;
    let r = append(id.clone(), site.url("/s3/p0")).await;
    assert_eq!(r.status, 200, "{}", r.pretty());
    let status = wait(server, "/v2/batch/scrape", &id, Duration::from_secs(30)).await;
    assert_eq!(status["status"], json!("completed"), "{status}");
    assert_eq!(status["total"], json!(2), "{status}");
    assert_eq!(documents(server, "/v2/batch/scrape", &id, 10).await.len(), 2);

    // A completed batch refuses it.
    let r = append(id.clone(), site.url("/s3/p1")).await;
    r.assert_error(409, "JOB_FINISHED");
    assert_eq!(documents(server, "/v2/batch/scrape", &id, 10).await.len(), 2);

    for round in 0..16u64 {
        let first = site.url(&format!("/s2/p{}", round % 30));
        let id = start(
            server,
            "/v2/batch/scrape",
            json!({"urls": [first], "formats": ["markdown"]}),
        )
        .await;
        // Spread the append over the batch's short life to meet its end.
        tokio::time::sleep(Duration::from_millis(round * 15)).await;
        let r = append(id.clone(), site.url(&format!("/s3/p{}", 2 + round % 28))).await;
        let status = wait(server, "/v2/batch/scrape", &id, Duration::from_secs(30)).await;
        assert_eq!(status["status"], json!("completed"), "{status}");
        let docs = documents(server, "/v2/batch/scrape", &id, 10).await;
        match r.status {
            200 => {
                assert_eq!(docs.len(), 2, "appended URL lost: {status}");
                assert_eq!(status["total"], json!(2));
            }
            409 => {
                r.assert_error(409, "JOB_FINISHED");
                assert_eq!(docs.len(), 1, "{status}");
            }
            other => panic!("append answered {other}: {}", r.pretty()),
        }
    }
}

#[tokio::test]
async fn map_lists_sitemap_and_page_links() {
    let site = CrawlSite::start(SiteShape::default());
    let server = shared().url();
    let map = |body: Value| async move {
        let r = post_raw(&format!("{server}/v2/map"), body.to_string(), &[]).await;
        assert_eq!(r.status, 200, "{}", r.pretty());
        r.json["links"].as_array().unwrap().clone()
    };
    let urls = |links: &[Value]| -> Vec<String> {
        links
            .iter()
            .map(|l| page_key(l["url"].as_str().unwrap()))
            .collect()
    };

    let all = map(json!({"url": site.url("/")})).await;
    let keys = urls(&all);
    assert_eq!(
        keys.len(),
        keys.iter().collect::<BTreeSet<_>>().len(),
        "no duplicates: {keys:?}"
    );
    assert_eq!(keys[0], "/");
    assert_eq!(all[0]["title"], json!("Home"));
    for want in ["/s0", "/s7", "/orphan/0", "/orphan/4", "/old", "/calendar"] {
        assert!(keys.contains(&want.to_string()), "{want} in {keys:?}");
    }
    // robots.txt disallows /private/ (linked from the home page): not listed.
    assert!(
        !keys.iter().any(|k| k.starts_with("/private")),
        "robots-refused URL mapped: {keys:?}"
    );
    assert!(
        !keys.iter().any(|k| k.contains("elsewhere")),
        "external link: {keys:?}"
    );
    let only = urls(&map(json!({"url": site.url("/"), "sitemap": "only"})).await);
    assert!(
        only.contains(&"/orphan/2".to_string()) && !only.contains(&"/old".to_string()),
        "{only:?}"
    );
    let skip = urls(&map(json!({"url": site.url("/"), "sitemap": "skip"})).await);
    assert!(
        !skip.iter().any(|k| k.starts_with("/orphan")) && skip.contains(&"/old".to_string()),
        "{skip:?}"
    );
    let with_query = urls(&map(json!({"url": site.url("/"), "ignoreQueryParameters": false})).await);
    assert!(
        with_query.contains(&"/calendar?month=0".to_string()),
        "{with_query:?}"
    );
    let searched = urls(&map(json!({"url": site.url("/"), "search": "orphan 3"})).await);
    assert_eq!(searched[0], "/orphan/3", "{searched:?}");
    assert!(
        searched.iter().all(|k| k.contains("orphan") || k.contains('3')),
        "{searched:?}"
    );
    assert_eq!(map(json!({"url": site.url("/"), "limit": 3})).await.len(), 3);
    // A start page slower than the timeout: 408 MAP_TIMEOUT.
    let r = post_raw(
        &format!("{server}/v2/map"),
        json!({"url": site.url("/slow"), "timeout": 300}).to_string(),
        &[],
    )
    .await;
    r.assert_error(408, "MAP_TIMEOUT");
}

/// `zeroDataRetention` on a batch or a crawl covers each of its pages: none
/// goes into the page cache (a lockdown scrape of it then misses), while the
/// same batch without it is cached. A job's scrape options have no `url` (each
/// page has its own): sent there, it is refused, not silently replaced.
#[tokio::test]
async fn job_zero_data_retention_reaches_every_page_and_url_is_no_job_option() {
    let site = CrawlSite::start(SiteShape::default());
    let server = shared().url();
    let page = |tag: &str| site.url(&format!("/s1/p1?zdr={tag}"));
    let lockdown = |url: String| {
        let endpoint = format!("{server}/v2/scrape");
        async move { post_raw(&endpoint, json!({"url": url, "lockdown": true}).to_string(), &[]).await }
    };
    let batch = |body: Value| start(server, "/v2/batch/scrape", body);
    let control = batch(json!({"urls": [page("off")]})).await;
    let private = batch(json!({"urls": [page("batch")], "zeroDataRetention": true})).await;
    let crawl = start(
        server,
        "/v2/crawl",
        json!({"url": page("crawl"), "limit": 1, "zeroDataRetention": true}),
    )
    .await;
    for (path, id) in [
        ("/v2/batch/scrape", &control),
        ("/v2/batch/scrape", &private),
        ("/v2/crawl", &crawl),
    ] {
        let status = wait(server, path, id, Duration::from_secs(60)).await;
        assert_eq!(
            (&status["status"], &status["completed"]),
            (&json!("completed"), &json!(1))
        );
        let docs = documents(server, path, id, 10).await;
        assert!(docs[0]["markdown"].is_string(), "{}", docs[0]);
    }
    let hit = lockdown(page("off")).await;
    assert_eq!(hit.status, 200, "the control page is cached: {}", hit.pretty());
    for tag in ["batch", "crawl"] {
        lockdown(page(tag))
            .await
            .assert_error(404, "SCRAPE_LOCKDOWN_CACHE_MISS");
    }

    for (path, body, at) in [
        (
            "/v2/batch/scrape",
            json!({"urls": [page("u")], "url": page("v")}),
            json!([]),
        ),
        (
            "/v2/crawl",
            json!({"url": page("u"), "scrapeOptions": {"url": page("v")}}),
            json!(["scrapeOptions"]),
        ),
    ] {
        let r = post_raw(&format!("{server}{path}"), body.to_string(), &[]).await;
        r.assert_error(400, "BAD_REQUEST");
        let issue = &r.json["details"][0];
        assert_eq!(
            (&issue["code"], &issue["keys"], &issue["path"]),
            (&json!("unrecognized_keys"), &json!(["url"]), &at),
            "{}",
            r.pretty()
        );
    }
}
