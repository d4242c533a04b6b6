//! Request validation of every JSON body the API takes: `/v2/scrape`,
//! `/v2/crawl`, `/v2/batch/scrape`, `/v2/map`, the crawl preview, and the
//! `options` part of a `/v2/parse` upload. Invariants: no panic; a refusal is
//! a 4xx with a non-empty message and a JSON error body; bounded time.
#![no_main]

use distill::api::ApiError;
use distill::api::crawl_request::{BatchRequest, CrawlRequest, MapRequest, preview_request};
use distill::api::parse_request::parse_upload_options;
use distill::api::scrape_request::ScrapeRequest;
use libfuzzer_sys::fuzz_target;

/// A catalog with one plugin format (`summary`), like a stock server.
fn catalog(name: &str) -> bool {
    name == "summary"
}

fn check<T>(answer: Result<T, ApiError>) {
    if let Err(e) = answer {
        assert!(
            e.status.is_client_error(),
            "{} for a request body: {}",
            e.status,
            e.message
        );
        assert!(!e.message.is_empty(), "empty error message");
        serde_json::to_string(&e.body()).expect("error body serialises");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check(parse_upload_options(Some(text), &catalog));
    let Ok(body) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    check(ScrapeRequest::from_json(&body, &catalog));
    check(CrawlRequest::from_json(&body, &catalog));
    check(BatchRequest::from_json(&body, &catalog));
    check(MapRequest::from_json(&body, &catalog));
    check(preview_request(&body, &catalog));
});
