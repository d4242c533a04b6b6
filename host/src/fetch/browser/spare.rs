//! Spare pages: fresh browser contexts with a blank page opened for the
//! next scrapes, so that a scrape does not wait for Chromium to create a
//! context and start a renderer (the largest step of a static page's browser
//! scrape; BENCHMARKS.md).
//!
//! Rules:
//! - at most `DISTILL_BROWSER_SPARE_PAGES` at once, each holding one of the
//!   `max_pages` slots (a spare beyond the first only while another slot
//!   stays free), none while Chromium is over its memory budget;
//! - opened once a scrape's page close is issued when no other page is being
//!   set up (a spare opened alongside a page's set-up delays that set-up:
//!   session 7); optionally also beside a working page
//!   (`DISTILL_BROWSER_SPARE_AHEAD`: `never` by default, `waited` when a
//!   request took a spare still opening, `always`);
//! - only a request that wants a plain fresh context takes one (oldest
//!   first): never one through a proxy (a proxy is a property of the
//!   context), never one naming a profile, never an interact session; the
//!   page was touched by no request;
//! - disposed of when unused for the idle time (`DISTILL_BROWSER_SPARE_IDLE_MS`;
//!   0: never opened), when Chromium is replaced, and when a request needs
//!   their page slots;
//! - counted in `/metrics` (`distill_browser_spare_pages`, and
//!   `distill_browser_spare_pages_total` by outcome).

use super::pool::{Ahead, BrowserPool, PageLease, Prepared, SettingUp, Spare};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::oneshot;

/// How long a taken spare's renderer may take to answer.
const ALIVE_WITHIN: Duration = Duration::from_secs(1);

/// How long disposing of a spare waits for it to finish opening.
const OPENING_WITHIN: Duration = Duration::from_secs(10);

impl Ahead {
    /// The setting's value, `None` if it is none of `never`, `waited`, `always`.
    pub fn from_setting(value: &str) -> Option<Ahead> {
        match value {
            "never" => Some(Ahead::Never),
            "waited" => Some(Ahead::WhenWaited),
            "always" => Some(Ahead::Always),
            _ => None,
        }
    }
}

impl Prepared {
    /// Closes the spare's page and context (once opened), counted as `outcome`.
    /// A spare still opening after [`OPENING_WITHIN`] is left to its opening
    /// task, which closes it when done (nobody waits for it any more).
    async fn discard(self, outcome: &'static str) {
        crate::telemetry::browser_spare_outcome(outcome);
        if let Ok(Ok(Ok(lease))) = tokio::time::timeout(OPENING_WITHIN, self.ready).await {
            lease.close().await;
        }
    }
}

