//! A crawl or batch job belongs to the key that started it: another key gets
//! 403 FORBIDDEN on its status, errors, cancel and append, and does not see it
//! among the active crawls (docs/API.md, "Job ownership").

use super::*;
use distill_e2e::keys::Answer;

fn refused(r: &Answer, what: &str) {
    assert_eq!(r.status, 403, "{what}: {}", r.json);
    assert_eq!(r.json["success"], json!(false), "{what}: {}", r.json);
    assert_eq!(r.json["code"], json!("FORBIDDEN"), "{what}: {}", r.json);
}

#[tokio::test]
async fn a_job_is_served_only_to_the_key_that_started_it() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let (owner, other) = (create_key(&keys, "owner", &[]), create_key(&keys, "other", &[]));
    let (mine, theirs) = (format!("Bearer {owner}"), format!("Bearer {other}"));
    let (mine, theirs) = (Some(mine.as_str()), Some(theirs.as_str()));
    let s = server.url();
    // A crawl slow enough (43 pages, 0.2 s apart) to be running throughout.
    let crawl_site = CrawlSite::start(SiteShape::default());
    let body = json!({"url": crawl_site.url("/"), "sitemap": "skip", "delay": 0.2});
    let started = call("POST", &format!("{s}/v2/crawl"), mine, Some(&body)).await;
    assert_eq!(started.status, 200, "{}", started.json);
    let id = started.json["id"].as_str().unwrap().to_string();
    let job = format!("{s}/v2/crawl/{id}");
    refused(&call("GET", &job, theirs, None).await, "status");
    refused(
        &call("GET", &format!("{job}/errors"), theirs, None).await,
        "errors",
    );
    refused(&call("DELETE", &job, theirs, None).await, "cancel");
    let listed = |r: Answer| {
        r.json["crawls"]
            .as_array()
            .unwrap_or_else(|| panic!("{}", r.json))
            .iter()
            .any(|c| c["id"] == json!(id))
    };
    let active = format!("{s}/v2/crawl/active");
    assert!(
        listed(call("GET", &active, mine, None).await),
        "the owner sees its crawl"
    );
    assert!(
        !listed(call("GET", &active, theirs, None).await),
        "another key does not"
    );
    // The other key's cancel did nothing; the owner's calls work.
    let status = call("GET", &job, mine, None).await;
    assert_eq!(status.status, 200, "{}", status.json);
    assert_eq!(status.json["status"], json!("scraping"), "{}", status.json);
    let cancelled = call("DELETE", &job, mine, None).await;
    assert_eq!(cancelled.json["status"], json!("cancelled"), "{}", cancelled.json);

    // A batch: another key may not append pages (they would spend the
    // owner's credits), nor read it.
    let token = rand_token();
    let batch = json!({"urls": [crawl_site.url("/")]});
    let started = call("POST", &format!("{s}/v2/batch/scrape"), mine, Some(&batch)).await;
    assert_eq!(started.status, 200, "{}", started.json);
    let bid = started.json["id"].as_str().unwrap().to_string();
    let append = json!({"urls": [site().url(&format!("/hits/append-{token}"))], "appendToId": bid});
    refused(
        &call("POST", &format!("{s}/v2/batch/scrape"), theirs, Some(&append)).await,
        "append",
    );
    refused(
        &call("GET", &format!("{s}/v2/batch/scrape/{bid}"), theirs, None).await,
        "batch status",
    );
    let done = jobs::batch_once_done(&format!("{s}/v2/batch/scrape/{bid}"), mine.unwrap()).await;
    assert_eq!(done["completed"], json!(1), "{done}");
    assert_eq!(
        site().hits(&format!("append-{token}")),
        0,
        "the refused page was never fetched"
    );
}
