//! Upstream routes the official SDKs call that Distill does not offer
//! (docs/API.md, "What Distill does not offer"): instead of the generic 404
//! "No route", a 501 (`/v1`: 400) `NOT_SUPPORTED` saying why and what to use instead, so the
//! SDK's error names the reason. Reached only from the router's fallback.

use crate::api::ApiError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// Path prefixes (a whole segment each) and why each is not offered.
const UNSUPPORTED: &[(&str, &str)] = &[
    (
        "/v2/search",
        "web search needs a search engine on the open internet, which a self-hosted Distill does not \
         have; scrape or map the URLs you know instead (POST /v2/scrape, /v2/map)",
    ),
    (
        "/v2/agent",
        "the research agent is a hosted Firecrawl service; Distill does not run one",
    ),
    (
        "/v2/browser",
        "standalone browser sessions are a hosted Firecrawl service; use POST /v2/scrape/{id}/interact \
         on a scrape instead",
    ),
    (
        "/v2/monitor",
        "monitors are a hosted Firecrawl service; use the `changeTracking` format on scheduled scrapes",
    ),
    (
        "/v1",
        "Distill speaks the Firecrawl v2 API only; use the SDK's v2 client (firecrawl-py `Firecrawl`, \
         firecrawl-js `Firecrawl`) or the /v2 routes",
    ),
];

/// The 501 for an unmatched `path` under an unsupported prefix, if it is one.
/// `/v1` answers 400, not 501: firecrawl-js's v1 client shows the server's
/// message only for 400, 402, 403, 408, 409 and 500.
pub fn response(path: &str) -> Option<Response> {
    let (prefix, why) = UNSUPPORTED.iter().find(|(prefix, _)| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })?;
    let status = if *prefix == "/v1" {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::NOT_IMPLEMENTED
    };
    Some(
        ApiError::new(
            status,
            "NOT_SUPPORTED",
            format!("{prefix} is not supported by this server: {why}."),
        )
        .into_response(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_segments_match() {
        for path in ["/v2/search", "/v2/search/research", "/v2/agent/abc", "/v2/agent"] {
            let r = response(path).unwrap_or_else(|| panic!("{path}"));
            assert_eq!(r.status(), StatusCode::NOT_IMPLEMENTED, "{path}");
        }
        assert_eq!(response("/v1/scrape").unwrap().status(), StatusCode::BAD_REQUEST);
        for path in [
            "/v2/searchx",
            "/v2/scrape",
            "/v2/extract",
            "/v10/x",
            "/v2/crawl/x/y",
            "/",
        ] {
            assert!(response(path).is_none(), "{path}");
        }
    }
}
