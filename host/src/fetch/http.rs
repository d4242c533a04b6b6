//! The HTTP fetch engine: one GET with redirects followed hop by hop (each hop
//! checked by the [`TargetGuard`]), request headers passed through, a body size
//! cap and the request's deadline. With operator proxy pools
//! ([`crate::proxy`]) the engine routes through them ([`super::routing`] is its
//! `Engine` implementation): the
//! target of every hop is still resolved and checked here before the proxy is
//! asked for it.

use super::target_guard::{BlockedAddress, DnsFailure, TargetGuard};
use super::{FetchError, FetchedPage};
use crate::gunzip::{Gunzip, GunzipError};
use crate::proxy::{ProxyEndpoint, ProxyPools};
use bytes::{Bytes, BytesMut};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Client, redirect};
use std::collections::HashMap;
use std::error::Error as _;
use std::sync::Arc;
use std::time::{Duration, Instant};
use url::Url;

/// Redirect hops followed before giving up (as browsers do, roughly).
pub const MAX_REDIRECTS: usize = 10;

/// The encodings asked for: the client inflates br and deflate itself,
/// gzip is inflated here (so the gzip bytes are kept for the cache).
const ACCEPT_ENCODING: &str = "gzip, deflate, br";

/// Headers dropped when a redirect leaves the original host.
const CREDENTIAL_HEADERS: &[&str] = &["authorization", "cookie", "proxy-authorization"];

/// One GET as the HTTP engine sees it.
pub struct HttpGet<'a> {
    pub url: &'a Url,
    pub headers: &'a [(String, String)],
    pub skip_tls_verification: bool,
    pub deadline: Instant,
}

/// The HTTP engine. Cheap to share; holds two connection pools (TLS verified
/// and unverified) per serving thread and two for other threads, and two more
/// per configured proxy.
pub struct HttpFetcher {
    /// Direct clients (TLS verified, unverified) by [`crate::lane::slot`]: a
    /// pooled connection's task runs on the runtime that opened it, so each
    /// serving thread fetches through connections of its own.
    direct: Vec<(Client, Client)>,
    guard: TargetGuard,
    max_bytes: u64,
    user_agent: HeaderValue,
    proxies: Arc<ProxyPools>,
    /// Clients through each proxy (by proxy URL): TLS verified and unverified.
    proxied: HashMap<String, (Client, Client)>,
}

/// A pair of direct clients (TLS verified, unverified) checked by `guard`.
fn direct_clients(guard: &TargetGuard) -> anyhow::Result<(Client, Client)> {
    let build = |skip_tls: bool| {
        Client::builder()
            .use_rustls_tls()
            .redirect(redirect::Policy::none())
            .gzip(false)
            .dns_resolver(guard.resolver())
            .danger_accept_invalid_certs(skip_tls)
            .danger_accept_invalid_hostnames(skip_tls)
            .connect_timeout(Duration::from_secs(15))
            .pool_idle_timeout(Duration::from_secs(30))
            .no_proxy()
            .build()
    };
    Ok((build(false)?, build(true)?))
}

/// The direct clients' index for this thread among `count` pairs: serving
/// thread `i` gets pair `1 + i` (modulo the lanes there are), any other
/// thread the first.
fn lane_slot(count: usize) -> usize {
    match crate::lane::current() {
        Some(i) if count > 1 => 1 + i % (count - 1),
        _ => 0,
    }
}

impl HttpFetcher {
    pub fn new(guard: TargetGuard, max_bytes: u64, user_agent: &str) -> anyhow::Result<Self> {
        Ok(HttpFetcher {
            direct: vec![direct_clients(&guard)?],
            guard,
            max_bytes,
            user_agent: HeaderValue::from_str(user_agent)?,
            proxies: Arc::default(),
            proxied: HashMap::new(),
        })
    }

    /// Gives each of `lanes` serving threads ([`crate::serving`]) connection
    /// pools of its own (other threads keep the first ones).
    pub fn with_lanes(mut self, lanes: usize) -> anyhow::Result<Self> {
        for _ in 0..lanes {
            self.direct.push(direct_clients(&self.guard)?);
        }
        Ok(self)
    }

