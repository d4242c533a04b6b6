//! [`BrowserEngine`]: the `browser` fetch engine. A page in its own context
//! from the [`BrowserPool`], every request it makes checked by the
//! interceptor, set up (viewport, mobile, location, headers, TLS), loaded,
//! settled, `waitFor` waited, `actions` performed, a `screenshot` taken; the
//! DOM serialised is the page's HTML. The request's deadline bounds all of it
//! and the page is closed whatever happens (in the background once the
//! result is known).

use super::actions::{Progress, perform};
use super::banners;
use super::branding;
use super::capture::{ShotOptions, screenshot};
use super::emulate::setup;
use super::hazards::Hazards;
use super::intercept::{Refusals, intercept};
use super::laps::Laps;
use super::pool::{BrowserPool, PageLease};
use super::profile::{BrowserContext, ProfileError, ProfileOption, ProfileSession, ProfileStore};
use super::proxied::{BrowserProxy, fetch_routed};
use super::settle::settle;
use crate::fetch::engine::{Engine, Feature, FetchFuture, FetchRequest};
use crate::fetch::target_guard::TargetGuard;
use crate::fetch::{FetchError, FetchedPage};
use crate::media::MediaStore;
use crate::proxy::ProxyPools;
use bytes::Bytes;
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::Duration;
use url::Url;

/// The browser engine.
pub struct BrowserEngine {
    pub(super) pool: Arc<BrowserPool>,
    pub(super) guard: TargetGuard,
    pub(super) media: Arc<MediaStore>,
    pub(super) user_agent: String,
    pub(super) profiles: Option<Arc<ProfileStore>>,
    /// The operator's proxy pools ([`super::proxied`]); `None` or empty: direct.
    pub(super) proxies: Option<Arc<ProxyPools>>,
}

impl BrowserEngine {
    pub fn new(pool: Arc<BrowserPool>, guard: TargetGuard, media: Arc<MediaStore>, user_agent: &str) -> Self {
        BrowserEngine {
            pool,
            guard,
            media,
            user_agent: user_agent.to_string(),
            profiles: None,
            proxies: None,
        }
    }

    /// Fetches through `pools` (docs/OPERATORS.md, "Proxies").
    pub fn with_proxies(mut self, pools: Arc<ProxyPools>) -> Self {
        if let Some(creds) = super::proxy_auth::ProxyCredentials::from_pools(&pools) {
            self.pool.answer_proxy_auth(Arc::new(creds));
        }
        self.proxies = Some(pools).filter(|p| !p.is_empty());
        self
    }

    /// Serves `profile` from `store`.
    pub fn with_profiles(mut self, store: Arc<ProfileStore>) -> Self {
        self.profiles = Some(store);
        self
    }

    /// The request's profile session, if it names one.
    pub(super) fn profile(&self, req: &FetchRequest<'_>) -> Result<Option<ProfileSession>, FetchError> {
        let Some(option) = req.options.profile.as_ref().and_then(ProfileOption::from_json) else {
            return Ok(None);
        };
        let other = |message: String| FetchError::Other {
            url: req.url.to_string(),
            message,
        };
        let store = self
            .profiles
            .as_ref()
            .ok_or_else(|| other("profiles are not available on this server".into()))?;
        match store.begin(&option) {
            Ok(session) => Ok(Some(session)),
            Err(ProfileError::InUse) => Err(FetchError::ProfileInUse { name: option.name }),
            Err(e) => Err(other(e.to_string())),
        }
    }

