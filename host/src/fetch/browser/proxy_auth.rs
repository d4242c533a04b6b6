//! Credentials for the operator's proxies in the browser engine
//! (docs/OPERATORS.md, "Proxies"). Chromium takes a proxy's user and
//! password only as the answer to an authentication challenge, so when some
//! pool entry has credentials the pool's Chromium gets a *browser-level*
//! DevTools Fetch handler ([`answer`]):
//!
//! - a challenge from a proxy (`authChallenge.source == "Proxy"`) whose
//!   origin is a configured entry's is answered once with that entry's
//!   credentials; a second challenge for the same request (credentials
//!   refused) gets Chromium's default, which fails the load, and the refusal
//!   is remembered so the engine can say why ([`ProxyCredentials::refused_since`]);
//! - every other challenge — a site's own (`"Server"`), an unknown proxy's —
//!   gets Chromium's default, exactly as without this handler: proxy
//!   credentials never go to a site;
//! - Chromium pauses every request for a browser-level handler that wants
//!   challenges; this one continues each at once. The page-level interceptor
//!   ([`super::intercept`]) sees and guards every request first (Chromium
//!   runs the page's handler before the browser's), so the target guard is
//!   unchanged.
//!
//! This handler lives on the browser session, not a page's: chromiumoxide
//! answers a page session's `authRequired` itself, and never sees the
//! browser session's events. Credentials are never logged.

use crate::proxy::{ProxyEndpoint, ProxyPools};
use chromiumoxide::browser::Browser;
use chromiumoxide::cdp::browser_protocol::fetch::{
    AuthChallengeResponse, AuthChallengeResponseResponse, AuthChallengeSource, ContinueRequestParams,
    ContinueWithAuthParams, EnableParams, EventAuthRequired, EventRequestPaused,
};
use futures::StreamExt;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Requests remembered as answered once; past this the memory is cleared
/// (a request challenged again after that gets one more try).
const ATTEMPTS_KEPT: usize = 4096;

/// A user and password. `Debug` hides both.
#[derive(Clone, PartialEq, Eq)]
struct UserPass {
    user: String,
    password: String,
}

impl std::fmt::Debug for UserPass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UserPass(..)")
    }
}

/// The pools' credentials by proxy origin, and the origins that refused them.
#[derive(Debug)]
pub struct ProxyCredentials {
    /// `None`: two entries of one origin carry different credentials, which
    /// a challenge (naming only the origin) cannot tell apart.
    by_origin: HashMap<String, Option<UserPass>>,
    refused: Mutex<HashMap<String, Instant>>,
    attempted: Mutex<HashSet<String>>,
}

/// The origin a challenge names for `proxy` (`scheme://host[:port]`).
pub fn origin_of(proxy: &ProxyEndpoint) -> String {
    proxy.url.origin().ascii_serialization()
}

/// Decoded user and password of `proxy`, if it has them.
fn user_pass(proxy: &ProxyEndpoint) -> Option<UserPass> {
    let url = &proxy.url;
    if url.username().is_empty() && url.password().is_none() {
        return None;
    }
    Some(UserPass {
        user: decode(url.username()),
        password: decode(url.password().unwrap_or_default()),
    })
}

/// `s` with its `%XX` escapes decoded (a URL's user and password are kept encoded).
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl ProxyCredentials {
    /// The credentials of `pools`' HTTP(S) entries; `None` when none has any.
    pub fn from_pools(pools: &ProxyPools) -> Option<ProxyCredentials> {
        let mut by_origin: HashMap<String, Option<UserPass>> = HashMap::new();
        for proxy in pools.endpoints() {
            if !matches!(proxy.url.scheme(), "http" | "https") {
                continue;
            }
            let Some(creds) = user_pass(&proxy) else {
                continue;
            };
            let origin = origin_of(&proxy);
            match by_origin.get(&origin) {
                Some(Some(known)) if *known != creds => {
                    tracing::warn!(
                        proxy = %proxy,
                        "two proxy entries share this address with different credentials; the \
                         browser engine cannot tell them apart and answers neither"
                    );
                    by_origin.insert(origin, None);
                }
                Some(_) => {}
                None => {
                    by_origin.insert(origin, Some(creds));
                }
            }
        }
        (!by_origin.is_empty()).then(|| ProxyCredentials {
            by_origin,
            refused: Mutex::default(),
            attempted: Mutex::default(),
        })
    }

    /// Whether the proxy at `origin` refused its credentials at or after `since`.
    pub fn refused_since(&self, origin: &str, since: Instant) -> bool {
        self.refused
            .lock()
            .unwrap()
            .get(origin)
            .is_some_and(|at| *at >= since)
    }

    /// The answer to `event`'s challenge.
    fn respond(&self, event: &EventAuthRequired) -> AuthChallengeResponse {
        let challenge = &event.auth_challenge;
        let default = AuthChallengeResponse::new(AuthChallengeResponseResponse::Default);
        if challenge.source != Some(AuthChallengeSource::Proxy) {
            return default;
        }
        let origin = match url::Url::parse(&challenge.origin) {
            Ok(url) => url.origin().ascii_serialization(),
            Err(_) => return default,
        };
        let Some(Some(creds)) = self.by_origin.get(&origin) else {
            return default;
        };
        let request: &str = event.request_id.as_ref();
        let first = {
            let mut attempted = self.attempted.lock().unwrap();
            if attempted.len() >= ATTEMPTS_KEPT {
                attempted.clear();
            }
            attempted.insert(request.to_string())
        };
        if !first {
            tracing::warn!(proxy = %origin, "the proxy refused the credentials configured for it");
            self.refused.lock().unwrap().insert(origin, Instant::now());
            return default;
        }
        let mut answer = AuthChallengeResponse::new(AuthChallengeResponseResponse::ProvideCredentials);
        answer.username = Some(creds.user.clone());
        answer.password = Some(creds.password.clone());
        answer
    }
}

