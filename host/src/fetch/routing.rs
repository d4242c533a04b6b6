//! How the HTTP engine goes through the operator's proxy pools
//! (docs/OPERATORS.md, "Proxies"). `proxy: "basic"` uses the basic pool,
//! `"enhanced"` the enhanced pool (the basic one when there is none), and
//! `"auto"` the basic pool first, then — when that fails or answers 401, 403
//! or 429 and an enhanced pool exists — the enhanced pool once.
//! `location.country` picks a pool's per-country entries. A tier without
//! proxies fetches directly. The tier used is reported as
//! [`super::PROXY_USED`] in the page's engine data (`metadata.proxyUsed`).
//!
//! The target guard still applies: a proxy resolves the target's name
//! itself, so before each hop the HTTP engine resolves and checks the name
//! ([`super::target_guard::TargetGuard::check_name`]); a refused target
//! never reaches a proxy. This module is also the HTTP engine's [`Engine`]
//! implementation.

use super::engine::{Engine, Feature, FetchFuture, FetchRequest};
use super::http::{HttpFetcher, HttpGet};
use super::{FetchError, FetchedPage, PROXY_USED};
use crate::proxy::{ProxyEndpoint, ProxyPools, Tier};
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;

/// Statuses after which `auto` retries with the enhanced pool (upstream's).
const RETRY_STATUSES: [u16; 3] = [401, 403, 429];

/// The attempts a request makes: the first, and the enhanced retry of
/// `auto` (the browser engine routes the same way).
pub struct Plan {
    pub first: (Tier, Option<Arc<ProxyEndpoint>>),
    pub retry: Option<Arc<ProxyEndpoint>>,
}

/// The attempts of a request asking for `proxy` from `country`.
pub fn plan(pools: &ProxyPools, proxy: &str, country: Option<&str>) -> Plan {
    let basic = || (Tier::Basic, pools.pick(Tier::Basic, country));
    match proxy {
        "enhanced" => Plan {
            first: pools
                .pick(Tier::Enhanced, country)
                .map_or_else(basic, |e| (Tier::Enhanced, Some(e))),
            retry: None,
        },
        "auto" => Plan {
            first: basic(),
            retry: pools.pick(Tier::Enhanced, country),
        },
        _ => Plan {
            first: basic(),
            retry: None,
        },
    }
}

/// Whether `auto` tries again with the enhanced pool after `outcome`. A
/// refused target, a name that does not resolve or a page over the size cap
/// would fail the same way through any proxy.
pub fn worth_retrying(outcome: &Result<FetchedPage, FetchError>) -> bool {
    match outcome {
        Ok(page) => RETRY_STATUSES.contains(&page.status),
        Err(FetchError::Blocked { .. } | FetchError::Dns { .. } | FetchError::TooLarge { .. }) => false,
        Err(_) => true,
    }
}

/// The HTTP engine's fetch: the plan's attempts ([`run_plan`]).
pub async fn fetch_routed(fetcher: &HttpFetcher, req: FetchRequest<'_>) -> Result<FetchedPage, FetchError> {
    let opts = req.options;
    let location = opts.location.as_ref();
    let country = location.map(|l| l.country.as_str());
    let mut headers = opts.headers.clone();
    // A request with a location gets its languages as Accept-Language
    // (unless it sent one), as the browser engine emulates them.
    if let Some(loc) = location.filter(|l| !l.languages.is_empty())
        && !headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("accept-language"))
    {
        headers.push(("Accept-Language".into(), loc.languages.join(",")));
    }
    let get = |proxy: Option<Arc<ProxyEndpoint>>| {
        let headers = &headers;
        async move {
            let request = HttpGet {
                url: req.url,
                headers,
                skip_tls_verification: opts.skip_tls_verification,
                deadline: req.deadline,
            };
            fetcher.get_via(request, proxy.as_deref()).await
        }
    };
    let plan = plan(fetcher.proxies(), &opts.proxy, country);
    run_plan(plan, req.deadline, get).await
}

/// Runs `plan` for either engine: `attempt` fetches once through the proxy
/// given (none: directly); `auto`'s one retry through the enhanced pool
/// follows a first attempt [`worth_retrying`] while `deadline` is ahead; the
/// tier used goes into the page's engine data as [`PROXY_USED`].
pub async fn run_plan<F, Fut>(plan: Plan, deadline: Instant, attempt: F) -> Result<FetchedPage, FetchError>
where
    F: Fn(Option<Arc<ProxyEndpoint>>) -> Fut,
    Fut: Future<Output = Result<FetchedPage, FetchError>>,
{
    let (mut tier, first) = plan.first;
    let mut outcome = attempt(first).await;
    if let Some(enhanced) = plan.retry
        && worth_retrying(&outcome)
        && Instant::now() < deadline
    {
        tracing::debug!(proxy = %enhanced, "proxy auto: retrying with the enhanced pool");
        outcome = attempt(Some(enhanced)).await;
        tier = Tier::Enhanced;
    }
    outcome.map(|mut page| {
        page.engine_data.insert(PROXY_USED.into(), json!(tier.name()));
        page
    })
}

impl Engine for HttpFetcher {
    fn name(&self) -> &'static str {
        "http"
    }

    /// A plain HTTP client renders nothing and performs no actions. It
    /// honours `proxy: "enhanced"` when an enhanced pool is configured, and
    /// `location` when some pool has per-country entries (the country's
    /// proxy, and `languages` as Accept-Language).
    fn supports(&self, feature: Feature) -> bool {
        match feature {
            Feature::StealthProxy => self.proxies().has(Tier::Enhanced),
            Feature::Location => self.proxies().has_country_pools(),
            _ => false,
        }
    }

    fn fetch<'a>(&'a self, req: FetchRequest<'a>) -> FetchFuture<'a> {
        Box::pin(fetch_routed(self, req))
    }
}
