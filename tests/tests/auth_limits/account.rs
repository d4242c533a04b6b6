//! The SDKs' account calls besides credit usage (`get_concurrency`,
//! `get_queue_status`, `get_token_usage`, the historical usage calls) and
//! `get_parse_formats`, in the shapes firecrawl-py 4.55 / firecrawl-js 4.42
//! read (docs/API.md, "Team and account calls").

use super::*;

async fn get_as(server: &TestServer, path: &str, key: Option<&str>) -> Value {
    let auth = key.map(|k| format!("Bearer {k}"));
    let a = call("GET", &server.endpoint(path), auth.as_deref(), None).await;
    assert_eq!(a.status, 200, "GET {path}: {}", a.json);
    assert_eq!(a.json["success"], true, "{}", a.json);
    a.json
}

#[tokio::test]
async fn concurrency_and_queue_status_count_the_keys_held_and_waiting_scrapes() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let key = create_key(&keys, "acct", &["--concurrency", "1"]);
    let idle = get_as(&server, "/v2/concurrency-check", Some(&key)).await;
    assert_eq!(
        (&idle["concurrency"], &idle["maxConcurrency"]),
        (&json!(0), &json!(1))
    );

    // One scrape holds the key's only slot, a second waits for it.
    let slow = |ms: u64| json!({"url": site().url(&format!("/slow?ms={ms}&n={}", uuid_like())), "maxAge": 0});
    let (s1, s2, k1, k2, b1, b2) = (
        server.url().to_string(),
        server.url().to_string(),
        key.clone(),
        key.clone(),
        slow(2500),
        slow(10),
    );
    let holder = tokio::spawn(async move { scrape_as(&s1, &k1, &b1).await });
    tokio::time::sleep(Duration::from_millis(400)).await;
    let waiter = tokio::spawn(async move { scrape_as(&s2, &k2, &b2).await });
    tokio::time::sleep(Duration::from_millis(400)).await;
    let busy = get_as(&server, "/v2/concurrency-check", Some(&key)).await;
    assert_eq!(
        (&busy["concurrency"], &busy["maxConcurrency"]),
        (&json!(1), &json!(1))
    );
    let q = get_as(&server, "/v2/team/queue-status", Some(&key)).await;
    assert_eq!(
        [
            &q["jobsInQueue"],
            &q["activeJobsInQueue"],
            &q["waitingJobsInQueue"],
            &q["maxConcurrency"]
        ],
        [&json!(2), &json!(1), &json!(1), &json!(1)],
        "{q}"
    );
    assert!(q.as_object().unwrap().contains_key("mostRecentSuccess"), "{q}");
    assert_eq!(holder.await.unwrap().status, 200);
    assert_eq!(waiter.await.unwrap().status, 200);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let after = get_as(&server, "/v2/concurrency-check", Some(&key)).await;
    assert_eq!(after["concurrency"], 0, "slots given back: {after}");

    // Historical usage: the key's credits (2 scrapes), named per key on request.
    let h = get_as(
        &server,
        "/v2/team/credit-usage/historical?byApiKey=true",
        Some(&key),
    )
    .await;
    assert_eq!(h["periods"][0]["creditsUsed"], 2, "{h}");
    assert_eq!(h["periods"][0]["apiKey"], "acct", "{h}");
    let h = get_as(&server, "/v2/team/credit-usage/historical", Some(&key)).await;
    assert!(h["periods"][0].get("apiKey").is_none(), "{h}");
    let t = get_as(&server, "/v2/team/token-usage/historical", Some(&key)).await;
    assert_eq!(t["periods"][0]["tokensUsed"], 0, "{t}");
    // Still behind the key, as every /v2 route.
    let anonymous = call("GET", &server.endpoint("/v2/concurrency-check"), None, None).await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.json);
}

#[tokio::test]
async fn without_keys_the_account_calls_answer_upstreams_unlimited_figures() {
    let server = distill_e2e::shared();
    let c = get_as(server, "/v2/concurrency-check", None).await;
    assert_eq!(
        (&c["concurrency"], &c["maxConcurrency"]),
        (&json!(0), &json!(99_999_999))
    );
    let q = get_as(server, "/v2/team/queue-status", None).await;
    assert_eq!(
        (&q["jobsInQueue"], &q["maxConcurrency"]),
        (&json!(0), &json!(99_999_999))
    );
    let t = get_as(server, "/v2/team/token-usage", None).await;
    assert_eq!(t["data"]["remainingTokens"], 99_999_999, "{t}");
    assert!(
        t["data"].as_object().unwrap().contains_key("billingPeriodStart"),
        "{t}"
    );
    let h = get_as(server, "/v2/team/credit-usage/historical", None).await;
    assert_eq!(h["periods"][0]["creditsUsed"], 0, "{h}");

    // Parse formats: every entry has the fields the SDK's ParseFormat requires.
    let f = get_as(server, "/v2/parse/formats", None).await;
    let formats = f["data"]["formats"].as_array().expect("data.formats");
    for entry in formats {
        for field in ["format", "kind", "extensions", "mimeTypes", "available"] {
            assert!(entry.get(field).is_some(), "{field} missing in {entry}");
        }
    }
    let named = |name: &str| formats.iter().find(|e| e["format"] == name).cloned();
    let html = named("html").expect("html");
    assert_eq!(html["extensions"], json!([".html", ".htm", ".xhtml"]));
    assert_eq!(html["available"], true);
    let pdf = named("pdf").expect("the shipped pdf converter");
    assert_eq!(
        (&pdf["extensions"], &pdf["available"]),
        (&json!([".pdf"]), &json!(true))
    );
    assert!(
        pdf["mimeTypes"]
            .as_array()
            .unwrap()
            .contains(&json!("application/pdf")),
        "{pdf}"
    );
}