/// Starts answering `browser`'s challenges with `creds` (see the module
/// doc); the task ends with the DevTools connection.
pub async fn answer(
    browser: &Arc<Browser>,
    creds: Arc<ProxyCredentials>,
) -> Result<tokio::task::JoinHandle<()>, String> {
    let mut paused = browser
        .event_listener::<EventRequestPaused>()
        .await
        .map_err(|e| e.to_string())?;
    let mut challenges = browser
        .event_listener::<EventAuthRequired>()
        .await
        .map_err(|e| e.to_string())?;
    let pattern = super::intercept::every_request();
    browser
        .execute(
            EnableParams::builder()
                .pattern(pattern)
                .handle_auth_requests(true)
                .build(),
        )
        .await
        .map_err(|e| format!("enabling proxy authentication: {e}"))?;
    let browser = browser.clone();
    Ok(tokio::spawn(async move {
        loop {
            tokio::select! {
                Some(event) = paused.next() => {
                    let browser = browser.clone();
                    tokio::spawn(async move {
                        let _ = browser.execute(ContinueRequestParams::new(event.request_id.clone())).await;
                    });
                }
                Some(event) = challenges.next() => {
                    let answer = creds.respond(&event);
                    let browser = browser.clone();
                    tokio::spawn(async move {
                        let _ = browser
                            .execute(ContinueWithAuthParams::new(event.request_id.clone(), answer))
                            .await;
                    });
                }
                else => break,
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chromiumoxide::cdp::browser_protocol::fetch::AuthChallenge;

    fn challenge(id: &str, source: AuthChallengeSource, origin: &str) -> EventAuthRequired {
        serde_json::from_value(serde_json::json!({
            "requestId": id,
            "request": {"url": "http://example.test/", "method": "GET", "headers": {},
                        "initialPriority": "VeryHigh", "referrerPolicy": "no-referrer"},
            "frameId": "F",
            "resourceType": "Document",
            "authChallenge": serde_json::to_value(AuthChallenge {
                source: Some(source),
                origin: origin.into(),
                scheme: "basic".into(),
                realm: "r".into(),
            }).unwrap(),
        }))
        .unwrap()
    }

    fn pools(basic: &str) -> ProxyPools {
        ProxyPools::parse(Some(basic), None).unwrap()
    }

    #[test]
    fn only_a_configured_proxy_gets_its_credentials_once() {
        let creds = ProxyCredentials::from_pools(&pools(
            "http://us%40er:p%3Ass@10.0.0.1:3128, http://10.0.0.2:3128",
        ))
        .unwrap();
        let proxy = creds.respond(&challenge(
            "1",
            AuthChallengeSource::Proxy,
            "http://10.0.0.1:3128",
        ));
        assert_eq!(proxy.response, AuthChallengeResponseResponse::ProvideCredentials);
        assert_eq!(proxy.username.as_deref(), Some("us@er"));
        assert_eq!(proxy.password.as_deref(), Some("p:ss"));
        // The same origin as a site's: never the proxy's credentials.
        let server = creds.respond(&challenge(
            "2",
            AuthChallengeSource::Server,
            "http://10.0.0.1:3128",
        ));
        assert_eq!(
            (server.response, server.username),
            (AuthChallengeResponseResponse::Default, None)
        );
        // A proxy without credentials, another port.
        for other in [
            "http://10.0.0.2:3128",
            "http://10.0.0.1:8080",
            "https://10.0.0.1:3128",
        ] {
            let r = creds.respond(&challenge("3", AuthChallengeSource::Proxy, other));
            assert_eq!(
                (r.response, r.username),
                (AuthChallengeResponseResponse::Default, None),
                "{other}"
            );
        }
        // Challenged again: refused, remembered, default.
        let since = Instant::now();
        assert!(!creds.refused_since("http://10.0.0.1:3128", since));
        let again = creds.respond(&challenge(
            "1",
            AuthChallengeSource::Proxy,
            "http://10.0.0.1:3128",
        ));
        assert_eq!(
            (again.response, again.username),
            (AuthChallengeResponseResponse::Default, None)
        );
        assert!(creds.refused_since("http://10.0.0.1:3128", since));
        assert!(!format!("{creds:?}").contains("p:ss"));
    }

    #[test]
    fn pools_without_credentials_need_no_handler_and_clashes_are_answered_by_none() {
        assert!(ProxyCredentials::from_pools(&pools("http://10.0.0.1:3128")).is_none());
        assert!(ProxyCredentials::from_pools(&pools("socks5://u:p@10.0.0.1:1080")).is_none());
        let clash =
            ProxyCredentials::from_pools(&pools("http://a:1@10.0.0.1:3128, http://b:2@10.0.0.1:3128"))
                .unwrap();
        let r = clash.respond(&challenge(
            "1",
            AuthChallengeSource::Proxy,
            "http://10.0.0.1:3128",
        ));
        assert_eq!(r.response, AuthChallengeResponseResponse::Default);
    }
}
