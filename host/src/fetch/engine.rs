//! The fetch [`Engine`] seam: what every engine (the HTTP client today, a
//! browser later) offers the pipeline — a name, the request features it can
//! honour, and `fetch`.

use super::{FetchError, FetchedPage};
use crate::api::ScrapeOptions;
use std::future::Future;
use std::pin::Pin;
use std::time::Instant;
use url::Url;

/// A request feature that not every engine can honour. Names are upstream's,
/// as they appear in the "does not support the following features" warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Browser actions (click, write, scroll, ...).
    Actions,
    /// The `screenshot` format.
    Screenshot,
    /// `waitFor` > 0.
    WaitFor,
    /// `mobile: true`.
    Mobile,
    /// `location` (country, languages).
    Location,
    /// `proxy: "enhanced"`.
    StealthProxy,
    /// `profile` (persistent browser storage).
    Profile,
    /// The `branding` format (computed styles of the rendered page).
    Branding,
}

impl Feature {
    /// The feature's name in warnings and errors.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Actions => "actions",
            Feature::Screenshot => "screenshot",
            Feature::WaitFor => "waitFor",
            Feature::Mobile => "mobile",
            Feature::Location => "location",
            Feature::StealthProxy => "stealthProxy",
            Feature::Profile => "profile",
            Feature::Branding => "branding",
        }
    }

    /// The features a request needs, in upstream's warning order.
    pub fn required_by(opts: &ScrapeOptions) -> Vec<Feature> {
        let mut out = Vec::new();
        if !opts.actions.is_empty() {
            out.push(Feature::Actions);
        }
        if opts.wants("screenshot") {
            out.push(Feature::Screenshot);
        }
        if opts.wants("branding") {
            out.push(Feature::Branding);
        }
        if opts.wait_for_ms > 0 {
            out.push(Feature::WaitFor);
        }
        if opts.mobile {
            out.push(Feature::Mobile);
        }
        if opts.location.is_some() {
            out.push(Feature::Location);
        }
        if opts.proxy == "enhanced" {
            out.push(Feature::StealthProxy);
        }
        if opts.profile.is_some() {
            out.push(Feature::Profile);
        }
        out
    }
}

/// What to fetch: the URL, the request's options (an engine reads what it
/// honours: headers, TLS, and for a browser actions, viewport, ...) and the
/// request's deadline.
#[derive(Clone, Copy)]
pub struct FetchRequest<'a> {
    pub url: &'a Url,
    pub options: &'a ScrapeOptions,
    pub deadline: Instant,
}

/// The future an engine's fetch returns.
pub type FetchFuture<'a> = Pin<Box<dyn Future<Output = Result<FetchedPage, FetchError>> + Send + 'a>>;

/// A way of getting a page.
pub trait Engine: Send + Sync {
    /// Short name for logs and metadata, e.g. "http".
    fn name(&self) -> &'static str;

    /// Whether this engine honours `feature`.
    fn supports(&self, feature: Feature) -> bool;

    /// Fetches `req.url` before `req.deadline`.
    fn fetch<'a>(&'a self, req: FetchRequest<'a>) -> FetchFuture<'a>;
}
