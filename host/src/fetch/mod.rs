//! Fetch engines: getting a page's bytes from the network.
//!
//! - [`engine`]: the [`engine::Engine`] trait every engine implements, and request features.
//! - [`select`]: picking the engine for a request; upstream's "unsupported features" warning.
//! - [`http`]: the HTTP engine (reqwest), redirects followed hop by hop.
//! - [`routing`]: the HTTP engine's way through the operator's proxy pools
//!   (`proxy` basic/enhanced/auto, `metadata.proxyUsed`).
//! - [`target_guard`]: refuses loopback, private, link-local and metadata
//!   addresses, checked after DNS resolution and on every redirect hop.
//!
//! - [`browser`]: the browser engine (Chromium), for actions, screenshots,
//!   mobile, location and script-rendered pages.
//! - [`script_rendered`]: whether an HTTP result looks script-rendered (the
//!   pipeline then fetches it again with the browser).
//!
//! Engines share [`FetchedPage`] and [`FetchError`].

pub mod allowed_cidrs;
pub mod browser;
pub mod engine;
pub mod http;
pub mod routing;
pub mod script_rendered;
pub mod select;
pub mod target_guard;

use bytes::Bytes;

/// The `engine_data` key under which an engine reports the proxy tier it
/// used; the pipeline moves it into `metadata.proxyUsed`.
pub const PROXY_USED: &str = "proxyUsed";
/// The `engine_data` key naming the engine that fetched the page
/// (`metadata.engineUsed`).
pub const ENGINE_USED: &str = "engineUsed";
/// The `engine_data` key naming why the browser fetched a page the HTTP
/// engine had fetched first (`metadata.engineFallback`).
pub const ENGINE_FALLBACK: &str = "engineFallback";
/// The `engine_data` key of a warning about the fetch (the response's `warning`).
pub const ENGINE_WARNING: &str = "engineWarning";
use serde_json::{Map, Value};
use url::Url;

/// A fetched response.
#[derive(Debug, Clone)]
pub struct FetchedPage {
    /// The URL after redirects.
    pub final_url: Url,
    pub status: u16,
    /// The Content-Type header, if any.
    pub content_type: Option<String>,
    pub body: Bytes,
    /// The body as it came on the wire when the origin gzipped it
    /// (`Content-Encoding: gzip`); `body` is it inflated. The cache stores
    /// these bytes instead of compressing the body again.
    pub wire_gzip: Option<Bytes>,
    /// Fields the engine adds to the response's `data` (the browser's
    /// `screenshot` URL and `actions` object); empty for HTTP.
    pub engine_data: Map<String, Value>,
}

/// Why a fetch failed. `Clone` so that a coalesced fetch's failure reaches
/// every caller that waited on it.
#[derive(Debug, Clone, thiserror::Error)]
pub enum FetchError {
    #[error("DNS resolution failed for hostname \"{host}\"")]
    Dns { host: String },
    #[error("Blocked insecure target URL {url}: {reason}")]
    Blocked { url: String, reason: String },
    #[error("the request to {url} timed out")]
    Timeout { url: String },
    #[error("TLS error talking to {url}: {message}")]
    Tls { url: String, message: String },
    #[error("could not connect to {url}: {message}")]
    Connect { url: String, message: String },
    #[error("the page at {url} is larger than the {limit} byte limit")]
    TooLarge { url: String, limit: u64 },
    #[error("too many redirects (more than {max}) starting at {url}")]
    TooManyRedirects { url: String, max: usize },
    #[error("redirect from {from} to an invalid or unsupported location {location:?}")]
    BadRedirect { from: String, location: String },
    #[error("fetching {url} failed: {message}")]
    Other { url: String, message: String },
    /// Another session that saves changes uses the `profile`.
    #[error(
        "The profile \"{name}\" is in use by another session that saves changes; only one saving \
         session per profile is allowed at a time. Retry when it has ended, or send \
         saveChanges: false to use the profile without saving."
    )]
    ProfileInUse { name: String },
    /// An action of the browser engine failed (`index` counts from 0).
    #[error("Error in action {index} ({kind}): {failure}")]
    Action {
        index: usize,
        kind: String,
        failure: ActionFailure,
    },
}

/// Why an action failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ActionFailure {
    /// No element matches the action's selector.
    #[error("element not found: no element matches the selector {selector:?}")]
    NotFound { selector: String },
    /// The page's script threw (executeJavascript), with the exception's text.
    #[error("the script threw: {0}")]
    ScriptThrew(String),
    /// The request's deadline passed while the action ran.
    #[error("timed out")]
    TimedOut,
    /// Anything else (the browser refused the command, the page went away).
    #[error("{0}")]
    Failed(String),
}
