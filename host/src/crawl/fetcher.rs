//! Plain GETs the crawler makes besides pages: robots.txt and sitemaps,
//! through the HTTP engine (so the target guard checks every hop), with a
//! short deadline.

use crate::fetch::FetchedPage;
use crate::fetch::http::{HttpFetcher, HttpGet};
use std::time::{Duration, Instant};
use url::Url;

/// Deadline of one robots.txt or sitemap fetch.
pub const AUX_TIMEOUT: Duration = Duration::from_secs(15);

/// The crawler's own fetcher.
pub struct RawFetcher {
    http: HttpFetcher,
}

impl RawFetcher {
    pub fn new(http: HttpFetcher) -> RawFetcher {
        RawFetcher { http }
    }

    /// The response, whatever its status; `None` when the fetch failed.
    pub async fn get(&self, url: &Url) -> Option<FetchedPage> {
        self.http
            .get(HttpGet {
                url,
                headers: &[],
                skip_tls_verification: true,
                deadline: Instant::now() + AUX_TIMEOUT,
            })
            .await
            .ok()
    }

    /// The body of a 2xx response.
    pub async fn get_ok(&self, url: &Url) -> Option<bytes::Bytes> {
        self.get(url)
            .await
            .filter(|p| (200..300).contains(&p.status))
            .map(|p| p.body)
    }
}