    /// One attempt, through `proxy` when given.
    pub(super) async fn run_via(
        &self,
        req: FetchRequest<'_>,
        proxy: Option<BrowserProxy>,
    ) -> Result<FetchedPage, FetchError> {
        let url = req.url.to_string();
        let other = |message: String| FetchError::Other {
            url: url.clone(),
            message,
        };
        let timeout = || FetchError::Timeout { url: url.clone() };
        let mut profile = self.profile(&req)?;
        let progress = Progress::default();
        let laps = Laps::default();
        let server = proxy.as_ref().map(|p| p.server.as_str());
        // A plain fresh context may be the spare page opened ahead.
        let may_spare = server.is_none() && profile.is_none();
        let lease = tokio::time::timeout_at(req.deadline.into(), self.pool.open_page_for(server, may_spare))
            .await
            .map_err(|_| timeout())?
            .map_err(|e| other(e.to_string()))?;
        laps.lap("open");
        let watching = tokio::time::timeout_at(req.deadline.into(), async {
            let hazards = Hazards::watch(&lease.page, lease.exited.clone()).await?;
            let (refusals, task) = intercept(&lease.page, self.guard, req.options.block_ads).await?;
            Ok::<_, String>((hazards, refusals, task))
        })
        .await;
        let (mut hazards, refusals, task) = match watching {
            Ok(Ok(x)) => {
                laps.lap("watch");
                x
            }
            Ok(Err(e)) => {
                lease.close().await;
                return Err(other(e));
            }
            Err(_) => {
                lease.close().await;
                return Err(timeout());
            }
        };
        // From here the page is given back by `finishing` when it drops:
        // after the result, or when this fetch is dropped part-way (the
        // request's backstop), so no path leaves the page or the
        // interceptor behind.
        let finishing = Finishing {
            pool: self.pool.clone(),
            lease: Some(lease),
            may_spare,
            task: Some(task),
        };
        let lease = finishing.lease.as_ref().expect("set above");
        // The deadline, or a hazard (dialog loop, crash, Chromium gone), ends it.
        let loaded = tokio::select! {
            loaded = tokio::time::timeout_at(
                req.deadline.into(),
                self.load(lease, req, (&refusals, &progress, &laps), profile.as_mut().zip(lease.context())),
            ) => loaded,
            reason = hazards.tripped() => Ok(Err(other(reason))),
        };
        // A command that failed because the page crashed or Chromium died:
        // the hazard (noticed within a moment) is the reason to give.
        let loaded = match loaded {
            Ok(Err(e))
                if !matches!(e, FetchError::Action { .. } | FetchError::Blocked { .. })
                    && !e.to_string().contains("net::ERR_") =>
            {
                match tokio::time::timeout(Duration::from_secs(1), hazards.tripped()).await {
                    Ok(reason) => Ok(Err(other(reason))),
                    Err(_) => Ok(Err(e)),
                }
            }
            other => other,
        };
        drop(hazards);
        // Closed while the response goes out; the page slot is held until
        // then. The next scrape's spare page is opened after that.
        drop(finishing);
        laps.lap("end");
        laps.log(&url);
        match loaded {
            Ok(result) => result,
            // The deadline passed: during an action, the error names it.
            Err(_) => Err(progress.timed_out().unwrap_or_else(timeout)),
        }
    }

