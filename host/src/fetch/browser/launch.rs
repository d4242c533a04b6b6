//! Chromium's process for [`super::pool`]: the flags it runs with, its launch
//! (our own child, `PR_SET_PDEATHSIG(SIGKILL)` before exec, the DevTools
//! address read from its stderr), the DevTools connection's handler, and the
//! watchdog that measures its process tree ([`super::memory`]) and kills the
//! largest renderer over the limit. [`Running`] ends all of it when dropped.

use super::proxy_auth::ProxyCredentials;
use crate::parent_death::die_with_parent;
use chromiumoxide::browser::Browser;
use chromiumoxide::error::CdpError;
use futures::StreamExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::watch;

/// How often the watchdog measures Chromium's memory.
pub const WATCH_EVERY: Duration = Duration::from_millis(500);

/// How long Chromium may take to print its DevTools address.
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(20);

/// Chromium's flags besides the profile and DevTools port.
const FLAGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--no-first-run",
    "--no-default-browser-check",
    "--mute-audio",
    "--hide-scrollbars",
    "--window-size=1280,800",
    "--metrics-recording-only",
    "--password-store=basic",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
    "--block-new-web-contents",
    // No initial tab: its renderer would sit idle for the life of the process
    // (three processes fewer at rest; BENCHMARKS.md).
    "--no-startup-window",
    // The network service and the (software) GPU work in the browser process:
    // two processes fewer, ~20 MiB PSS less at rest (BENCHMARKS.md). A crash
    // there ends Chromium, which the pool relaunches.
    "--enable-features=NetworkServiceInProcess2",
    "--in-process-gpu",
    // No SwiftShader GL in that GPU thread: pages, screenshots and PDFs are
    // composited in software without it; ~17 MiB PSS less at rest
    // (BENCHMARKS.md, session 8).
    "--disable-software-rasterizer",
];

/// A running Chromium and its DevTools connection.
pub(super) struct Running {
    pub(super) browser: Arc<Browser>,
    pub(super) child: Child,
    /// True once the DevTools connection ended (Chromium gone).
    pub(super) exited: Arc<watch::Sender<bool>>,
    handler: tokio::task::JoinHandle<()>,
    watchdog: tokio::task::JoinHandle<()>,
    pub(super) profile: PathBuf,
    /// The DevTools WebSocket address (for interact's Playwright child).
    pub(super) devtools: String,
    /// Answers proxy challenges ([`super::proxy_auth`]), when the pools have credentials.
    proxy_auth: Option<tokio::task::JoinHandle<()>>,
}

impl Running {
    pub(super) fn is_alive(&mut self) -> bool {
        !*self.exited.borrow() && matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.handler.abort();
        self.watchdog.abort();
        if let Some(task) = &self.proxy_auth {
            task.abort();
        }
        let _ = self.child.start_kill();
        let _ = self.exited.send(true);
        super::profile_dirs::remove_profile(&self.profile);
    }
}

/// What a launch takes from the pool.
pub(super) struct Launch<'a> {
    /// The Chromium binary.
    pub executable: &'a Path,
    /// The profile goes in a fresh directory under this one.
    pub profiles_dir: &'a Path,
    /// One page's JavaScript heap, MiB.
    pub js_heap_mib: u64,
    /// The operator's extra flags, after ours.
    pub extra_args: &'a [String],
    /// Bytes of the process tree over which the largest renderer is killed; 0: never.
    pub kill_renderer_over: u64,
    /// Credentials to answer proxy challenges with.
    pub proxy_credentials: Option<&'a Arc<ProxyCredentials>>,
    /// Where the watchdog writes the tree's last measured memory.
    pub memory: Arc<AtomicU64>,
}

