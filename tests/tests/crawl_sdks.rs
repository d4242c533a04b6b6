//! The official Python (firecrawl-py) and JS (@mendable/firecrawl-js) SDKs'
//! `crawl`, `batch_scrape` / `batchScrape` and `map` calls against Distill,
//! unchanged, on the generated site: each completes with the same page set the
//! HTTP API gives. The SDKs are installed by `make sdk-tools` (a `make test`
//! prerequisite) under target/tools/sdk; the drivers are tests/sdk/crawl_*.

use distill_e2e::crawl_site::{CrawlSite, SiteShape, page_key};
use distill_e2e::sdks::{official_sdks_dir as sdk_dir, repo_root as root};
use distill_e2e::{post_raw, shared};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::process::Command;

/// Runs a driver and parses the JSON it prints.
fn drive(mut cmd: Command) -> Value {
    let out = cmd.output().expect("running the SDK driver");
    assert!(
        out.status.success(),
        "SDK driver failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("driver output {stdout:?}: {e}"))
}

/// Page keys of `urls`, asserting none repeats.
fn unique_keys(what: &str, urls: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for u in urls.as_array().unwrap_or_else(|| panic!("{what}: {urls}")) {
        let u = u
            .as_str()
            .unwrap_or_else(|| panic!("{what}: url missing in {urls}"));
        assert!(out.insert(page_key(u)), "{what}: {u} twice");
    }
    out
}

#[tokio::test]
async fn the_python_and_js_sdks_crawl_batch_and_map() {
    let site = CrawlSite::start(SiteShape::default());
    let server = shared().url();
    let sdk = sdk_dir();
    let crawl_url = site.url("/s1/");
    let map_url = site.url("/");
    let batch: Vec<String> = (0..4).map(|p| site.url(&format!("/s2/p{p}"))).collect();

    let mut expected_crawl: BTreeSet<String> = (0..site.shape.pages).map(|p| format!("/s1/p{p}")).collect();
    expected_crawl.extend(["/s1".to_string(), "/s1/p0?a=1&b=2".to_string()]);
    let expected_batch: BTreeSet<String> = batch.iter().map(|u| page_key(u.as_str())).collect();
    let r = post_raw(
        &format!("{server}/v2/map"),
        json!({"url": map_url}).to_string(),
        &[],
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.pretty());
    let expected_map: BTreeSet<String> = r.json["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| page_key(l["url"].as_str().unwrap()))
        .collect();

    let mut py = Command::new(sdk.join("py/bin/python"));
    py.arg(root().join("tests/sdk/crawl_py.py"));
    let mut js = Command::new("node");
    js.arg(root().join("tests/sdk/crawl_js.mjs")).arg(sdk.join("js"));
    for (name, mut cmd) in [("python", py), ("js", js)] {
        cmd.args([server, &crawl_url, &map_url]).args(&batch);
        let got = tokio::task::spawn_blocking(move || drive(cmd)).await.unwrap();
        assert_eq!(got["crawl"]["status"], json!("completed"), "{name}: {got}");
        assert_eq!(got["crawl"]["markdown"], json!(true), "{name}: {got}");
        assert_eq!(
            unique_keys(name, &got["crawl"]["urls"]),
            expected_crawl,
            "{name} crawl"
        );
        assert_eq!(got["batch"]["status"], json!("completed"), "{name}: {got}");
        assert_eq!(
            unique_keys(name, &got["batch"]["urls"]),
            expected_batch,
            "{name} batch"
        );
        assert_eq!(unique_keys(name, &got["map"]), expected_map, "{name} map");
    }
}