    /// Routes the engine's fetches through the operator's proxy pools. The
    /// connection to a proxy is not checked by the guard (the operator named
    /// it); the targets are, before each hop.
    pub fn with_proxies(mut self, proxies: Arc<ProxyPools>) -> anyhow::Result<Self> {
        for endpoint in proxies.endpoints() {
            let build = |skip_tls: bool| -> anyhow::Result<Client> {
                let proxy = reqwest::Proxy::all(endpoint.url.as_str())
                    .map_err(|e| anyhow::anyhow!("proxy {endpoint}: {e}"))?;
                Ok(Client::builder()
                    .use_rustls_tls()
                    .redirect(redirect::Policy::none())
                    .gzip(false)
                    .danger_accept_invalid_certs(skip_tls)
                    .danger_accept_invalid_hostnames(skip_tls)
                    .connect_timeout(Duration::from_secs(15))
                    .pool_idle_timeout(Duration::from_secs(30))
                    .proxy(proxy)
                    .build()?)
            };
            self.proxied
                .insert(endpoint.url.to_string(), (build(false)?, build(true)?));
        }
        self.proxies = proxies;
        Ok(self)
    }

    /// The proxy pools this engine routes through (empty: none).
    pub fn proxies(&self) -> &ProxyPools {
        &self.proxies
    }

    /// Fetches `req.url` directly, following redirects.
    pub async fn get(&self, req: HttpGet<'_>) -> Result<FetchedPage, FetchError> {
        self.get_via(req, None).await
    }

    /// Fetches `req.url` through `proxy` (direct when `None`), following redirects.
    pub async fn get_via(
        &self,
        req: HttpGet<'_>,
        proxy: Option<&ProxyEndpoint>,
    ) -> Result<FetchedPage, FetchError> {
        let clients = proxy.and_then(|p| self.proxied.get(p.url.as_str()));
        let client = match (clients, req.skip_tls_verification) {
            (Some((verified, _)), false) => verified,
            (Some((_, unverified)), true) => unverified,
            (None, false) => &self.direct[lane_slot(self.direct.len())].0,
            (None, true) => &self.direct[lane_slot(self.direct.len())].1,
        };
        let mut url = req.url.clone();
        let mut headers = self.request_headers(req.headers);
        for _hop in 0..=MAX_REDIRECTS {
            if let Err(reason) = self.guard.check_url(&url) {
                return Err(FetchError::Blocked {
                    url: url.to_string(),
                    reason,
                });
            }
            if clients.is_some() {
                // The proxy resolves the name itself: resolve and check it here first.
                self.guard.check_name(&url, req.deadline).await?;
            }
            let send = client.get(url.clone()).headers(headers.clone()).send();
            let response = match tokio::time::timeout_at(req.deadline.into(), send).await {
                Err(_) => return Err(FetchError::Timeout { url: url.to_string() }),
                Ok(Err(err)) => return Err(map_error(&url, err)),
                Ok(Ok(r)) => r,
            };
            let status = response.status();
            if status.is_redirection()
                && let Some(location) = response.headers().get(reqwest::header::LOCATION)
            {
                let next = location
                    .to_str()
                    .ok()
                    .and_then(|l| url.join(l.trim()).ok())
                    .filter(|u| u.scheme() == "http" || u.scheme() == "https");
                let Some(next) = next else {
                    return Err(FetchError::BadRedirect {
                        from: url.to_string(),
                        location: String::from_utf8_lossy(location.as_bytes()).into_owned(),
                    });
                };
                if next.host_str() != url.host_str() {
                    for h in CREDENTIAL_HEADERS {
                        headers.remove(*h);
                    }
                }
                url = next;
                continue;
            }
            let content_type = response
                .headers()
                .get(reqwest::header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            let gzipped = response
                .headers()
                .get(reqwest::header::CONTENT_ENCODING)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| {
                    v.trim().eq_ignore_ascii_case("gzip") || v.trim().eq_ignore_ascii_case("x-gzip")
                });
            let (body, wire_gzip) = self.read_body(response, &url, req.deadline, gzipped).await?;
            return Ok(FetchedPage {
                final_url: url,
                status: status.as_u16(),
                content_type,
                body,
                wire_gzip,
                engine_data: serde_json::Map::new(),
            });
        }
        Err(FetchError::TooManyRedirects {
            url: req.url.to_string(),
            max: MAX_REDIRECTS,
        })
    }

