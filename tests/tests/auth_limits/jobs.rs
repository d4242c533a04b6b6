//! Credits spent by batch scrapes and crawls, and by scrapes a killed server was running:
//! billed once, to the key that started the work, never past its credits.

use super::*;

/// Credits are on disk before the answer leaves: a `kill -9` right after a
/// burst of scrapes loses none of them (the embedded counters commit each
/// change durably; docs/OPERATORS.md, "Credits").
#[tokio::test]
async fn credits_spent_survive_a_kill_9_right_after() {
    let keys = keys_file();
    let data_dir = fresh_tmp_dir().join("data").to_string_lossy().into_owned();
    let start = || server_with_keys_on(&keys, &data_dir);
    let server = start();
    let key = create_key(&keys, "durable", &["--credits", "1000"]);
    let s = server.url().to_string();
    // Pages (1 credit) and a 3-page PDF (1 reserved, 2 settled after), at once.
    let pdf = json!({"url": site().url("/documents/report.pdf"), "maxAge": 0});
    let bodies: Vec<Value> = (0..12)
        .map(|i| if i % 3 == 0 { pdf.clone() } else { page() })
        .collect();
    let answers = futures_join(bodies.into_iter().map(|b| {
        let (s, key) = (s.clone(), key.clone());
        async move { scrape_as(&s, &key, &b).await }
    }))
    .await;
    let spent: u64 = answers
        .iter()
        .map(|a| {
            assert_eq!(a.status, 200, "{}", a.json);
            a.credits()
        })
        .sum();
    assert_eq!(spent, 4 * 3 + 8);
    // SAFETY: a plain syscall on the child this test started.
    unsafe { libc::kill(server.pid() as i32, libc::SIGKILL) };
    assert!(server.terminate(Duration::from_secs(5)));
    let again = start();
    let u = usage_of(again.url(), &key).await;
    assert_eq!(u["creditsUsed"], json!(spent), "{u}");
}

/// The batch job's status at `url` once it has left "scraping" (at most
/// 60 s), asked with `auth`.
pub(crate) async fn batch_once_done(url: &str, auth: &str) -> Value {
    let until = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let r = call("GET", url, Some(auth), None).await;
        if r.json["status"] != "scraping" {
            return r.json;
        }
        assert!(std::time::Instant::now() < until, "{}", r.json);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every page a batch scrape stores is billed to the key that started it
/// (with `creditsUsed` on the page); once the credits are gone its remaining
/// pages fail with INSUFFICIENT_CREDITS instead of being fetched.
#[tokio::test]
async fn batch_pages_are_billed_to_the_key_that_started_the_job() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let key = create_key(&keys, "batch", &["--credits", "4"]);
    let s = server.url();
    let token = rand_token();
    let urls: Vec<String> = (0..4)
        .map(|i| site().url(&format!("/hits/batch-{token}-{i}")))
        .collect();
    let mut all = vec![site().url("/documents/report.pdf")];
    all.extend(urls.iter().cloned());
    // Sequential, so the order of billing is known: the 3-page PDF, then 1 page, then none left.
    let body = json!({"urls": all, "formats": ["markdown"], "maxConcurrency": 1, "maxAge": 0});
    let auth = format!("Bearer {key}");
    let started = call(
        "POST",
        &format!("{s}/v2/batch/scrape"),
        Some(auth.as_str()),
        Some(&body),
    )
    .await;
    assert_eq!(started.status, 200, "{}", started.json);
    let id = started.json["id"].as_str().unwrap().to_string();
    let status = batch_once_done(&format!("{s}/v2/batch/scrape/{id}"), &auth).await;
    let docs = status["data"].as_array().unwrap();
    let mut credits: Vec<u64> = docs
        .iter()
        .map(|d| d["metadata"]["creditsUsed"].as_u64().unwrap())
        .collect();
    credits.sort_unstable();
    assert_eq!(credits, [1, 3], "{status}");
    // The job's creditsUsed is what its pages were billed, the PDF's 3 included.
    assert_eq!(status["creditsUsed"], 4, "{status}");
    let errors = call(
        "GET",
        &format!("{s}/v2/batch/scrape/{id}/errors"),
        Some(auth.as_str()),
        None,
    )
    .await;
    let errors = errors.json["errors"].as_array().unwrap().clone();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        errors.iter().all(|e| e["code"] == "INSUFFICIENT_CREDITS"),
        "{errors:?}"
    );
    // The refused pages were never fetched.
    let fetched: u64 = (0..4).map(|i| site().hits(&format!("batch-{token}-{i}"))).sum();
    assert_eq!(fetched, 1);
    assert_usage(s, &key, 4, 0).await;
}