    async fn load(
        &self,
        lease: &PageLease,
        req: FetchRequest<'_>,
        (refusals, progress, laps): (&Refusals, &Progress, &Laps),
        mut profile: Option<(&mut ProfileSession, BrowserContext<'_>)>,
    ) -> Result<FetchedPage, FetchError> {
        let page = &lease.page;
        let opts = req.options;
        let url = req.url.to_string();
        let other = |message: String| FetchError::Other {
            url: url.clone(),
            message,
        };
        setup(page, opts, &self.user_agent).await.map_err(other)?;
        if opts.block_ads {
            banners::hide(page).await.map_err(other)?;
        }
        let restoring = match &profile {
            Some((session, context)) => session.apply(page, *context).await.map_err(other)?,
            None => None,
        };
        laps.lap("setup");
        let navigated = page.goto(url.as_str()).await.map(|_| ());
        laps.lap("navigate");
        lease.set_up();
        ProfileSession::applied(page, restoring).await;
        if let Err(e) = navigated {
            // The document (or a redirect hop of it) was refused by the guard.
            if let Some((blocked, reason)) = refusals.first() {
                return Err(FetchError::Blocked { url: blocked, reason });
            }
            return Err(FetchError::Connect {
                url: url.clone(),
                message: e.to_string(),
            });
        }
        let response = page
            .wait_for_navigation_response()
            .await
            .map_err(|e| other(e.to_string()))?;
        let (status, content_type) = match response.as_ref().and_then(|r| r.response.as_ref()) {
            Some(r) => (r.status as u16, r.mime_type.clone()),
            None => (200, "text/html".to_string()),
        };
        laps.lap("response");
        settle(page).await;
        laps.lap("settle");
        if opts.wait_for_ms > 0 {
            tokio::time::sleep(Duration::from_millis(opts.wait_for_ms)).await;
        }
        let mut engine_data = Map::new();
        if !opts.actions.is_empty() {
            let results = perform(
                page,
                &opts.actions,
                opts.mobile,
                &self.media,
                req.deadline,
                progress,
            )
            .await?;
            engine_data.insert("actions".into(), results.to_json());
        }
        if opts.wants("branding") {
            branding::collect(page, &mut engine_data).await;
        }
        if let Some(format) = opts.format("screenshot") {
            let shot = screenshot(
                page,
                &ShotOptions::from_json(&format.options),
                opts.mobile,
                &self.media,
            )
            .await
            .map_err(other)?;
            engine_data.insert("screenshot".into(), Value::String(shot));
        }
        if let (Some((session, context)), Some(store)) = (profile.as_mut(), &self.profiles) {
            session.save(store, page, *context).await.map_err(other)?;
        }
        laps.lap("act");
        let html = page.content().await.map_err(|e| other(e.to_string()))?;
        let final_url = page
            .url()
            .await
            .ok()
            .flatten()
            .and_then(|u| Url::parse(&u).ok())
            .unwrap_or_else(|| req.url.clone());
        laps.lap("serialise");
        // The DOM is serialised as UTF-8 whatever the document's charset was.
        let content_type = if content_type.contains("html") || content_type.is_empty() {
            "text/html; charset=utf-8".to_string()
        } else {
            content_type
        };
        Ok(FetchedPage {
            final_url,
            status,
            content_type: Some(content_type),
            body: Bytes::from(html),
            wire_gzip: None,
            engine_data,
        })
    }
}

/// A fetch's page and interceptor, given back when dropped: the page closed
/// (and the spares topped up) in the background, then the interceptor task
/// stopped (a dropped `JoinHandle` would leave it running).
struct Finishing {
    pool: Arc<BrowserPool>,
    lease: Option<PageLease>,
    may_spare: bool,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Drop for Finishing {
    fn drop(&mut self) {
        let (lease, task) = (self.lease.take(), self.task.take());
        let (pool, may_spare) = (self.pool.clone(), self.may_spare);
        let finish = async move {
            if let Some(lease) = lease {
                pool.finish(lease, may_spare).await;
            }
            if let Some(task) = task {
                task.abort();
            }
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn(finish)),
            // No runtime (shutting down): the lease closes itself on drop.
            Err(_) => drop(finish),
        }
    }
}

impl Engine for BrowserEngine {
    fn name(&self) -> &'static str {
        "browser"
    }

    fn supports(&self, feature: Feature) -> bool {
        match feature {
            // Branding is left to the default engine (null + warning) when
            // there is no Chromium to launch.
            Feature::Branding => self.pool.executable_exists(),
            // `proxy: "enhanced"` when the operator configured that pool.
            Feature::StealthProxy => self
                .proxies
                .as_ref()
                .is_some_and(|p| p.has(crate::proxy::Tier::Enhanced)),
            _ => matches!(
                feature,
                Feature::Actions
                    | Feature::Screenshot
                    | Feature::WaitFor
                    | Feature::Mobile
                    | Feature::Location
                    | Feature::Profile
            ),
        }
    }

    fn fetch<'a>(&'a self, req: FetchRequest<'a>) -> FetchFuture<'a> {
        match &self.proxies {
            Some(pools) => {
                let credentials = self.pool.proxy_credentials().map(|c| c.as_ref());
                Box::pin(fetch_routed(pools, credentials, req, move |proxy| {
                    self.run_via(req, proxy)
                }))
            }
            None => Box::pin(self.run_via(req, None)),
        }
    }
}