    fn request_headers(&self, extra: &[(String, String)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(reqwest::header::USER_AGENT, self.user_agent.clone());
        headers.insert(
            reqwest::header::ACCEPT,
            HeaderValue::from_static("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
        );
        // What the client decodes (br, deflate) and gzip, which
        // [`HttpFetcher::read_body`] decodes itself.
        headers.insert(
            reqwest::header::ACCEPT_ENCODING,
            HeaderValue::from_static(ACCEPT_ENCODING),
        );
        headers.insert(
            reqwest::header::ACCEPT_LANGUAGE,
            HeaderValue::from_static("en-US,en;q=0.9"),
        );
        for (k, v) in extra {
            // Validated at request time; skip anything that still fails.
            if let (Ok(name), Ok(value)) = (HeaderName::from_bytes(k.as_bytes()), HeaderValue::from_str(v)) {
                headers.insert(name, value);
            }
        }
        headers
    }

    /// Reads the body under the size cap; a `gzipped` one is inflated as
    /// it arrives (the cap counts the inflated bytes, so a bomb stops
    /// there) and also returned as it came.
    async fn read_body(
        &self,
        mut response: reqwest::Response,
        url: &Url,
        deadline: Instant,
        gzipped: bool,
    ) -> Result<(Bytes, Option<Bytes>), FetchError> {
        let too_large = || FetchError::TooLarge {
            url: url.to_string(),
            limit: self.max_bytes,
        };
        if response.content_length().is_some_and(|n| n > self.max_bytes) {
            return Err(too_large());
        }
        // Sized once from Content-Length (when the server sent one and it is
        // within the cap) instead of growing by doubling through the body.
        let expected = response.content_length().unwrap_or(0).min(self.max_bytes);
        let mut body = BytesMut::with_capacity(expected as usize);
        let limit = usize::try_from(self.max_bytes).unwrap_or(usize::MAX);
        // A gzip body inflates to a few times its size: a first guess.
        let mut inflate = gzipped.then(|| Gunzip::new(limit, (expected as usize).saturating_mul(4)));
        loop {
            let chunk = match tokio::time::timeout_at(deadline.into(), response.chunk()).await {
                Err(_) => return Err(FetchError::Timeout { url: url.to_string() }),
                Ok(Err(err)) => return Err(map_error(url, err)),
                Ok(Ok(None)) => break,
                Ok(Ok(Some(chunk))) => chunk,
            };
            if body.len() as u64 + chunk.len() as u64 > self.max_bytes {
                return Err(too_large());
            }
            if let Some(g) = inflate.as_mut() {
                g.feed(&chunk).map_err(|e| gunzip_error(url, e, self.max_bytes))?;
            }
            body.extend_from_slice(&chunk);
        }
        let Some(g) = inflate else {
            return Ok((fitted_mut(body), None));
        };
        let inflated = g.finish().map_err(|e| gunzip_error(url, e, self.max_bytes))?;
        Ok((fitted(inflated), Some(fitted_mut(body))))
    }
}

/// A body as shared bytes, its buffer cut to its length when over an eighth
/// of it is spare (read without `Content-Length`, or inflated past or short
/// of the guess): the bytes live on in the cache's hot tier, which weighs a
/// value by its length, so the spare room would be memory it never counts.
fn fitted(mut body: Vec<u8>) -> Bytes {
    if body.capacity() - body.len() > body.len() / 8 {
        body.shrink_to_fit();
    }
    Bytes::from(body)
}

/// [`fitted`] for a body read into a `BytesMut` (frozen as it is when it
/// fits, which it does when sized from `Content-Length`).
fn fitted_mut(body: BytesMut) -> Bytes {
    if body.capacity() - body.len() > body.len() / 8 {
        return fitted(Vec::from(body));
    }
    body.freeze()
}

/// The fetch error of a gzip body that would not inflate.
fn gunzip_error(url: &Url, e: GunzipError, limit: u64) -> FetchError {
    match e {
        GunzipError::TooLarge => FetchError::TooLarge {
            url: url.to_string(),
            limit,
        },
        GunzipError::Corrupt(message) => FetchError::Other {
            url: url.to_string(),
            message: format!("error decoding response body: {message}"),
        },
    }
}

/// Classifies a reqwest error by walking its source chain.
fn map_error(url: &Url, err: reqwest::Error) -> FetchError {
    let url_s = url.to_string();
    let mut source: Option<&(dyn std::error::Error + 'static)> = err.source();
    let mut chain = Vec::new();
    while let Some(s) = source {
        if let Some(dns) = s.downcast_ref::<DnsFailure>() {
            return FetchError::Dns {
                host: dns.host.clone(),
            };
        }
        if let Some(blocked) = s.downcast_ref::<BlockedAddress>() {
            return FetchError::Blocked {
                url: url_s,
                reason: blocked.to_string(),
            };
        }
        chain.push(s.to_string());
        source = s.source();
    }
    let detail = chain.last().cloned().unwrap_or_else(|| err.to_string());
    if err.is_timeout() {
        FetchError::Timeout { url: url_s }
    } else if chain
        .iter()
        .any(|m| m.contains("certificate") || m.contains("tls") || m.contains("TLS"))
    {
        FetchError::Tls {
            url: url_s,
            message: detail,
        }
    } else if err.is_connect() {
        FetchError::Connect {
            url: url_s,
            message: detail,
        }
    } else {
        FetchError::Other {
            url: url_s,
            message: detail,
        }
    }
}

#[cfg(test)]
mod lane_tests {
    use super::lane_slot;

    #[test]
    fn each_serving_thread_fetches_through_clients_of_its_own() {
        std::thread::spawn(|| {
            assert_eq!(lane_slot(3), 0, "not a serving thread");
            crate::lane::enter(0);
            assert_eq!(lane_slot(3), 1);
            assert_eq!(lane_slot(1), 0, "no per-lane clients");
            crate::lane::enter(1);
            assert_eq!(lane_slot(3), 2);
            crate::lane::enter(2);
            assert_eq!(lane_slot(3), 1, "more lanes than pairs");
        })
        .join()
        .unwrap();
    }
}

#[cfg(test)]
mod fit_tests {
    use super::*;

    /// The capacity of the buffer under `b` (unique, so it is handed back whole).
    fn capacity(b: Bytes) -> usize {
        Vec::from(b).capacity()
    }

    #[test]
    fn a_body_with_much_spare_room_is_cut_to_its_length() {
        for len in [0, 1, 1000, 40_000, 300_000, 1 << 20] {
            let mut v = Vec::with_capacity(len * 2 + 16);
            v.extend((0..len).map(|i| (i % 253) as u8));
            let b = fitted(v);
            assert_eq!(b.len(), len);
            assert!(b.iter().enumerate().all(|(i, &x)| x == (i % 253) as u8));
            assert!(capacity(b) <= len + len / 8, "{len}");

            let mut m = BytesMut::with_capacity(len * 2 + 16);
            m.extend((0..len).map(|i| (i % 251) as u8));
            let b = fitted_mut(m);
            assert_eq!(b.len(), len);
            assert!(b.iter().enumerate().all(|(i, &x)| x == (i % 251) as u8));
            assert!(capacity(b) <= len + len / 8, "BytesMut {len}");
        }
    }

    #[test]
    fn a_body_that_nearly_fits_keeps_its_buffer() {
        let mut v = Vec::with_capacity(1100);
        v.extend_from_slice(&[7; 1000]);
        let at = v.as_ptr();
        let b = fitted(v);
        assert_eq!(b.as_ptr(), at, "not moved");
        assert_eq!(capacity(b), 1100);

        let mut m = BytesMut::with_capacity(4096);
        m.extend_from_slice(&[9; 4096]);
        let at = m.as_ptr();
        assert_eq!(fitted_mut(m).as_ptr(), at);
    }
}
