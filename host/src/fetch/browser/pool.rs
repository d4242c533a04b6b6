//! [`BrowserPool`]: one long-lived Chromium per server process, launched on
//! the first request that needs it and relaunched when it has died; every
//! request gets its own browser context (cookies, storage and cache apart)
//! and a page, at most `max_pages` at a time.
//!
//! Chromium is started by us (not by chromiumoxide; [`super::launch`]) so that
//! its lifetime is tied to the server's: `kill_on_drop`, and
//! `PR_SET_PDEATHSIG(SIGKILL)` set in the child before exec so that even a
//! SIGKILLed server takes it down. The DevTools endpoint listens on 127.0.0.1
//! on a port Chromium picks; its address is read from Chromium's stderr.
//!
//! Memory: a watchdog measures Chromium's process tree ([`super::memory`])
//! every [`WATCH_EVERY`]. Over the budget, Chromium is restarted before the
//! next page when no page is open; over twice the budget, the largest
//! renderer is killed at once (its page's request fails, others go on). One
//! page's JavaScript heap is capped (`--max-old-space-size`), and pages cannot
//! open windows (`--block-new-web-contents`: no tab bombs). Chromium starts
//! without a tab (`--no-startup-window`): at rest only its browser, GPU,
//! network and storage processes run, plus, for a moment after a scrape,
//! the next scrape's spare page ([`super::spare`]).

pub use super::launch::WATCH_EVERY;
use super::launch::{Launch, Running, launch};
use super::proxy_auth::ProxyCredentials;
use chromiumoxide::browser::Browser;
use chromiumoxide::cdp::browser_protocol::browser::BrowserContextId;
use chromiumoxide::cdp::browser_protocol::target::{CreateBrowserContextParams, CreateTargetParams};
use chromiumoxide::page::Page;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::sync::{Mutex, OwnedSemaphorePermit, Semaphore, watch};

/// How the pool runs Chromium.
#[derive(Debug, Clone)]
pub struct PoolSettings {
    /// The Chromium binary (`DISTILL_CHROMIUM`).
    pub executable: PathBuf,
    /// Profiles go under this directory (emptied at start).
    pub profiles_dir: PathBuf,
    /// Most pages open at once (`DISTILL_BROWSER_PAGES`).
    pub max_pages: usize,
    /// Bytes of memory (PSS of the tree) over which Chromium is restarted
    /// between pages; 0: no budget.
    pub memory_budget: u64,
    /// Bytes over which the largest renderer is killed at once; 0: never.
    pub kill_renderer_over: u64,
    /// One page's JavaScript heap, MiB.
    pub js_heap_mib: u64,
    /// The operator's extra flags (`DISTILL_CHROMIUM_ARGS`), after ours.
    pub extra_args: Vec<String>,
    /// How long an unused spare page is kept (`DISTILL_BROWSER_SPARE_IDLE_MS`;
    /// zero: no spare).
    pub spare_idle: Duration,
    /// Most spare pages at once (`DISTILL_BROWSER_SPARE_PAGES`).
    pub spare_pages: usize,
    /// When spares open beside working pages (`DISTILL_BROWSER_SPARE_AHEAD`).
    pub spare_ahead: Ahead,
}

/// Why the browser cannot serve a page.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error(
        "the browser engine could not start Chromium ({executable}): {message}. Install it \
         (`make setup` installs Debian's chromium) or point DISTILL_CHROMIUM at a Chromium binary"
    )]
    Launch { executable: String, message: String },
    #[error("the browser failed: {0}")]
    Browser(String),
}

/// The server's Chromium.
pub struct BrowserPool {
    pub(super) settings: PoolSettings,
    running: Mutex<Option<Running>>,
    pub(super) pages: Arc<Semaphore>,
    /// Pages kept open by interact sessions: apart from `pages`, so that a
    /// session never holds back scrapes; at most `max_pages` of them.
    sessions: Arc<Semaphore>,
    /// The last measured memory of Chromium's tree, bytes (0: none running).
    memory: Arc<AtomicU64>,
    /// The proxy credentials each launched Chromium answers challenges with.
    proxy_credentials: OnceLock<Arc<ProxyCredentials>>,
    /// The next scrape's page, opened ahead ([`super::spare`]).
    pub(super) spare: Spare,
}

