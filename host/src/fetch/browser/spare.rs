//! The spare page: the next scrape's fresh context and blank page, opened in
//! the background while the current scrape works, so that a scrape does not
//! wait for Chromium to create a context and start a renderer — the largest
//! step of a static page's browser scrape (BENCHMARKS.md). Only unproxied
//! pages are taken from it (a proxy is a property of the context).
//!
//! A spare is disposed of [`SPARE_IDLE`] after it was prepared if no scrape
//! took it, so an idle server keeps no renderer; one whose Chromium was
//! relaunched, or whose renderer no longer answers, is thrown away and the
//! scrape opens its own page.

use chromiumoxide::browser::Browser;
use chromiumoxide::cdp::browser_protocol::browser::BrowserContextId;
use chromiumoxide::page::Page;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

/// How long an untaken spare is kept.
pub const SPARE_IDLE: Duration = Duration::from_secs(10);

/// How long a taken spare's renderer may take to answer.
const ALIVE_WITHIN: Duration = Duration::from_millis(500);

type Opened = Result<(Page, BrowserContextId), String>;

/// One spare page, being opened or open.
#[derive(Default)]
pub struct Spare {
    slot: Mutex<Option<Prepared>>,
    generation: std::sync::atomic::AtomicU64,
}

struct Prepared {
    browser: Arc<Browser>,
    opening: JoinHandle<Opened>,
    generation: u64,
}

impl Prepared {
    /// Closes the spare's page and context in the background.
    fn discard(self) {
        tokio::spawn(async move {
            if let Ok(Ok((page, context))) = self.opening.await {
                close(&self.browser, page, context).await;
            }
        });
    }
}

async fn close(browser: &Browser, page: Page, context: BrowserContextId) {
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        let _ = page.close().await;
        let _ = browser.dispose_browser_context(context).await;
    })
    .await;
}

impl Spare {
    /// The spare prepared on `browser`, once open and answering; `None` if
    /// there is none (or it is unusable: thrown away).
    pub async fn take(&self, browser: &Arc<Browser>) -> Option<(Page, BrowserContextId)> {
        let prepared = self.slot.lock().await.take()?;
        if !Arc::ptr_eq(&prepared.browser, browser) {
            prepared.discard();
            return None;
        }
        let (page, context) = prepared.opening.await.ok()?.ok()?;
        let alive = tokio::time::timeout(ALIVE_WITHIN, page.evaluate("1")).await;
        if matches!(alive, Ok(Ok(_))) {
            Some((page, context))
        } else {
            tokio::spawn(async move { close(&prepared.browser, page, context).await });
            None
        }
    }

    /// Starts opening a spare on `browser` with `open` unless one is there.
    pub async fn prepare<F>(self: &Arc<Self>, browser: Arc<Browser>, open: F)
    where
        F: Future<Output = Opened> + Send + 'static,
    {
        let mut slot = self.slot.lock().await;
        if slot.is_some() {
            return;
        }
        let generation = self.generation.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        *slot = Some(Prepared {
            browser,
            opening: tokio::spawn(open),
            generation,
        });
        drop(slot);
        let spare = Arc::downgrade(self);
        tokio::spawn(async move {
            tokio::time::sleep(SPARE_IDLE).await;
            let Some(spare) = spare.upgrade() else { return };
            let mut slot = spare.slot.lock().await;
            if slot.as_ref().is_some_and(|p| p.generation == generation)
                && let Some(prepared) = slot.take()
            {
                prepared.discard();
            }
        });
    }

    /// Throws the spare away (Chromium is being replaced).
    pub async fn clear(&self) {
        if let Some(prepared) = self.slot.lock().await.take() {
            prepared.discard();
        }
    }
}
