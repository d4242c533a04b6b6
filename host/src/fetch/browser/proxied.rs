//! The browser engine through the operator's proxy pools (docs/OPERATORS.md,
//! "Proxies"), routed as the HTTP engine is ([`crate::fetch::routing::plan`]
//! and [`run_plan`]): the pool a request's `proxy` names, `auto`'s one retry
//! with the enhanced pool after a failure or a 401/403/429, `proxyUsed` in
//! the engine data. Each page's browser context gets its proxy server
//! (loopback included). An HTTP(S) proxy's credentials are answered by the
//! browser-level handler of [`super::proxy_auth`]; when the proxy refuses
//! them the fetch fails saying so. SOCKS5 proxies with credentials are
//! refused (Chromium has no SOCKS authentication).

use super::proxy_auth::{ProxyCredentials, origin_of};
use crate::fetch::engine::FetchRequest;
use crate::fetch::routing::{plan, run_plan};
use crate::fetch::{FetchError, FetchedPage};
use crate::proxy::{ProxyEndpoint, ProxyPools};
use std::sync::Arc;
use std::time::Instant;

/// How Chromium is told to use a proxy: its proxy-server string.
pub struct BrowserProxy {
    pub server: String,
}

impl BrowserProxy {
    /// Chromium's form of an endpoint (credentials left out), or why it cannot use it.
    pub fn of(proxy: &ProxyEndpoint) -> Result<BrowserProxy, String> {
        let url = &proxy.url;
        let has_credentials = !url.username().is_empty() || url.password().is_some();
        let scheme = match url.scheme() {
            "http" => "http",
            "https" => "https",
            "socks5" | "socks5h" if has_credentials => {
                return Err(format!(
                    "the browser engine cannot use a SOCKS5 proxy with credentials ({proxy}): \
                     Chromium has no SOCKS authentication; use an HTTP proxy or one that admits \
                     the server without credentials"
                ));
            }
            "socks5" | "socks5h" => "socks5",
            other => return Err(format!("the browser cannot use a {other} proxy ({proxy})")),
        };
        let host = url.host_str().unwrap_or_default();
        let server = match url.port() {
            Some(port) => format!("{scheme}://{host}:{port}"),
            None => format!("{scheme}://{host}"),
        };
        Ok(BrowserProxy { server })
    }
}

/// Chromium's errors for credentials a proxy (or site) would not take.
const AUTH_FAILURES: [&str; 2] = ["ERR_INVALID_AUTH_CREDENTIALS", "ERR_PROXY_AUTH"];

/// The browser engine's fetch through the pools: `attempt` loads the page
/// once, through the proxy given (the engine's own fetch); `credentials`
/// are those the pool's Chromium answers proxy challenges with.
pub async fn fetch_routed<'a, F, Fut>(
    pools: &ProxyPools,
    credentials: Option<&ProxyCredentials>,
    req: FetchRequest<'a>,
    attempt: F,
) -> Result<FetchedPage, FetchError>
where
    F: Fn(Option<BrowserProxy>) -> Fut,
    Fut: Future<Output = Result<FetchedPage, FetchError>>,
{
    let country = req.options.location.as_ref().map(|l| l.country.as_str());
    let plan = plan(pools, &req.options.proxy, country);
    let attempt = &attempt;
    let via = |proxy: Option<Arc<ProxyEndpoint>>| {
        let chosen = proxy.as_deref().map(BrowserProxy::of).transpose();
        async move {
            let other = |message| FetchError::Other {
                url: req.url.to_string(),
                message,
            };
            let chosen = chosen.map_err(other)?;
            let started = Instant::now();
            let outcome = attempt(chosen).await;
            match (outcome, proxy, credentials) {
                (Err(e), Some(proxy), Some(creds))
                    if AUTH_FAILURES.iter().any(|f| e.to_string().contains(f))
                        && creds.refused_since(&origin_of(&proxy), started) =>
                {
                    Err(other(format!(
                        "the proxy {proxy} refused the credentials configured for it (407 Proxy \
                         Authentication Required); check the pool entry's user and password"
                    )))
                }
                (outcome, ..) => outcome,
            }
        }
    };
    run_plan(plan, req.deadline, via).await
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
        // Credentials stay out of Chromium's proxy string.
        let p = BrowserProxy::of(&endpoint("http://us:secret@10.0.0.1:3128")).unwrap();
        assert_eq!(p.server, "http://10.0.0.1:3128");
        let refused = BrowserProxy::of(&endpoint("socks5://us:secret@10.0.0.1:1080"))
            .err()
            .unwrap();
        assert!(
            refused.contains("credentials") && !refused.contains("secret"),
            "{refused}"
        );
    }
}