/// The spare page's state ([`super::spare`], which implements it).
pub struct Spare {
    /// How long an unused spare is kept; zero: no spare.
    pub(super) idle: Duration,
    /// Most spares at once (`DISTILL_BROWSER_SPARE_PAGES`; 0 when `idle` is zero).
    pub(super) most: usize,
    /// When spares open beside a working page, besides after a scrape.
    pub(super) ahead: Ahead,
    /// Oldest first.
    pub(super) slot: std::sync::Mutex<std::collections::VecDeque<Prepared>>,
    pub(super) generation: AtomicU64,
    /// Pages being set up now (from opening to their navigation's end).
    pub(super) setting_up: Arc<std::sync::atomic::AtomicUsize>,
}

/// When spares open beside a working page, besides after a scrape
/// (`DISTILL_BROWSER_SPARE_AHEAD`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ahead {
    /// `never` (the default): only after a scrape, when no other page is
    /// being set up (on two busy cores a renderer starting beside a working
    /// page slows that page by about what it saves: BENCHMARKS.md, session 10).
    Never,
    /// `waited`: also when a request took a spare still
    /// opening (requests come faster than spares open).
    WhenWaited,
    /// `always`: also whenever a plain request gets its page.
    Always,
}

/// A spare being opened, or open and waiting in its channel.
pub(super) struct Prepared {
    pub(super) browser: Arc<Browser>,
    pub(super) ready: tokio::sync::oneshot::Receiver<Result<PageLease, String>>,
    pub(super) generation: u64,
}

/// One page being set up, until dropped ([`PageLease::set_up`]).
pub struct SettingUp(pub(super) Arc<std::sync::atomic::AtomicUsize>);

/// A page in its own browser context; give it back with [`PageLease::close`]
/// (a lease dropped without it is closed by a task).
pub struct PageLease {
    pub page: Page,
    /// Turns true when this page's Chromium is gone.
    pub exited: watch::Receiver<bool>,
    pub(super) open: Option<OpenPage>,
    /// Counts a scrape's page as being set up ([`PageLease::set_up`]).
    pub(super) setting_up: std::sync::Mutex<Option<SettingUp>>,
}

/// What closing a lease gives back.
pub(super) struct OpenPage {
    pub(super) browser: Arc<Browser>,
    pub(super) context: BrowserContextId,
    pub(super) _permit: OwnedSemaphorePermit,
    /// Counts the page in `distill_browser_pages_open` (or, for a spare,
    /// `distill_browser_spare_pages`) until it is closed.
    pub(super) counted: crate::telemetry::Held,
}

impl OpenPage {
    /// Closes the page and disposes of its context (at most 5 s).
    async fn close(self, page: Page) {
        let _ = tokio::time::timeout(Duration::from_secs(5), async {
            let _ = page.close().await;
            let _ = self.browser.dispose_browser_context(self.context).await;
        })
        .await;
    }
}

impl PageLease {
    /// A lease on `page`, alone in `context` of `browser`, holding a page
    /// slot (`permit`) and counted in `/metrics` by `counted` until closed.
    pub(super) fn new(
        (page, context): (Page, BrowserContextId),
        browser: Arc<Browser>,
        exited: watch::Receiver<bool>,
        permit: OwnedSemaphorePermit,
        counted: crate::telemetry::Held,
    ) -> PageLease {
        PageLease {
            page,
            exited,
            open: Some(OpenPage {
                browser,
                context,
                _permit: permit,
                counted,
            }),
            setting_up: Default::default(),
        }
    }

    /// The page's browser and context (until closed).
    pub fn context(&self) -> Option<(&Browser, &BrowserContextId)> {
        self.open.as_ref().map(|o| (o.browser.as_ref(), &o.context))
    }

    /// The page is set up and navigated: a spare may be opened now.
    pub fn set_up(&self) {
        self.setting_up.lock().unwrap().take();
    }

    /// Closes the page and disposes of its context (at most 5 s).
    pub async fn close(mut self) {
        if let Some(open) = self.open.take() {
            open.close(self.page.clone()).await;
        }
    }
}

impl Drop for PageLease {
    fn drop(&mut self) {
        if let Some(open) = self.open.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(open.close(self.page.clone()));
        }
    }
}