/// Pages of a job running at once never take a key past its credits: each
/// holds its credit before it is fetched, so with 5 credits and 4 pages at a
/// time exactly 5 of 12 pages are fetched, stored and billed.
#[tokio::test]
async fn concurrent_job_pages_never_pass_the_credits() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let s = server.url();
    let key = create_key(&keys, "conc", &["--credits", "5"]);
    let token = rand_token();
    let urls: Vec<String> = (0..12)
        .map(|i| site().url(&format!("/hits/conc-{token}-{i}?ms=150")))
        .collect();
    let body = json!({"urls": urls, "maxConcurrency": 4, "maxAge": 0});
    let job = run_job_as(s, &key, "/v2/batch/scrape", &body, Duration::from_secs(60)).await;
    assert_eq!((job.documents.len(), job.errors.len()), (5, 7), "{}", job.status);
    assert!(
        job.errors.iter().all(|e| e["code"] == "INSUFFICIENT_CREDITS"),
        "{:?}",
        job.errors
    );
    let fetched: u64 = (0..12).map(|i| site().hits(&format!("conc-{token}-{i}"))).sum();
    assert_eq!(fetched, 5, "no page fetched over quota");
    assert_eq!(job.status["creditsUsed"], 5);
    assert_usage(s, &key, 5, 0).await;

    // Pages costing more than their first credit (3-page PDFs) at once: what
    // is served is what is billed, and never more than the key had.
    let key = create_key(&keys, "conc-pdf", &["--credits", "7"]);
    let mut urls: Vec<String> = (0..3)
        .map(|i| site().url(&format!("/documents/report.pdf?copy={token}-{i}")))
        .collect();
    urls.extend((0..3).map(|i| site().url(&format!("/hits/conc-pdf-{token}-{i}?ms=100"))));
    let body = json!({"urls": urls, "maxConcurrency": 3, "maxAge": 0});
    let job = run_job_as(s, &key, "/v2/batch/scrape", &body, Duration::from_secs(60)).await;
    let billed = job.document_credits();
    assert_eq!(job.documents.len() + job.errors.len(), 6, "{}", job.status);
    assert!(!job.documents.is_empty() && billed <= 7, "{}", job.status);
    assert!(
        job.errors.iter().all(|e| e["code"] == "INSUFFICIENT_CREDITS"),
        "{:?}",
        job.errors
    );
    assert_eq!(job.status["creditsUsed"], billed, "{}", job.status);
    assert_usage(s, &key, billed, 7 - billed).await;
}

/// As upstream, a crawl's limit is lowered to the key's remaining credits.
#[tokio::test]
async fn a_crawl_is_limited_to_the_remaining_credits() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let site = CrawlSite::start(SiteShape {
        sections: 2,
        pages: 6,
        orphans: 0,
    });
    let key = create_key(&keys, "crawl", &["--credits", "4"]);
    let body = json!({"url": site.url("/"), "maxConcurrency": 3, "sitemap": "skip"});
    let job = run_job_as(server.url(), &key, "/v2/crawl", &body, Duration::from_secs(60)).await;
    assert_eq!(job.status["total"], 4, "{}", job.status);
    assert!(!job.documents.is_empty(), "{}", job.status);
    let billed = job.document_credits();
    assert_eq!(job.status["creditsUsed"], billed, "{}", job.status);
    assert_usage(server.url(), &key, billed, 4 - billed).await;
    // A key with no credit left cannot start a crawl or a batch: 402, upstream's body.
    let broke = format!("Bearer {}", create_key(&keys, "broke", &["--credits", "0"]));
    let batch = json!({"urls": [site.url("/")]});
    for (path, body) in [("/v2/crawl", &body), ("/v2/batch/scrape", &batch)] {
        let refused = call("POST", &server.endpoint(path), Some(&broke), Some(body)).await;
        assert_eq!(refused.status, 402, "{path}: {}", refused.json);
        assert!(
            refused.json["error"]
                .as_str()
                .unwrap_or_default()
                .starts_with("Insufficient credits to perform this request."),
            "{}",
            refused.json
        );
    }
}

