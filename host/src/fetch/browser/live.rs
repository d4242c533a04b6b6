//! [`LivePage`]: a browser page kept open after its request, for an interact
//! session. It is the original scrape replayed (docs/BROWSER.md): a page from
//! the pool's session slots, watched (dialogs, crashes) and guarded (every
//! request checked) as a scrape's page is, set up with the scrape's options,
//! its `profile` applied, the URL loaded and settled, `waitFor` waited and the
//! scrape's page-changing actions performed again (captures — screenshot,
//! pdf, scrape — are skipped: they change nothing on the page).

use super::actions::{Progress, perform};
use super::emulate::setup;
use super::engine::BrowserEngine;
use super::hazards::Hazards;
use super::intercept::intercept;
use super::pool::PageLease;
use super::profile::ProfileSession;
use super::settle::settle;
use crate::api::ScrapeOptions;
use crate::fetch::FetchError;
use crate::fetch::engine::FetchRequest;
use chromiumoxide::page::Page;
use serde_json::Value;
use std::time::{Duration, Instant};
use url::Url;

/// Action types that only read the page; not replayed.
const CAPTURES: &[&str] = &["screenshot", "pdf", "scrape"];

/// A replayed page that stays open until [`LivePage::close`].
pub struct LivePage {
    lease: PageLease,
    hazards: Hazards,
    intercepting: tokio::task::JoinHandle<()>,
    profile: Option<ProfileSession>,
}

/// Why a page could not be kept open for a session.
#[derive(Debug)]
pub enum LiveError {
    /// Every session slot is taken.
    Full(usize),
    /// The replay failed (the page, a profile in use, an action).
    Replay(FetchError),
}

impl LivePage {
    /// The page.
    pub fn page(&self) -> &Page {
        &self.lease.page
    }

    /// The page's DevTools target id (Playwright finds the page by it).
    pub fn target_id(&self) -> String {
        self.lease.page.target_id().as_ref().to_string()
    }

    /// Why the page can no longer be used (crashed, Chromium gone), if so.
    pub async fn broken(&mut self) -> Option<String> {
        tokio::time::timeout(Duration::from_millis(1), self.hazards.tripped())
            .await
            .ok()
    }

    /// Saves the profile (with `saveChanges`) and closes the page.
    pub async fn close(mut self, engine: &BrowserEngine) {
        if let (Some(session), Some(store), Some(context)) =
            (self.profile.as_mut(), &engine.profiles, self.lease.context())
        {
            let saved = tokio::time::timeout(
                Duration::from_secs(5),
                session.save(store, &self.lease.page, context),
            )
            .await;
            if !matches!(saved, Ok(Ok(()))) {
                tracing::warn!("an interact session's profile could not be saved");
            }
        }
        self.intercepting.abort();
        self.lease.close().await;
    }
}

impl BrowserEngine {
    /// Replays a scrape of `url` with `options` on a page kept open, by `deadline`.
    pub async fn open_live(
        &self,
        url: &Url,
        options: &ScrapeOptions,
        deadline: Instant,
    ) -> Result<LivePage, LiveError> {
        let req = FetchRequest {
            url,
            options,
            deadline,
        };
        let other = |message: String| {
            LiveError::Replay(FetchError::Other {
                url: url.to_string(),
                message,
            })
        };
        let timeout = || LiveError::Replay(FetchError::Timeout { url: url.to_string() });
        let profile = self.profile(&req).map_err(LiveError::Replay)?;
        let lease = match tokio::time::timeout_at(deadline.into(), self.pool.open_session_page()).await {
            Err(_) => return Err(timeout()),
            Ok(None) => return Err(LiveError::Full(self.pool.max_sessions())),
            Ok(Some(lease)) => lease.map_err(|e| other(e.to_string()))?,
        };
        let watching = tokio::time::timeout_at(deadline.into(), async {
            let hazards = Hazards::watch(&lease.page, lease.exited.clone()).await?;
            let (_, task) = intercept(&lease.page, self.guard, options.block_ads).await?;
            Ok::<_, String>((hazards, task))
        })
        .await;
        let (hazards, intercepting) = match watching {
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
        let mut live = LivePage {
            lease,
            hazards,
            intercepting,
            profile,
        };
        match tokio::time::timeout_at(deadline.into(), self.replay(&mut live, req)).await {
            Ok(Ok(())) => Ok(live),
            Ok(Err(e)) => {
                live.close(self).await;
                Err(LiveError::Replay(e))
            }
            Err(_) => {
                live.close(self).await;
                Err(timeout())
            }
        }
    }

    async fn replay(&self, live: &mut LivePage, req: FetchRequest<'_>) -> Result<(), FetchError> {
        let url = req.url.to_string();
        let other = |message: String| FetchError::Other {
            url: url.clone(),
            message,
        };
        let page = live.lease.page.clone();
        setup(&page, req.options, &self.user_agent).await.map_err(other)?;
        let restoring = match (&live.profile, live.lease.context()) {
            (Some(session), Some(context)) => session.apply(&page, context).await.map_err(other)?,
            _ => None,
        };
        let navigated = page.goto(url.as_str()).await.map(|_| ());
        ProfileSession::applied(&page, restoring).await;
        navigated.map_err(|e| FetchError::Connect {
            url: url.clone(),
            message: e.to_string(),
        })?;
        settle(&page).await;
        if req.options.wait_for_ms > 0 {
            tokio::time::sleep(Duration::from_millis(req.options.wait_for_ms)).await;
        }
        let changing: Vec<Value> = req
            .options
            .actions
            .iter()
            .filter(|a| {
                let kind = a.get("type").and_then(Value::as_str).unwrap_or("");
                !CAPTURES.contains(&kind)
            })
            .cloned()
            .collect();
        if !changing.is_empty() {
            let progress = Progress::default();
            perform(
                &page,
                &changing,
                req.options.mobile,
                &self.media,
                req.deadline,
                &progress,
            )
            .await?;
        }
        Ok(())
    }
}