impl BrowserPool {
    /// A pool that launches nothing until the first page is asked for.
    pub fn new(settings: PoolSettings) -> BrowserPool {
        // Profiles of a previous process (killed before it could clean up).
        super::profile_dirs::remove_profiles_dir(&settings.profiles_dir);
        let pages = Arc::new(Semaphore::new(settings.max_pages.max(1)));
        let sessions = Arc::new(Semaphore::new(settings.max_pages.max(1)));
        let spare = Spare::new(settings.spare_idle, settings.spare_pages, settings.spare_ahead);
        BrowserPool {
            settings,
            running: Mutex::new(None),
            pages,
            sessions,
            memory: Arc::new(AtomicU64::new(0)),
            proxy_credentials: OnceLock::new(),
            spare,
        }
    }

    /// Has every Chromium launched from now on answer proxy challenges with
    /// `creds` ([`super::proxy_auth`]); set once, before the first page.
    pub fn answer_proxy_auth(&self, creds: Arc<ProxyCredentials>) {
        let _ = self.proxy_credentials.set(creds);
    }

    /// The credentials given to [`BrowserPool::answer_proxy_auth`].
    pub fn proxy_credentials(&self) -> Option<&Arc<ProxyCredentials>> {
        self.proxy_credentials.get()
    }

    /// Chromium's memory at the last measurement, bytes (0: not running).
    pub fn memory(&self) -> u64 {
        self.memory.load(Ordering::Relaxed)
    }

    /// Whether the Chromium binary is there to launch.
    pub fn executable_exists(&self) -> bool {
        self.settings.executable.is_file()
    }

    /// A fresh page in a fresh context, waiting for a free page slot.
    pub async fn open_page(&self) -> Result<PageLease, PoolError> {
        self.open_page_via(None).await
    }

    /// [`BrowserPool::open_page`], the context's traffic going through
    /// `proxy` (a Chromium proxy-server string, e.g. `http://host:port`).
    pub async fn open_page_via(&self, proxy: Option<&str>) -> Result<PageLease, PoolError> {
        self.open_fresh(proxy).await
    }

    /// [`BrowserPool::open_page_via`]; with `may_take_spare` (a request
    /// that names no profile) and no proxy, the spare page when there is one
    /// ([`super::spare`]). Release the lease's set-up mark with
    /// [`PageLease::set_up`] once the page is navigated.
    pub async fn open_page_for(
        self: &Arc<Self>,
        proxy: Option<&str>,
        may_take_spare: bool,
    ) -> Result<PageLease, PoolError> {
        if may_take_spare
            && proxy.is_none()
            && let Some((lease, waited)) = self.take_spare().await
        {
            self.spares_ahead(waited);
            return Ok(lease);
        }
        let lease = self.open_fresh(proxy).await?;
        if may_take_spare && proxy.is_none() {
            self.spares_ahead(false);
        }
        Ok(lease)
    }