impl Drop for SettingUp {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Spare {
    /// No spare yet; `idle` zero turns spares off; at most `most` at once,
    /// opened beside working pages as `ahead` says.
    pub fn new(idle: Duration, most: usize, ahead: Ahead) -> Spare {
        Spare {
            idle,
            most: if idle.is_zero() { 0 } else { most },
            ahead,
            slot: Mutex::new(VecDeque::new()),
            generation: AtomicU64::new(0),
            setting_up: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Counts a page as being set up until the guard is dropped.
    pub fn setting_up(&self) -> SettingUp {
        self.setting_up.fetch_add(1, Ordering::Relaxed);
        SettingUp(self.setting_up.clone())
    }

    /// The oldest spare (the one most likely open by now).
    fn take(&self) -> Option<Prepared> {
        self.slot.lock().unwrap().pop_front()
    }

    fn take_all(&self) -> Vec<Prepared> {
        self.slot.lock().unwrap().drain(..).collect()
    }

    /// Throws the spares away in the background (Chromium is being replaced).
    pub fn clear(&self) {
        for prepared in self.take_all() {
            tokio::spawn(prepared.discard("dropped"));
        }
    }

    /// Throws the spares away and waits until their pages are closed (their
    /// page slots are free again).
    pub async fn clear_and_wait(&self) {
        let all = self.take_all();
        futures::future::join_all(all.into_iter().map(|p| p.discard("dropped"))).await;
    }
}

impl BrowserPool {
    /// Closes a finished scrape's page; once its close is issued, when
    /// `may_spare` (the scrape could have used a spare), tops the spares up
    /// (at once, so that a request arriving meanwhile waits for a spare
    /// rather than opening a page beside it).
    pub async fn finish(self: &Arc<Self>, lease: PageLease, may_spare: bool) {
        let closing = tokio::spawn(lease.close());
        if may_spare {
            // The close's commands go out first.
            tokio::task::yield_now().await;
            self.top_up_spares().await;
        }
        let _ = closing.await;
    }

    /// A request got its page (`waited`: it took a spare still opening, so
    /// requests come faster than spares open): the next one's spare starts
    /// opening now, beside this one's work.
    pub(super) fn spares_ahead(self: &Arc<Self>, waited: bool) {
        let wanted = match self.spare.ahead {
            Ahead::Never => false,
            Ahead::WhenWaited => waited,
            Ahead::Always => true,
        };
        if wanted && self.spare.most > 0 {
            let pool = self.clone();
            tokio::spawn(async move { while pool.prepare_spare(true).await {} });
        }
    }

    /// Opens spares in the background until there are as many as allowed.
    async fn top_up_spares(self: &Arc<Self>) {
        while self.prepare_spare(false).await {}
    }

    /// Opens one more spare in the background unless spares are off, enough
    /// are there, a page is being set up (unless `ahead`), no page slot is
    /// free (beyond the first spare: unless one stays free for a request),
    /// Chromium is over its budget or not running. True if one was opened.
    async fn prepare_spare(self: &Arc<Self>, ahead: bool) -> bool {
        let spare = &self.spare;
        let not = |why: &str| {
            tracing::debug!(target: "distill::fetch::browser::laps", why, "no spare page");
            false
        };
        let there = spare.slot.lock().unwrap().len();
        if there >= spare.most {
            return false;
        }
        if !ahead && spare.setting_up.load(Ordering::Relaxed) > 0 {
            return not("a page is being set up");
        }
        let budget = self.settings.memory_budget;
        if budget > 0 && self.memory() > budget {
            return not("Chromium is over its memory budget");
        }
        if there > 0 && self.pages.available_permits() < 2 {
            return not("no page slot would stay free");
        }
        let Ok(permit) = self.pages.clone().try_acquire_owned() else {
            return not("no page slot is free");
        };
        let Some((browser, exited)) = self.running_browser().await else {
            return not("Chromium is not running");
        };
        let generation = {
            let mut slot = spare.slot.lock().unwrap();
            if slot.len() >= spare.most {
                return false;
            }
            let generation = spare.generation.fetch_add(1, Ordering::Relaxed);
            let (tx, ready) = oneshot::channel();
            slot.push_back(Prepared {
                browser: browser.clone(),
                ready,
                generation,
            });
            let counted = crate::telemetry::browser_spare();
            tokio::spawn(async move {
                let opened = super::pool::new_context_page(&browser, None).await;
                let lease = opened.map(|opened| PageLease::new(opened, browser, exited, permit, counted));
                // Nobody waits for it any more: closed.
                if let Err(Ok(lease)) = tx.send(lease) {
                    lease.close().await;
                }
            });
            generation
        };
        let pool = Arc::downgrade(self);
        let idle = spare.idle;
        tokio::spawn(async move {
            tokio::time::sleep(idle).await;
            let Some(pool) = pool.upgrade() else { return };
            let unused = {
                let mut slot = pool.spare.slot.lock().unwrap();
                let at = slot.iter().position(|p| p.generation == generation);
                at.and_then(|at| slot.remove(at))
            };
            if let Some(prepared) = unused {
                prepared.discard("idle").await;
            }
        });
        true
    }

    /// The spare, for a request that wants a plain fresh context, and
    /// whether it was still opening when taken: `None` if there is none, or
    /// it is unusable (thrown away).
    pub(super) async fn take_spare(&self) -> Option<(PageLease, bool)> {
        let prepared = self.spare.take()?;
        let setting_up = self.spare.setting_up();
        let waiting = std::time::Instant::now();
        let current = self.running_browser().await;
        if !current.is_some_and(|(browser, _)| Arc::ptr_eq(&browser, &prepared.browser)) {
            tokio::spawn(prepared.discard("dropped"));
            return None;
        }
        // If this request gives up while the spare is still opening, the
        // channel is dropped and the opening task closes the page.
        let mut ready = prepared.ready;
        let (opened, waited) = match ready.try_recv() {
            Err(oneshot::error::TryRecvError::Empty) => (ready.await, true),
            Err(oneshot::error::TryRecvError::Closed) => {
                crate::telemetry::browser_spare_outcome("dropped");
                return None;
            }
            Ok(opened) => (Ok(opened), false),
        };
        let Ok(Ok(mut lease)) = opened else {
            crate::telemetry::browser_spare_outcome("dropped");
            return None;
        };
        let alive = tokio::time::timeout(ALIVE_WITHIN, lease.page.evaluate("1")).await;
        if !matches!(alive, Ok(Ok(_))) || *lease.exited.borrow() {
            crate::telemetry::browser_spare_outcome("dropped");
            tokio::spawn(lease.close());
            return None;
        }
        crate::telemetry::browser_spare_outcome("used");
        tracing::debug!(
            target: "distill::fetch::browser::laps",
            waited_ms = format!("{:.1}", waiting.elapsed().as_secs_f64() * 1000.0),
            "browser page from the spare"
        );
        if let Some(open) = lease.open.as_mut() {
            open.counted = crate::telemetry::browser_page();
        }
        *lease.setting_up.get_mut().unwrap() = Some(setting_up);
        Some((lease, waited))
    }
}
