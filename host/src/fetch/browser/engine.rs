//! [`BrowserEngine`]: the `browser` fetch engine. A page in its own context
//! from the [`BrowserPool`], every request it makes checked by the
//! interceptor, set up (viewport, mobile, location, headers, TLS), loaded,
//! settled, `waitFor` waited, `actions` performed, a `screenshot` taken; the
//! DOM serialised is the page's HTML. The request's deadline bounds all of it
//! and the page is closed whatever happens.

use super::actions::perform;
use super::branding;
use super::capture::{ShotOptions, screenshot};
use super::emulate::setup;
use super::intercept::{Refusals, intercept};
use super::pool::BrowserPool;
use super::settle::settle;
use crate::fetch::engine::{Engine, Feature, FetchFuture, FetchRequest};
use crate::fetch::target_guard::TargetGuard;
use crate::fetch::{FetchError, FetchedPage};
use crate::media::MediaStore;
use bytes::Bytes;
use chromiumoxide::page::Page;
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::Duration;
use url::Url;

/// The browser engine.
pub struct BrowserEngine {
    pool: Arc<BrowserPool>,
    guard: TargetGuard,
    media: Arc<MediaStore>,
    user_agent: String,
}

impl BrowserEngine {
    pub fn new(pool: Arc<BrowserPool>, guard: TargetGuard, media: Arc<MediaStore>, user_agent: &str) -> Self {
        BrowserEngine {
            pool,
            guard,
            media,
            user_agent: user_agent.to_string(),
        }
    }

    async fn run(&self, req: FetchRequest<'_>) -> Result<FetchedPage, FetchError> {
        let url = req.url.to_string();
        let other = |message: String| FetchError::Other {
            url: url.clone(),
            message,
        };
        let timeout = || FetchError::Timeout { url: url.clone() };
        let lease = tokio::time::timeout_at(req.deadline.into(), self.pool.open_page())
            .await
            .map_err(|_| timeout())?
            .map_err(|e| other(e.to_string()))?;
        let intercepting = tokio::time::timeout_at(
            req.deadline.into(),
            intercept(&lease.page, self.guard, req.options.block_ads),
        )
        .await;
        let (refusals, task) = match intercepting {
            Ok(Ok(x)) => x,
            Ok(Err(e)) => {
                lease.close().await;
                return Err(other(e));
            }
            Err(_) => {
                lease.close().await;
                return Err(timeout());
            }
        };
        let loaded =
            tokio::time::timeout_at(req.deadline.into(), self.load(&lease.page, req, &refusals)).await;
        lease.close().await;
        task.abort();
        match loaded {
            Ok(result) => result,
            Err(_) => Err(timeout()),
        }
    }

    async fn load(
        &self,
        page: &Page,
        req: FetchRequest<'_>,
        refusals: &Refusals,
    ) -> Result<FetchedPage, FetchError> {
        let opts = req.options;
        let url = req.url.to_string();
        let other = |message: String| FetchError::Other {
            url: url.clone(),
            message,
        };
        setup(page, opts, &self.user_agent).await.map_err(other)?;
        let navigated = page.goto(url.as_str()).await.map(|_| ());
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
        settle(page).await;
        if opts.wait_for_ms > 0 {
            tokio::time::sleep(Duration::from_millis(opts.wait_for_ms)).await;
        }
        let mut engine_data = Map::new();
        if !opts.actions.is_empty() {
            let results = perform(page, &opts.actions, opts.mobile, &self.media)
                .await
                .map_err(|e| other(e.to_string()))?;
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
        let html = page.content().await.map_err(|e| other(e.to_string()))?;
        let final_url = page
            .url()
            .await
            .ok()
            .flatten()
            .and_then(|u| Url::parse(&u).ok())
            .unwrap_or_else(|| req.url.clone());
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
            engine_data,
        })
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
            _ => matches!(
                feature,
                Feature::Actions
                    | Feature::Screenshot
                    | Feature::WaitFor
                    | Feature::Mobile
                    | Feature::Location
            ),
        }
    }

    fn fetch<'a>(&'a self, req: FetchRequest<'a>) -> FetchFuture<'a> {
        Box::pin(self.run(req))
    }
}
