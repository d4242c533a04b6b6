//! [`Crawls`]: starts, resumes and cancels jobs. One runner task per job this
//! server works: it leases tasks from the queue up to the job's concurrency,
//! scrapes each through the pipeline (global in-flight cap, per-host slots,
//! the job's pacing, robots.txt), and finishes each task with its document
//! and the in-scope links it found. At start-up every job still scraping is
//! resumed; expired jobs are swept hourly. On a shared queue every server
//! also looks for jobs the others started each second and works them too,
//! renewing the leases of the pages it holds.

use super::billing;
use super::discover::{page_links, robots_for, robots_path, sitemap_urls};
use super::extract_step;
use super::fetcher::RawFetcher;
use super::plan::Plan;
use super::politeness::HostGate;
use super::robots::RobotsCache;
use super::settings::CrawlSettings;
use super::shared_gate::SharedGate;
use super::url_norm::{fetch_form, key, resolve};
use super::webhook::Webhooks;
use crate::api::crawl_request::{SitemapMode, page_request};
use crate::api::formats::FormatRequest;
use crate::cache::store::now_ms;
use crate::config::Config;
use crate::fetch::http::HttpFetcher;
use crate::fetch::target_guard::TargetGuard;
use crate::jobs::{JobKind, JobRecord, JobStatus, JobStore, Leased, Outcome, Task, billed_credits};
use crate::pipeline::{self, PipelineError};
use crate::services::Services;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, Semaphore};
use tokio::task::JoinSet;
use url::Url;

/// Turns a pipeline failure into upstream's `(code, message)` (given by the server layer).
pub type DescribeError = Arc<dyn Fn(PipelineError) -> (String, String) + Send + Sync>;

/// Stops a runner.
#[derive(Default)]
struct Stop {
    flag: AtomicBool,
    notify: Notify,
}

/// Every job this server works.
pub struct Crawls {
    pub services: Arc<Services>,
    pub store: Arc<dyn JobStore>,
    pub settings: CrawlSettings,
    pub fetcher: RawFetcher,
    pub robots: RobotsCache,
    gate: HostGate,
    /// Per-host slots and pacing shared through the queue's Redis (`None`:
    /// the embedded queue, politeness per server in `gate`).
    shared_gate: Option<SharedGate>,
    inflight: Arc<Semaphore>,
    webhooks: Webhooks,
    running: Mutex<HashMap<String, Arc<Stop>>>,
    describe: DescribeError,
    /// The runtime [`Crawls::start`] ran on (the process's multi-thread
    /// one): jobs are driven there, not on the per-thread serving runtime of
    /// the request that created them, so a job's pages spread over every
    /// worker and do not queue behind that thread's connections
    /// ([`crate::serving`]).
    runtime: tokio::runtime::Handle,
}