    /// A page in a new context, not the spare; waits for a page slot
    /// (disposing of the spares when they hold the last ones).
    async fn open_fresh(&self, proxy: Option<&str>) -> Result<PageLease, PoolError> {
        let permit = match self.pages.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                // The spare's slot is wanted.
                self.spare.clear_and_wait().await;
                self.pages
                    .clone()
                    .acquire_owned()
                    .await
                    .map_err(|e| PoolError::Browser(e.to_string()))?
            }
        };
        self.restart_if_over_budget().await;
        let mut lease = self.open_with(permit, proxy).await?;
        *lease.setting_up.get_mut().unwrap() = Some(self.spare.setting_up());
        Ok(lease)
    }

    /// A page for an interact session, or `None` when `max_pages` sessions
    /// are open already.
    pub async fn open_session_page(&self) -> Option<Result<PageLease, PoolError>> {
        let permit = self.sessions.clone().try_acquire_owned().ok()?;
        Some(self.open_with(permit, None).await)
    }

    /// The most interact sessions open at once.
    pub fn max_sessions(&self) -> usize {
        self.settings.max_pages.max(1)
    }

    /// The running Chromium's DevTools WebSocket address, if one runs.
    pub async fn devtools_url(&self) -> Option<String> {
        self.running.lock().await.as_ref().map(|r| r.devtools.clone())
    }

    async fn open_with(
        &self,
        permit: OwnedSemaphorePermit,
        proxy: Option<&str>,
    ) -> Result<PageLease, PoolError> {
        // A browser that died between two checks gets one relaunch.
        let mut last = None;
        for _ in 0..2 {
            let (browser, exited) = self.browser().await?;
            match new_context_page(&browser, proxy).await {
                Ok(opened) => {
                    return Ok(PageLease::new(
                        opened,
                        browser,
                        exited,
                        permit,
                        crate::telemetry::browser_page(),
                    ));
                }
                Err(e) => {
                    tracing::warn!(error = %e, "browser did not open a page; restarting it");
                    self.spare.clear();
                    *self.running.lock().await = None;
                    last = Some(e);
                }
            }
        }
        Err(PoolError::Browser(last.unwrap_or_default()))
    }

    /// Restarts Chromium when it is over its memory budget and no other
    /// page is open (the caller holds one page slot; a session page blocks it).
    async fn restart_if_over_budget(&self) {
        let budget = self.settings.memory_budget;
        if budget > 0 && self.memory() > budget {
            // A spare holds a page slot; it would be lost with Chromium anyway.
            self.spare.clear_and_wait().await;
        }
        // Idle: no other scrape page and no interact session page open.
        let idle = self.pages.available_permits() + 1 >= self.settings.max_pages.max(1)
            && self.sessions.available_permits() >= self.max_sessions();
        if budget == 0 || !idle || self.memory() <= budget {
            return;
        }
        let mut running = self.running.lock().await;
        self.spare.clear();
        if running.take().is_some() {
            tracing::warn!(
                mib = self.memory() >> 20,
                budget_mib = budget >> 20,
                "Chromium is over its memory budget; restarting it"
            );
            self.memory.store(0, Ordering::Relaxed);
        }
    }

    /// The running browser (and its exit signal), launched (again) if needed.
    async fn browser(&self) -> Result<(Arc<Browser>, watch::Receiver<bool>), PoolError> {
        let mut running = self.running.lock().await;
        if let Some(r) = running.as_mut()
            && r.is_alive()
        {
            return Ok((r.browser.clone(), r.exited.subscribe()));
        }
        if running.take().is_some() {
            self.spare.clear();
            tracing::warn!("Chromium exited; relaunching it");
        }
        let launched = launch(Launch {
            executable: &self.settings.executable,
            profiles_dir: &self.settings.profiles_dir,
            js_heap_mib: self.settings.js_heap_mib,
            extra_args: &self.settings.extra_args,
            kill_renderer_over: self.settings.kill_renderer_over,
            proxy_credentials: self.proxy_credentials.get(),
            memory: self.memory.clone(),
        })
        .await
        .map_err(|message| PoolError::Launch {
            executable: self.settings.executable.display().to_string(),
            message,
        })?;
        let browser = launched.browser.clone();
        let exited = launched.exited.subscribe();
        *running = Some(launched);
        Ok((browser, exited))
    }

    /// The running browser (and its exit signal) if one runs; never launches.
    pub(super) async fn running_browser(&self) -> Option<(Arc<Browser>, watch::Receiver<bool>)> {
        let mut running = self.running.lock().await;
        let r = running.as_mut()?;
        r.is_alive().then(|| (r.browser.clone(), r.exited.subscribe()))
    }

    /// The running Chromium's process id, if one runs.
    pub async fn pid(&self) -> Option<u32> {
        self.running.lock().await.as_ref().and_then(|r| r.child.id())
    }

    /// Kills Chromium now (server shutdown).
    pub async fn shutdown(&self) {
        self.spare.clear();
        *self.running.lock().await = None;
    }
}

pub(super) async fn new_context_page(
    browser: &Browser,
    proxy: Option<&str>,
) -> Result<(Page, BrowserContextId), String> {
    let mut context_params = CreateBrowserContextParams::default();
    if let Some(proxy) = proxy {
        context_params.proxy_server = Some(proxy.to_string());
        // Chromium skips proxies for loopback unless told not to.
        context_params.proxy_bypass_list = Some("<-loopback>".to_string());
    }
    let context = browser
        .create_browser_context(context_params)
        .await
        .map_err(|e| e.to_string())?;
    let params = CreateTargetParams::builder()
        .url("about:blank")
        .browser_context_id(context.clone())
        .build()
        .map_err(|e| e.to_string())?;
    match browser.new_page(params).await {
        Ok(page) => Ok((page, context)),
        Err(e) => {
            let _ = browser.dispose_browser_context(context).await;
            Err(e.to_string())
        }
    }
}

#[cfg(test)]
#[path = "pool_tests.rs"]
mod tests;
