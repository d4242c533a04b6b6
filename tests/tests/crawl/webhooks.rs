//! Crawl and batch webhooks: signed, carrying the job metadata, retried.

use super::*;

fn hmac_sha256(key: &[u8], msg: &[u8]) -> String {
    let mut block = [0u8; 64];
    block[..key.len()].copy_from_slice(key);
    let inner = Sha256::new()
        .chain_update(block.map(|b| b ^ 0x36))
        .chain_update(msg)
        .finalize();
    let outer = Sha256::new()
        .chain_update(block.map(|b| b ^ 0x5c))
        .chain_update(inner)
        .finalize();
    outer.iter().map(|b| format!("{b:02x}")).collect()
}

#[tokio::test]
async fn webhooks_are_signed_carry_metadata_and_are_retried() {
    let site = CrawlSite::start(SiteShape::default());
    let receiver = WebhookReceiver::start(1);
    let server = TestServer::start(
        ServerOptions::default()
            .env("DISTILL_WEBHOOK_SECRET", "hook-secret")
            .env("DISTILL_WEBHOOK_BACKOFF_MS", "50"),
    );
    let id = start(
        server.url(),
        "/v2/crawl",
        json!({"url": site.url("/s4/"), "sitemap": "skip", "limit": 5, "webhook": {
            "url": receiver.url(), "headers": {"x-hook-token": "abc"}, "metadata": {"run": "r1"},
            "events": ["started", "page", "completed", "failed"]}}),
    )
    .await;
    let status = wait(server.url(), "/v2/crawl", &id, Duration::from_secs(60)).await;
    assert_eq!(status["status"], json!("completed"));
    let until = Instant::now() + Duration::from_secs(20);
    let accepted = loop {
        let accepted: Vec<_> = receiver.deliveries().into_iter().filter(|d| d.accepted).collect();
        if accepted
            .iter()
            .any(|d| d.body["type"] == json!("crawl.completed"))
        {
            break accepted;
        }
        assert!(Instant::now() < until, "{:?}", receiver.deliveries());
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let types: Vec<&str> = accepted
        .iter()
        .map(|d| d.body["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        types.iter().filter(|t| **t == "crawl.started").count(),
        1,
        "{types:?}"
    );
    assert_eq!(
        types.iter().filter(|t| **t == "crawl.page").count(),
        5,
        "{types:?}"
    );
    assert_eq!(
        types.iter().filter(|t| **t == "crawl.completed").count(),
        1,
        "{types:?}"
    );
    let completed_at = types.iter().position(|t| *t == "crawl.completed").unwrap();
    assert!(
        types.iter().rposition(|t| *t == "crawl.page").unwrap() < completed_at,
        "completed after every page: {types:?}"
    );
    for d in receiver.deliveries() {
        assert_eq!(d.body["id"], json!(id));
        assert_eq!(d.body["metadata"], json!({"run": "r1"}));
        assert_eq!(d.headers.get("x-hook-token").map(String::as_str), Some("abc"));
        let sig = d.headers.get("x-firecrawl-signature").expect("signed");
        assert_eq!(sig, &format!("sha256={}", hmac_sha256(b"hook-secret", &d.raw)));
        assert_eq!(d.body["success"], json!(true));
    }
    let pages: BTreeSet<String> = accepted
        .iter()
        .filter(|d| d.body["type"] == json!("crawl.page"))
        .map(|d| page_key(d.body["data"][0]["metadata"]["url"].as_str().unwrap()))
        .collect();
    let docs = keys(&documents(server.url(), "/v2/crawl", &id, 100).await);
    assert_eq!(pages, docs, "one page event per stored document");
    // Every accepted delivery was first refused once.
    assert_eq!(receiver.deliveries().len(), accepted.len() * 2);

    // Batch scrape: only the subscribed event, under its own type.
    let id = start(
        server.url(),
        "/v2/batch/scrape",
        json!({"urls": [site.url("/s1/p1"), site.url("/s1/p2")], "webhook": {"url": receiver.url(), "events": ["completed"]}}),
    )
    .await;
    wait(server.url(), "/v2/batch/scrape", &id, Duration::from_secs(60)).await;
    let until = Instant::now() + Duration::from_secs(20);
    while !receiver
        .deliveries()
        .iter()
        .any(|d| d.accepted && d.body["type"] == json!("batch_scrape.completed"))
    {
        assert!(Instant::now() < until);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        !receiver
            .deliveries()
            .iter()
            .any(|d| d.body["type"] == json!("batch_scrape.page"))
    );
}