/// Starts Chromium, connects to its DevTools endpoint and starts its memory
/// watchdog. The error is the reason, for [`super::pool::PoolError::Launch`].
pub(super) async fn launch(with: Launch<'_>) -> Result<Running, String> {
    let profile = with.profiles_dir.join(uuid::Uuid::new_v4().simple().to_string());
    std::fs::create_dir_all(&profile).map_err(|e| format!("creating {}: {e}", profile.display()))?;
    let mut cmd = Command::new(with.executable);
    cmd.args(FLAGS)
        .arg(format!("--js-flags=--max-old-space-size={}", with.js_heap_mib))
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(with.extra_args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    die_with_parent(cmd.as_std_mut(), false);
    let started = std::time::Instant::now();
    let mut child = cmd.spawn().map_err(|e| e.to_string())?;
    let stderr = child.stderr.take().ok_or_else(|| "no stderr".to_string())?;
    let mut lines = BufReader::new(stderr).lines();
    let ws = tokio::time::timeout(LAUNCH_TIMEOUT, async {
        let mut tail = Vec::new();
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(at) = line.find("ws://") {
                return Ok(line[at..].trim().to_string());
            }
            tail.push(line);
        }
        Err(tail.join(" | "))
    })
    .await
    .map_err(|_| "no DevTools address within 20 s".to_string())?
    .map_err(|tail| format!("exited before DevTools was ready: {tail}"))?;
    // Keep draining stderr so Chromium never blocks on a full pipe.
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            tracing::trace!(target: "chromium", "{line}");
        }
    });
    let (browser, mut handler) = Browser::connect(ws.clone()).await.map_err(|e| e.to_string())?;
    let exited = Arc::new(watch::Sender::new(false));
    let flag = exited.clone();
    let handler = tokio::spawn(async move {
        // The stream does not end when Chromium dies: a connection error does.
        while let Some(event) = handler.next().await {
            match event {
                Err(CdpError::Ws(e)) => {
                    tracing::debug!(error = %e, "DevTools connection lost");
                    break;
                }
                Err(e) => tracing::debug!(error = %e, "DevTools connection"),
                Ok(()) => {}
            }
        }
        let _ = flag.send(true);
    });
    let browser = Arc::new(browser);
    let proxy_auth = match with.proxy_credentials {
        Some(creds) => Some(super::proxy_auth::answer(&browser, creds.clone()).await?),
        None => None,
    };
    let watchdog = tokio::spawn(watch_memory(
        child.id().unwrap_or(0),
        exited.clone(),
        with.kill_renderer_over,
        with.memory,
    ));
    tracing::info!(
        pid = child.id(),
        ms = started.elapsed().as_millis() as u64,
        "Chromium launched"
    );
    Ok(Running {
        browser,
        child,
        exited,
        handler,
        watchdog,
        profile,
        devtools: ws,
        proxy_auth,
    })
}

/// Measures Chromium's tree every [`WATCH_EVERY`] into `memory`; over
/// `kill_over` (when not 0) kills the largest renderer (the page hogging
/// memory crashes and its request fails; Chromium and other pages go on).
/// A tree with no live member means Chromium is gone: `exited` is set.
async fn watch_memory(root: u32, exited: Arc<watch::Sender<bool>>, kill_over: u64, memory: Arc<AtomicU64>) {
    if root == 0 {
        return;
    }
    loop {
        let members = tokio::task::spawn_blocking(move || super::memory::tree(root))
            .await
            .unwrap_or_default();
        if members.is_empty() {
            memory.store(0, Ordering::Relaxed);
            let _ = exited.send(true);
            return;
        }
        let total = super::memory::total(&members);
        memory.store(total, Ordering::Relaxed);
        if kill_over > 0
            && total > kill_over
            && let Some(hog) = members.iter().filter(|m| m.renderer).max_by_key(|m| m.bytes)
        {
            tracing::warn!(
                pid = hog.pid,
                mib = hog.bytes >> 20,
                total_mib = total >> 20,
                "Chromium is over its memory limit; killing its largest renderer"
            );
            // SAFETY: a plain syscall; the pid is a live child of our Chromium.
            unsafe { libc::kill(hog.pid as i32, libc::SIGKILL) };
        }
        tokio::time::sleep(WATCH_EVERY).await;
    }
}
