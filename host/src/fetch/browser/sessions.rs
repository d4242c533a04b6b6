//! [`Interact`]: interact sessions (`/v2/scrape/{scrapeId}/interact`,
//! docs/BROWSER.md). Scrapes are recorded as they finish (URL, options, the
//! key that ran them; the newest [`MAX_RECORDED`] for [`RECORD_TTL`]; never
//! a `zeroDataRetention` one). The first interact call on a scrape replays it
//! on a page kept open ([`super::live`]); later calls run on that page, one
//! at a time. A session ends on `DELETE`, after `ttl` from its start or
//! `activityTtl` without a call; its scrape then answers "destroyed".

use super::agent::{PromptOutcome, run_prompt};
use super::engine::BrowserEngine;
use super::live::{LiveError, LivePage};
use super::node_code::{CodeOutcome, NodeSettings, run};
use super::pool::BrowserPool;
use crate::api::ScrapeOptions;
use crate::llm::LlmClient;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use url::Url;

/// Scrapes remembered for interact.
pub const MAX_RECORDED: usize = 2000;
/// How long a scrape can be interacted with after it ran.
pub const RECORD_TTL: Duration = Duration::from_secs(24 * 3600);
/// Ended sessions remembered (to answer "destroyed" rather than "not found").
const MAX_ENDED: usize = 2000;
/// How often expired sessions are swept.
const SWEEP_EVERY: Duration = Duration::from_millis(500);
/// The longest a replay may take.
const REPLAY_TIMEOUT: Duration = Duration::from_secs(60);

/// A finished scrape, as interact replays it.
struct Recorded {
    url: Url,
    options: ScrapeOptions,
    owner: Option<String>,
    at: Instant,
}