impl Crawls {
    /// Opens the queue, resumes unfinished jobs and starts the expiry sweeper.
    pub async fn start(
        services: Arc<Services>,
        config: &Config,
        describe: DescribeError,
    ) -> anyhow::Result<Arc<Crawls>> {
        let settings = CrawlSettings::from_env();
        let store = crate::jobs::open(
            &config.data_dir,
            settings.queue_url.as_deref(),
            settings.queue_cache_bytes,
        )
        .await?;
        tracing::info!(backend = store.backend(), "job queue open");
        let guard = TargetGuard {
            allow_private: config.allow_private_targets,
            allowed: config.allow_target_cidrs,
        };
        let fetcher = RawFetcher::new(HttpFetcher::new(
            guard,
            config.max_page_bytes,
            &config.user_agent,
        )?);
        let webhooks = Webhooks::new(
            guard,
            settings.webhook_secret.clone(),
            settings.webhook_attempts,
            settings.webhook_backoff,
        )?;
        let shared_gate = match settings.queue_url.as_deref() {
            Some(url) => Some(SharedGate::connect(url, settings.per_host, settings.lease).await?),
            None => None,
        };
        let crawls = Arc::new(Crawls {
            services,
            store,
            gate: HostGate::new(settings.per_host),
            shared_gate,
            inflight: Arc::new(Semaphore::new(settings.max_inflight)),
            settings,
            fetcher,
            robots: RobotsCache::default(),
            webhooks,
            running: Mutex::new(HashMap::new()),
            describe,
            runtime: tokio::runtime::Handle::current(),
        });
        let requeued = crawls.store.requeue_expired_leases().await?;
        for job in crawls.store.active().await? {
            tracing::info!(job = %job.id, requeued, "resuming job");
            crawls.run(job);
        }
        if crawls.store.backend() != "embedded" {
            crawls.watch_shared_queue();
        }
        let weak = Arc::downgrade(&crawls);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(3600));
            loop {
                tick.tick().await;
                let Some(c) = weak.upgrade() else { return };
                if let Err(e) = c.store.sweep_expired(now_ms()).await {
                    tracing::warn!("job sweep failed: {e}");
                }
            }
        });
        Ok(crawls)
    }

    /// Works every job other servers started on the shared queue.
    fn watch_shared_queue(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        let every = self.settings.poll;
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                let Some(c) = weak.upgrade() else { return };
                match c.store.active().await {
                    Ok(jobs) => jobs.into_iter().for_each(|job| c.run(job)),
                    Err(e) => tracing::warn!("reading the shared queue failed: {e}"),
                }
            }
        });
    }

    /// Keeps the leases of the pages this runner holds alive.
    fn renew_leases(&self, id: &str, held: Arc<Mutex<HashSet<u64>>>) -> tokio::task::JoinHandle<()> {
        let (store, id, lease) = (self.store.clone(), id.to_string(), self.settings.lease);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval((lease / 3).max(Duration::from_millis(100)));
            loop {
                tick.tick().await;
                let seqs: Vec<u64> = held.lock().expect("held lock").iter().copied().collect();
                if let Err(e) = store.renew(&id, &seqs, lease).await {
                    tracing::warn!(job = %id, "renewing leases failed: {e}");
                }
            }
        })
    }

    fn plan(&self, job: &JobRecord) -> Result<Plan, crate::api::ApiError> {
        let registry = self.services.plugins.registry();
        Plan::of(
            job,
            registry.as_ref(),
            self.settings.default_concurrency,
            &self.settings.robots_user_agent,
        )
    }

    /// Creates a job from a validated request body, queues `urls` and starts it.
    pub async fn create(&self, kind: JobKind, request: Value, urls: Vec<Url>) -> anyhow::Result<JobRecord> {
        self.create_billed(kind, request, urls, None).await
    }

    /// [`Crawls::create`], the pages billed to the key `bill_to` (its id).
    pub async fn create_billed(
        &self,
        kind: JobKind,
        request: Value,
        urls: Vec<Url>,
        bill_to: Option<String>,
    ) -> anyhow::Result<JobRecord> {
        let id = uuid::Uuid::now_v7().to_string();
        let first = urls.first().map(|u| u.to_string()).unwrap_or_default();
        let mut job = JobRecord::new(id, kind, first, request, now_ms());
        job.bill_to = bill_to;
        let plan = self.plan(&job).map_err(|e| anyhow::anyhow!(e.message))?;
        let tasks = tasks_for(kind, &plan, urls);
        let job = self.store.create(&job, tasks, plan.limit).await?;
        if let Some(w) = &plan.webhook {
            self.webhooks
                .send(w, plan.family(), "started", &job.id, Vec::new(), None);
        }
        Ok(job)
    }

    /// Queues more URLs on a batch job (`appendToId`) and makes sure it runs.
    pub async fn append(&self, job: &JobRecord, urls: Vec<Url>) -> anyhow::Result<u64> {
        let plan = self.plan(job).map_err(|e| anyhow::anyhow!(e.message))?;
        Ok(self
            .store
            .enqueue(&job.id, tasks_for(job.kind, &plan, urls), plan.limit)
            .await?)
    }

    /// Cancels a job; `None` if unknown, else its status before.
    pub async fn cancel(&self, id: &str) -> anyhow::Result<Option<JobStatus>> {
        let before = self.store.set_status(id, JobStatus::Cancelled, None).await?;
        if let Some(stop) = self.running.lock().expect("running lock").get(id) {
            stop.flag.store(true, Ordering::SeqCst);
            stop.notify.notify_waiters();
        }
        Ok(before.map(|j| j.status))
    }

    /// Starts the runner of `job` unless one is running.
    pub fn run(self: &Arc<Self>, job: JobRecord) {
        let stop = {
            let mut running = self.running.lock().expect("running lock");
            if running.contains_key(&job.id) {
                return;
            }
            let stop = Arc::new(Stop::default());
            running.insert(job.id.clone(), stop.clone());
            stop
        };
        let crawls = self.clone();
        self.runtime.spawn(async move {
            let id = job.id.clone();
            crawls.clone().drive(job, stop).await;
            crawls.running.lock().expect("running lock").remove(&id);
        });
    }

    /// Works a job to its end.
    async fn drive(self: Arc<Self>, job: JobRecord, stop: Arc<Stop>) {
        let id = job.id.clone();
        let plan = match self.plan(&job) {
            Ok(p) => Arc::new(p),
            Err(e) => {
                let _ = self
                    .store
                    .set_status(&id, JobStatus::Failed, Some(e.message.clone()))
                    .await;
                return;
            }
        };
        if job.kind == JobKind::Crawl && plan.sitemap != SitemapMode::Skip {
            self.seed_from_sitemaps(&job, &plan).await;
        }
        tracing::info!(job = %id, backend = self.store.backend(), "working job");
        let pace = Arc::new(tokio::sync::Mutex::new(Instant::now()));
        let held = Arc::new(Mutex::new(HashSet::new()));
        let renewer = AbortOnDrop(self.renew_leases(&id, held.clone()));
        let mut work: JoinSet<()> = JoinSet::new();
        loop {
            if stop.flag.load(Ordering::SeqCst) {
                work.abort_all();
                return;
            }
            let room = plan.concurrency.saturating_sub(work.len());
            let leased = if room > 0 {
                match self.store.lease(&id, room, self.settings.lease).await {
                    Ok(l) => l,
                    Err(e) => {
                        tracing::error!(job = %id, "lease failed: {e}");
                        Vec::new()
                    }
                }
            } else {
                Vec::new()
            };
            let got = !leased.is_empty();
            for lease in leased {
                let (c, p, pace, held) = (self.clone(), plan.clone(), pace.clone(), held.clone());
                let jid = id.clone();
                held.lock().expect("held lock").insert(lease.seq);
                work.spawn(async move {
                    let seq = lease.seq;
                    let delivery = c.process(&jid, &p, lease, &pace).await;
                    held.lock().expect("held lock").remove(&seq);
                    if let Some(h) = delivery {
                        let _ = h.await;
                    }
                });
            }
            if work.is_empty() && !got {
                // An extract's pages are done: its model step next.
                if plan.kind == JobKind::Extract && extract_step::queue_step(self.store.as_ref(), &id).await {
                    continue;
                }
                // Done only when nothing is queued or leased anywhere, checked
                // and recorded in one step (an append at this moment is kept).
                match self.store.complete_if_drained(&id).await {
                    Ok(Some(before)) => {
                        drop(renewer);
                        self.completed(&id, &plan, before).await;
                        return;
                    }
                    Ok(None) => {}
                    Err(e) => tracing::error!(job = %id, "queue unreadable: {e}"),
                }
                tokio::select! {
                    _ = stop.notify.notified() => {}
                    _ = tokio::time::sleep(Duration::from_millis(250)) => {}
                }
                continue;
            }
            if room == 0 || !got {
                tokio::select! {
                    _ = work.join_next() => {}
                    _ = stop.notify.notified() => {}
                }
            }
        }
    }

    /// After a job completed: its `completed` webhook, once (from the server
    /// whose call completed it).
    async fn completed(&self, id: &str, plan: &Plan, before: JobStatus) {
        if before == JobStatus::Scraping
            && let Some(w) = &plan.webhook
            && let Some(h) = self
                .webhooks
                .send(w, plan.family(), "completed", id, Vec::new(), None)
        {
            let _ = h.await;
        }
        tracing::info!(job = %id, "job finished");
    }

    /// Queues the sitemap's in-scope URLs at depth 0 (repeated on resume: the
    /// queue skips URLs it has seen).
    async fn seed_from_sitemaps(&self, job: &JobRecord, plan: &Plan) {
        let Some(scope) = &plan.scope else { return };
        let agent = plan
            .robots
            .clone()
            .unwrap_or_else(|| self.settings.robots_user_agent.clone());
        let cap = plan.limit.min(100_000) as usize * 4;
        let urls = sitemap_urls(&self.fetcher, &self.robots, &scope.start, &agent, cap.max(1)).await;
        let tasks: Vec<Task> = urls
            .into_iter()
            .map(|u| fetch_form(u, plan.rules))
            .filter(|u| scope.check(u, 0).is_ok())
            .map(|u| Task {
                key: key(&u, plan.rules),
                url: u.to_string(),
                depth: 0,
            })
            .collect();
        if let Err(e) = self.store.enqueue(&job.id, tasks, plan.limit).await {
            tracing::warn!(job = %job.id, "queueing sitemap URLs failed: {e}");
        }
    }

    /// Scrapes one leased task and finishes it. Returns the page webhook's delivery.
    async fn process(
        &self,
        id: &str,
        plan: &Plan,
        lease: Leased,
        pace: &tokio::sync::Mutex<Instant>,
    ) -> Option<tokio::task::JoinHandle<bool>> {
        let token = lease.token();
        let task = lease.task;
        let limits = &self.services.limits;
        let mut bill = billing::PageBill::new(limits, plan, id, token);
        bill.release_earlier(limits).await;
        let (outcome, discovered) = self.scrape_task(id, plan, &task, pace, &mut bill).await;
        let document = match &outcome {
            Outcome::Page { document, .. } => Some(document.clone()),
            _ => None,
        };
        match self
            .store
            .finish(id, token, outcome, discovered, plan.limit)
            .await
        {
            // What the lease holds stays spent; the hold expires with the job.
            Ok(done) if done.stored => {
                let w = plan.webhook.as_ref()?;
                self.webhooks
                    .send(w, plan.family(), "page", id, document.into_iter().collect(), None)
            }
            Ok(_) => {
                bill.refund(limits).await;
                None
            }
            Err(e) => {
                // The lease expires; the next lease gives this one's hold back.
                // No target URL in the log under zero data retention.
                if plan.scrape_options.get("zeroDataRetention") == Some(&Value::Bool(true)) {
                    tracing::error!(job = %id, "finishing a task failed: {e}");
                } else {
                    tracing::error!(job = %id, url = %task.url, "finishing a task failed: {e}");
                }
                None
            }
        }
    }

    async fn scrape_task(
        &self,
        id: &str,
        plan: &Plan,
        task: &Task,
        pace: &tokio::sync::Mutex<Instant>,
        bill: &mut billing::PageBill,
    ) -> (Outcome, Vec<Task>) {
        let scrape_id = uuid::Uuid::now_v7().to_string();
        let failed = |code: &str, message: String| Outcome::Failed {
            error: json!({
                "id": scrape_id, "timestamp": crate::timestamp::iso8601_ms(now_ms()),
                "url": task.url, "code": code, "error": message,
            }),
        };
        if plan.kind == JobKind::Extract && task.key == extract_step::STEP_KEY {
            let outcome = extract_step::run_step(&self.services, self.store.as_ref(), id, plan, bill).await;
            return (outcome, Vec::new());
        }
        let Ok(url) = Url::parse(&task.url) else {
            return (failed("BAD_REQUEST", "Invalid URL".into()), Vec::new());
        };
        if let Some(agent) = &plan.robots {
            let robots = robots_for(&self.fetcher, &self.robots, &url, agent).await;
            if !robots.allows(&robots_path(&url)) {
                return (
                    Outcome::RobotsBlocked {
                        url: task.url.clone(),
                    },
                    Vec::new(),
                );
            }
        }
        let no_credits = || failed(billing::NO_CREDITS_CODE, billing::no_credits_message());
        if !bill.take(&self.services.limits).await {
            return (no_credits(), Vec::new());
        }
        let registry = self.services.plugins.registry();
        let mut request = match page_request(&plan.scrape_options, &task.url, registry.as_ref()) {
            Ok(r) => r,
            Err(e) => return (failed(e.code, e.message), Vec::new()),
        };
        // Links are read from the whole raw page (navigation included).
        let wants_raw = request.options.wants("rawHtml");
        if plan.follow_links && !wants_raw {
            request.options.formats.push(FormatRequest::named("rawHtml"));
        }
        if !plan.delay.is_zero() {
            if let Some(shared) = &self.shared_gate {
                shared.pace(id, plan.delay).await;
            } else {
                let mut next = pace.lock().await;
                tokio::time::sleep_until((*next).into()).await;
                *next = Instant::now() + plan.delay;
            }
        }
        let _global = self.inflight.clone().acquire_owned().await.expect("never closed");
        let host = url.host_str().unwrap_or("");
        let _host_slot = match &self.shared_gate {
            Some(shared) => (None, Some(shared.enter(host).await)),
            None => (Some(self.gate.enter(host).await), None),
        };
        let mut data = match pipeline::scrape(&self.services, &request, &scrape_id).await {
            Ok(d) => billing::priced(&request.options, d),
            Err(e) => {
                let (code, message) = (self.describe)(e);
                return (failed(&code, message), Vec::new());
            }
        };
        // The page is served only when the key can afford what it really cost.
        if !bill.charge(&self.services.limits, billed_credits(&data)).await {
            return (no_credits(), Vec::new());
        }
        let final_url = data["metadata"]["url"]
            .as_str()
            .and_then(|u| Url::parse(u).ok())
            .unwrap_or_else(|| url.clone());
        let mut discovered = Vec::new();
        if let Some(scope) = &plan.scope {
            if final_url.host_str() != url.host_str()
                && scope.check(&final_url, 0) == Err(super::scope::Refusal::Host)
            {
                return (Outcome::Skipped, Vec::new());
            }
            let raw = match data.as_object_mut() {
                Some(o) if !wants_raw => o.remove("rawHtml"),
                _ => data.get("rawHtml").cloned(),
            };
            if plan.follow_links
                && let Some(Value::String(raw)) = raw
            {
                for link in page_links(raw, final_url.clone()).await {
                    let Some(found) = resolve(&final_url, &link) else {
                        continue;
                    };
                    let found = fetch_form(found, plan.rules);
                    if scope.check(&found, task.depth + 1).is_ok() {
                        discovered.push(Task {
                            key: key(&found, plan.rules),
                            url: found.to_string(),
                            depth: task.depth + 1,
                        });
                    }
                }
            }
        }
        if !wants_raw && let Some(obj) = data.as_object_mut() {
            obj.remove("rawHtml");
        }
        let final_key = match plan.kind {
            JobKind::Crawl => key(&final_url, plan.rules),
            JobKind::Batch | JobKind::Extract => task.key.clone(),
        };
        (
            Outcome::Page {
                document: data,
                final_key,
            },
            discovered,
        )
    }
}

/// Aborts a task when dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Tasks for URLs given up front: a crawl's start URL (keyed for
/// de-duplication), or a batch's or extract's URLs (each its own key: a
/// batch scrapes what it is given, duplicates included).
fn tasks_for(kind: JobKind, plan: &Plan, urls: Vec<Url>) -> Vec<Task> {
    urls.into_iter()
        .map(|u| Task {
            key: match kind {
                JobKind::Crawl => key(&u, plan.rules),
                JobKind::Batch | JobKind::Extract => format!("{}#{}", uuid::Uuid::now_v7(), u),
            },
            url: u.to_string(),
            depth: 0,
        })
        .collect()
}
