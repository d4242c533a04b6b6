//! The browser engine through the operator's proxy pools (docs/OPERATORS.md,
//! "Proxies"), as the HTTP engine routes ([`crate::fetch::routing::plan`]):
//! the pool a request's `proxy` names, `auto`'s one retry with the enhanced
//! pool after a failure or a 401/403/429, `proxyUsed` in the engine data.
//! Each page's browser context gets its proxy server (loopback included).
//! Proxies with credentials are refused with a clear error: Chromium takes
//! them only through the DevTools Fetch domain's `authRequired`, which
//! chromiumoxide's own handler answers first (without credentials), and
//! giving it the credentials would make it continue every paused request —
//! past the target guard's interceptor.

use crate::fetch::engine::FetchRequest;
use crate::fetch::routing::{plan, worth_retrying};
use crate::fetch::{FetchError, FetchedPage, PROXY_USED};
use crate::proxy::{ProxyEndpoint, ProxyPools, Tier};
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;

/// How Chromium is told to use a proxy: its proxy-server string.
pub struct BrowserProxy {
    pub server: String,
}

impl BrowserProxy {
    /// Chromium's form of an endpoint, or why it cannot use it.
    pub fn of(proxy: &ProxyEndpoint) -> Result<BrowserProxy, String> {
        let url = &proxy.url;
        let scheme = match url.scheme() {
            "http" => "http",
            "https" => "https",
            "socks5" | "socks5h" => "socks5",
            other => return Err(format!("the browser cannot use a {other} proxy ({proxy})")),
        };
        if !url.username().is_empty() || url.password().is_some() {
            return Err(format!(
                "the browser engine cannot use a proxy with credentials ({proxy}); give it a proxy \
                 that admits the server without them (e.g. by address)"
            ));
        }
        let host = url.host_str().unwrap_or_default();
        let server = match url.port() {
            Some(port) => format!("{scheme}://{host}:{port}"),
            None => format!("{scheme}://{host}"),
        };
        Ok(BrowserProxy { server })
    }
}

/// The browser engine's fetch through the pools: `attempt` loads the page
/// once, through the proxy given (the engine's own fetch).
pub async fn fetch_routed<'a, F, Fut>(
    pools: &ProxyPools,
    req: FetchRequest<'a>,
    attempt: F,
) -> Result<FetchedPage, FetchError>
where
    F: Fn(Option<BrowserProxy>) -> Fut,
    Fut: Future<Output = Result<FetchedPage, FetchError>>,
{
    let country = req.options.location.as_ref().map(|l| l.country.as_str());
    let plan = plan(pools, &req.options.proxy, country);
    let (mut tier, first) = plan.first;
    let via = |proxy: Option<Arc<ProxyEndpoint>>| {
        let chosen = proxy.as_deref().map(BrowserProxy::of).transpose();
        async {
            match chosen {
                Ok(chosen) => attempt(chosen).await,
                Err(message) => Err(FetchError::Other {
                    url: req.url.to_string(),
                    message,
                }),
            }
        }
    };
    let mut outcome = via(first).await;
    if let Some(enhanced) = plan.retry
        && worth_retrying(&outcome)
        && Instant::now() < req.deadline
    {
        tracing::debug!(proxy = %enhanced, "browser, proxy auto: retrying with the enhanced pool");
        outcome = via(Some(enhanced)).await;
        tier = Tier::Enhanced;
    }
    outcome.map(|mut page| {
        page.engine_data.insert(PROXY_USED.into(), json!(tier.name()));
        page
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(url: &str) -> ProxyEndpoint {
        ProxyEndpoint {
            url: url::Url::parse(url).unwrap(),
        }
    }

    #[test]
    fn chromium_forms_of_endpoints() {
        let p = BrowserProxy::of(&endpoint("http://127.0.0.1:8080")).unwrap();
        assert_eq!(p.server, "http://127.0.0.1:8080");
        let p = BrowserProxy::of(&endpoint("socks5h://10.0.0.1:1080")).unwrap();
        assert_eq!(p.server, "socks5://10.0.0.1:1080");
        let refused = BrowserProxy::of(&endpoint("http://us:secret@10.0.0.1:3128"))
            .err()
            .unwrap();
        assert!(
            refused.contains("credentials") && !refused.contains("secret"),
            "{refused}"
        );
    }
}