/// What to run in a session.
pub enum Work<'a> {
    /// `code` in `language: "node"`.
    Node(&'a str),
    /// `prompt`.
    Prompt(&'a str),
}

/// How long a new session lives.
#[derive(Debug, Clone, Copy)]
pub struct Lifetimes {
    pub ttl: Duration,
    pub activity_ttl: Duration,
}

/// One call's outcome.
pub struct Ran {
    pub session_id: String,
    pub code: CodeOutcome,
    /// The prompt's answer (prompt mode).
    pub output: Option<String>,
}

/// Why a call could not run.
#[derive(Debug)]
pub enum InteractError {
    NotFound,
    Forbidden,
    Destroyed,
    /// Every session slot is taken (the limit).
    Full(usize),
    /// Replaying the scrape failed.
    Replay(String),
    /// The browser or playwright-core is missing.
    Unavailable(String),
    /// Running the code failed (not the code's own failure: that is an exit code).
    Exec(String),
    /// The prompt's agent failed.
    Agent(String),
    /// A prompt without a configured model.
    NoModel,
}

struct Session {
    id: String,
    live: Arc<tokio::sync::Mutex<Option<LivePage>>>,
    started: Instant,
    lifetimes: Lifetimes,
    last_activity: Mutex<Instant>,
}

impl Session {
    fn expired(&self, now: Instant) -> bool {
        let idle = now.duration_since(*self.last_activity.lock().unwrap());
        now.duration_since(self.started) > self.lifetimes.ttl || idle > self.lifetimes.activity_ttl
    }

    fn touch(&self) {
        *self.last_activity.lock().unwrap() = Instant::now();
    }
}

#[derive(Default)]
struct State {
    recorded: HashMap<String, Recorded>,
    order: VecDeque<String>,
    sessions: HashMap<String, Arc<Session>>,
    ended: VecDeque<String>,
}

/// The server's interact sessions.
pub struct Interact {
    engine: Arc<BrowserEngine>,
    pool: Arc<BrowserPool>,
    node: NodeSettings,
    llm: Option<Arc<LlmClient>>,
    state: Mutex<State>,
}

impl Interact {
    /// Sessions on `engine`'s pages; the sweeper runs until the server ends.
    pub fn start(
        engine: Arc<BrowserEngine>,
        pool: Arc<BrowserPool>,
        node: NodeSettings,
        llm: Option<Arc<LlmClient>>,
    ) -> Arc<Interact> {
        let interact = Arc::new(Interact {
            engine,
            pool,
            node,
            llm,
            state: Mutex::default(),
        });
        let weak = Arc::downgrade(&interact);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(SWEEP_EVERY).await;
                let Some(interact) = weak.upgrade() else { return };
                interact.sweep().await;
            }
        });
        interact
    }

    /// Remembers a finished scrape for interact.
    pub fn record(&self, scrape_id: &str, url: &Url, options: &ScrapeOptions, owner: Option<&str>) {
        if options.zero_data_retention {
            return;
        }
        let mut state = self.state.lock().unwrap();
        state.recorded.insert(
            scrape_id.to_string(),
            Recorded {
                url: url.clone(),
                options: options.clone(),
                owner: owner.map(str::to_string),
                at: Instant::now(),
            },
        );
        state.order.push_back(scrape_id.to_string());
        while state.order.len() > MAX_RECORDED {
            if let Some(old) = state.order.pop_front() {
                state.recorded.remove(&old);
            }
        }
    }

    /// Runs `work` in the scrape's session (opened by replaying it first).
    pub async fn call(
        &self,
        scrape_id: &str,
        owner: Option<&str>,
        work: Work<'_>,
        timeout: Duration,
        lifetimes: Lifetimes,
    ) -> Result<Ran, InteractError> {
        if matches!(work, Work::Prompt(_)) && self.llm.is_none() {
            return Err(InteractError::NoModel);
        }
        let session = self.session(scrape_id, owner, lifetimes).await?;
        let mut live = session.live.clone().lock_owned().await;
        session.touch();
        let Some(page) = live.as_mut() else {
            return Err(InteractError::Destroyed);
        };
        if let Some(why) = page.broken().await {
            drop(live);
            self.end(scrape_id).await;
            return Err(InteractError::Exec(format!("the session's page is gone: {why}")));
        }
        let ran = match work {
            Work::Node(code) => self.run_node(page, code, timeout).await,
            Work::Prompt(prompt) => self.run_prompt(page, prompt, scrape_id, timeout).await,
        };
        session.touch();
        ran.map(|(code, output)| Ran {
            session_id: session.id.clone(),
            code,
            output,
        })
    }

    async fn run_node(
        &self,
        page: &LivePage,
        code: &str,
        timeout: Duration,
    ) -> Result<(CodeOutcome, Option<String>), InteractError> {
        let cdp = self
            .pool
            .devtools_url()
            .await
            .ok_or_else(|| InteractError::Exec("Chromium is not running".into()))?;
        let ran = run(&self.node, &cdp, &page.target_id(), code, timeout).await;
        ran.map(|code| (code, None)).map_err(|e| {
            if e.contains("playwright-core is not installed") {
                InteractError::Unavailable(e)
            } else {
                InteractError::Exec(e)
            }
        })
    }

    async fn run_prompt(
        &self,
        page: &LivePage,
        prompt: &str,
        scrape_id: &str,
        timeout: Duration,
    ) -> Result<(CodeOutcome, Option<String>), InteractError> {
        let llm = self.llm.as_ref().ok_or(InteractError::NoModel)?;
        let deadline = Instant::now() + timeout;
        let media = self.engine.media.clone();
        let work = run_prompt(llm, page.page(), &media, prompt, (scrape_id, deadline));
        let (outcome, killed) = match tokio::time::timeout(timeout, work).await {
            Ok(Ok(PromptOutcome { output, log })) => (Ok((output, log)), false),
            Ok(Err(e)) => (Err(e), false),
            Err(_) => (Err("the prompt ran past its timeout".to_string()), true),
        };
        match outcome {
            Ok((output, log)) => Ok((
                CodeOutcome {
                    stdout: log,
                    stderr: String::new(),
                    result: serde_json::Value::String(output.clone()),
                    exit_code: 0,
                    killed: false,
                },
                Some(output),
            )),
            Err(e) if killed => Ok((
                CodeOutcome {
                    stdout: String::new(),
                    stderr: e,
                    result: serde_json::Value::Null,
                    exit_code: 137,
                    killed: true,
                },
                None,
            )),
            Err(e) => Err(InteractError::Agent(e)),
        }
    }

    /// The scrape's session, opened (the scrape replayed) on first use.
    async fn session(
        &self,
        scrape_id: &str,
        owner: Option<&str>,
        lifetimes: Lifetimes,
    ) -> Result<Arc<Session>, InteractError> {
        let (session, opening, url, options) = {
            let mut state = self.state.lock().unwrap();
            let recorded = match state.recorded.get(scrape_id) {
                Some(r) if r.at.elapsed() <= RECORD_TTL => r,
                _ => return Err(InteractError::NotFound),
            };
            if recorded.owner.is_some() && recorded.owner.as_deref() != owner {
                return Err(InteractError::Forbidden);
            }
            if let Some(session) = state.sessions.get(scrape_id) {
                return Ok(session.clone());
            }
            if state.ended.iter().any(|id| id == scrape_id) {
                return Err(InteractError::Destroyed);
            }
            let (url, options) = (recorded.url.clone(), recorded.options.clone());
            let session = Arc::new(Session {
                id: uuid::Uuid::now_v7().to_string(),
                live: Arc::new(tokio::sync::Mutex::new(None)),
                started: Instant::now(),
                lifetimes,
                last_activity: Mutex::new(Instant::now()),
            });
            // Held through the replay: later calls wait for the page.
            let opening = session
                .live
                .clone()
                .try_lock_owned()
                .expect("a new session's lock is free");
            state.sessions.insert(scrape_id.to_string(), session.clone());
            (session, opening, url, options)
        };
        if !self.pool.executable_exists() {
            self.forget(scrape_id);
            return Err(InteractError::Unavailable(
                "the browser engine has no Chromium (DISTILL_CHROMIUM)".into(),
            ));
        }
        let deadline = Instant::now() + REPLAY_TIMEOUT;
        match self.engine.open_live(&url, &options, deadline).await {
            Ok(live) => {
                let mut opening = opening;
                *opening = Some(live);
                session.touch();
                Ok(session)
            }
            Err(e) => {
                self.forget(scrape_id);
                Err(match e {
                    LiveError::Full(n) => InteractError::Full(n),
                    LiveError::Replay(e) => InteractError::Replay(e.to_string()),
                })
            }
        }
    }

    /// Drops a session that never opened (another call may open it again).
    fn forget(&self, scrape_id: &str) {
        self.state.lock().unwrap().sessions.remove(scrape_id);
    }

    /// Ends the scrape's session (`DELETE`): how long it lived, or `None`
    /// when it has none.
    pub async fn end(&self, scrape_id: &str) -> Option<Duration> {
        let session = {
            let mut state = self.state.lock().unwrap();
            let session = state.sessions.remove(scrape_id)?;
            state.ended.push_back(scrape_id.to_string());
            while state.ended.len() > MAX_ENDED {
                state.ended.pop_front();
            }
            session
        };
        let lived = session.started.elapsed();
        let live = session.live.lock().await.take();
        if let Some(live) = live {
            live.close(&self.engine).await;
        }
        Some(lived)
    }

    /// Whether `owner` may end the scrape's session.
    pub fn owned_by(&self, scrape_id: &str, owner: Option<&str>) -> bool {
        let state = self.state.lock().unwrap();
        match state.recorded.get(scrape_id) {
            Some(r) => r.owner.is_none() || r.owner.as_deref() == owner,
            None => true,
        }
    }

    /// Ends expired sessions that are not running a call.
    async fn sweep(&self) {
        let now = Instant::now();
        let expired: Vec<String> = {
            let state = self.state.lock().unwrap();
            state
                .sessions
                .iter()
                .filter(|(_, s)| s.expired(now) && s.live.try_lock().is_ok())
                .map(|(id, _)| id.clone())
                .collect()
        };
        for scrape_id in expired {
            tracing::info!(scrape = %scrape_id, "interact session expired");
            self.end(&scrape_id).await;
        }
        let mut state = self.state.lock().unwrap();
        while let Some(front) = state.order.front().cloned() {
            match state.recorded.get(&front) {
                Some(r) if r.at.elapsed() > RECORD_TTL => {
                    state.recorded.remove(&front);
                    state.order.pop_front();
                }
                None => {
                    state.order.pop_front();
                }
                Some(_) => break,
            }
        }
    }

    /// Ends every session (server shutdown).
    pub async fn shutdown(&self) {
        let ids: Vec<String> = self.state.lock().unwrap().sessions.keys().cloned().collect();
        for id in ids {
            self.end(&id).await;
        }
    }
}