/// The default counters file under concurrency: 24 scrapes at once against
/// a key with 10 credits (their changes share group commits) serve and bill
/// exactly 10 and refuse the rest with 402; the balance is exact.
#[tokio::test]
async fn concurrent_scrapes_spend_exactly_the_credits_in_the_counters_file() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let key = create_key(&keys, "group", &["--credits", "10"]);
    let calls: Vec<_> = (0..24)
        .map(|_| {
            let (url, key) = (server.url().to_string(), key.clone());
            tokio::spawn(async move { scrape_as(&url, &key, &page()).await })
        })
        .collect();
    let mut statuses = Vec::new();
    let mut billed = 0;
    for call in calls {
        let r = call.await.unwrap();
        if r.status == 200 {
            billed += r.credits();
        }
        statuses.push(r.status);
    }
    let served = statuses.iter().filter(|s| **s == 200).count();
    let refused = statuses.iter().filter(|s| **s == 402).count();
    assert_eq!((served, refused, billed), (10, 14, 10), "{statuses:?}");
    assert_usage(server.url(), &key, 10, 0).await;
}

/// Pages held by a server killed mid-fetch are leased again after the
/// restart (a new attempt, which gives the old lease's hold back) and billed
/// once: the key ends with exactly what the stored pages cost.
#[tokio::test]
async fn job_pages_of_a_killed_server_are_billed_once_after_the_restart() {
    let keys = keys_file();
    let data_dir = fresh_tmp_dir().join("data").to_string_lossy().into_owned();
    let start = || server_with_keys_on(&keys, &data_dir);
    let server = start();
    let key = create_key(&keys, "killed", &["--credits", "10"]);
    let token = format!("killed-{}", rand_token());
    let urls: Vec<String> = (0..2)
        .map(|i| site().url(&format!("/gate/{token}?n={i}")))
        .collect();
    let body = json!({"urls": urls, "maxConcurrency": 2, "maxAge": 0});
    let auth = format!("Bearer {key}");
    let started = call(
        "POST",
        &server.endpoint("/v2/batch/scrape"),
        Some(&auth),
        Some(&body),
    )
    .await;
    assert_eq!(started.status, 200, "{}", started.json);
    let id = started.json["id"].as_str().unwrap().to_string();
    // Both pages are being fetched: each holds its credit.
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while site().gate_arrivals(&token) < 2 {
        assert!(std::time::Instant::now() < until, "the pages were never fetched");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(usage_of(server.url(), &key).await["creditsUsed"], 2);
    // SAFETY: a plain syscall on the child this test started.
    unsafe { libc::kill(server.pid() as i32, libc::SIGKILL) };
    assert!(server.terminate(Duration::from_secs(5)));
    site().open_gate(&token);
    let again = start();
    let status = batch_once_done(&again.endpoint(&format!("/v2/batch/scrape/{id}")), &auth).await;
    assert_eq!(
        (&status["status"], &status["completed"], &status["creditsUsed"]),
        (&json!("completed"), &json!(2), &json!(2)),
        "{status}"
    );
    assert!(site().gate_arrivals(&token) >= 4, "the pages were fetched again");
    assert_usage(again.url(), &key, 2, 8).await;
}
