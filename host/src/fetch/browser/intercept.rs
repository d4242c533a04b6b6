//! Request interception (the DevTools Fetch domain): every request a page
//! makes — the document, its redirects, subresources, fetch/XHR — is paused
//! and checked before Chromium sends it. Refused: targets the
//! [`TargetGuard`] refuses (IP literals, and names after resolving them) and,
//! with `blockAds`, hosts of the shipped ad/tracker list.
//!
//! Chromium resolves the name again when it connects; the window between the
//! two lookups (DNS rebinding) is not closed here.

use super::adblock::is_ad_host;
use crate::fetch::target_guard::TargetGuard;
use chromiumoxide::cdp::browser_protocol::fetch::{
    ContinueRequestParams, EnableParams, EventRequestPaused, FailRequestParams, RequestPattern, RequestStage,
};
use chromiumoxide::cdp::browser_protocol::network::ErrorReason;
use chromiumoxide::page::Page;
use futures::StreamExt;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use url::{Host, Url};

/// What the interceptor refused, for the error of a blocked document.
#[derive(Default)]
pub struct Refusals {
    /// (url, reason) in order.
    pub list: Mutex<Vec<(String, String)>>,
}

impl Refusals {
    /// The reason `url` was refused, if it was.
    pub fn reason_for(&self, url: &str) -> Option<String> {
        let list = self.list.lock().unwrap();
        list.iter().find(|(u, _)| u == url).map(|(_, r)| r.clone())
    }

    /// The first refusal, if any.
    pub fn first(&self) -> Option<(String, String)> {
        self.list.lock().unwrap().first().cloned()
    }
}

/// A Fetch pattern pausing every request before it is sent (the page's
/// guard here, and the browser-level proxy-credentials handler).
pub(super) fn every_request() -> RequestPattern {
    RequestPattern::builder()
        .url_pattern("*")
        .request_stage(RequestStage::Request)
        .build()
}

/// Starts intercepting `page`'s requests; the task ends with the page.
pub async fn intercept(
    page: &Page,
    guard: TargetGuard,
    block_ads: bool,
) -> Result<(Arc<Refusals>, tokio::task::JoinHandle<()>), String> {
    let mut paused = page
        .event_listener::<EventRequestPaused>()
        .await
        .map_err(|e| e.to_string())?;
    let pattern = every_request();
    page.execute(EnableParams::builder().pattern(pattern).build())
        .await
        .map_err(|e| e.to_string())?;
    let refusals = Arc::new(Refusals::default());
    let record = refusals.clone();
    let page = page.clone();
    let task = tokio::spawn(async move {
        while let Some(event) = paused.next().await {
            let url = event.request.url.clone();
            let verdict = check(&url, guard, block_ads).await;
            let sent = match verdict {
                Ok(()) => page
                    .execute(ContinueRequestParams::new(event.request_id.clone()))
                    .await
                    .map(|_| ()),
                Err(reason) => {
                    tracing::debug!(%url, %reason, "browser request refused");
                    record.list.lock().unwrap().push((url, reason));
                    page.execute(FailRequestParams::new(
                        event.request_id.clone(),
                        ErrorReason::BlockedByClient,
                    ))
                    .await
                    .map(|_| ())
                }
            };
            if sent.is_err() {
                // The page is gone.
                break;
            }
        }
    });
    Ok((refusals, task))
}

/// Whether the page may request `url`: `Err(reason)` when not.
pub async fn check(url: &str, guard: TargetGuard, block_ads: bool) -> Result<(), String> {
    let Ok(parsed) = Url::parse(url) else {
        return Err("not a valid URL".into());
    };
    match parsed.scheme() {
        "http" | "https" | "ws" | "wss" => {}
        // In-page resources: no network.
        "data" | "blob" | "about" => return Ok(()),
        other => return Err(format!("the {other}: scheme is not allowed")),
    }
    let host = match parsed.host() {
        Some(h) => h,
        None => return Err("no host".into()),
    };
    if block_ads
        && let Host::Domain(name) = &host
        && is_ad_host(name)
    {
        return Err(format!("{name} is on the ad and tracker list (blockAds)"));
    }
    if guard.allow_private {
        return Ok(());
    }
    let addrs: Vec<IpAddr> = match host {
        Host::Ipv4(v4) => vec![IpAddr::V4(v4)],
        Host::Ipv6(v6) => vec![IpAddr::V6(v6)],
        Host::Domain(name) => {
            let port = parsed.port_or_known_default().unwrap_or(80);
            match tokio::net::lookup_host((name, port)).await {
                Ok(found) => found.map(|a| a.ip()).collect(),
                Err(_) => return Err(format!("DNS resolution failed for hostname \"{name}\"")),
            }
        }
    };
    for ip in addrs {
        if let Some(kind) = guard.refusal(ip) {
            return Err(format!("{ip} is a {kind} address"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRICT: TargetGuard = TargetGuard::strict(&[]);
    const OPEN: TargetGuard = TargetGuard::open();

    #[tokio::test]
    async fn private_targets_are_refused_by_literal_and_by_name() {
        for url in [
            "http://127.0.0.1:8080/x",
            "http://10.1.2.3/",
            "http://169.254.169.254/latest/meta-data",
            "http://[::1]/",
            "http://localhost./",
        ] {
            assert!(check(url, STRICT, false).await.is_err(), "{url}");
            assert!(check(url, OPEN, false).await.is_ok(), "{url}");
        }
    }

    #[tokio::test]
    async fn in_page_schemes_pass_and_others_do_not() {
        assert!(check("data:text/plain,hi", STRICT, false).await.is_ok());
        assert!(check("about:blank", STRICT, false).await.is_ok());
        assert!(check("file:///etc/passwd", OPEN, false).await.is_err());
        assert!(check("chrome://settings", OPEN, false).await.is_err());
    }

    #[tokio::test]
    async fn allowed_ranges_pass_and_others_stay_refused() {
        let allowed = crate::fetch::allowed_cidrs::parse("127.0.0.1/32").unwrap().leak();
        let guard = TargetGuard::strict(allowed);
        assert!(check("http://127.0.0.1:8080/x", guard, false).await.is_ok());
        let err = check("http://127.0.0.2:8080/x", guard, false).await.unwrap_err();
        assert!(err.contains("127.0.0.2 is a loopback address"), "{err}");
        assert!(check("http://10.1.2.3/", guard, false).await.is_err());
    }

    #[tokio::test]
    async fn ad_hosts_are_refused_only_with_block_ads() {
        let ad = "http://www.doubleclick.net/ad.js";
        let err = check(ad, OPEN, true).await.unwrap_err();
        assert!(err.contains("blockAds"), "{err}");
        assert!(check(ad, OPEN, false).await.is_ok());
    }
}
