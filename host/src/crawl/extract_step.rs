//! An extract job's last task (docs/API.md, "Extract"): once every page
//! of the job is scraped (nothing queued or leased), the runner queues one
//! more task, [`STEP_KEY`], worked like a page: leased, billed through its
//! [`PageBill`] (the model call's [`MODEL_CREDITS`] held before the call),
//! finished atomically. It reads the stored pages, calls the
//! model once ([`crate::extract::run`]) and stores the result as the job's
//! last document (`{"extract": {data, sources?, warning?, tokensUsed}}`,
//! billed [`MODEL_CREDITS`]). So a restart during the model call leases the
//! step again (the queue's attempt numbers and the bill's holds as for any
//! page), and a finished step is never run twice (its key is seen).
//! No page scraped, no model, no credits or a failed call: the job fails
//! with the reason.

use super::billing::{self, PageBill};
use super::plan::Plan;
use crate::extract::{self, MODEL_CREDITS, Page};
use crate::jobs::{JobKind, JobStatus, JobStore, Outcome, Task};
use crate::services::Services;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The step's task key (no URL key starts with `#`).
pub const STEP_KEY: &str = "#extract";

/// Longest the model step may take.
const STEP_DEADLINE: Duration = Duration::from_secs(600);

/// The reason the job fails with when no model is configured.
pub const NO_MODEL: &str = "no language model is configured on this server (DISTILL_LLM_BASE_URL)";

/// Queues the model step of extract job `id` when its pages are all done
/// and it is still running. True: queued now (the runner leases it next).
pub async fn queue_step(store: &dyn JobStore, id: &str) -> bool {
    match store.get(id).await {
        Ok(Some(job)) if job.kind == JobKind::Extract && job.status == JobStatus::Scraping => {}
        _ => return false,
    }
    if store.outstanding(id).await.ok() != Some((0, 0)) {
        return false;
    }
    let step = Task {
        url: "distill:extract".into(),
        key: STEP_KEY.into(),
        depth: 0,
    };
    matches!(store.enqueue(id, vec![step], u64::MAX).await, Ok(1))
}

/// Fails the job with `reason`; the step stores nothing.
async fn fail(store: &dyn JobStore, id: &str, reason: String) -> Outcome {
    if let Err(e) = store.set_status(id, JobStatus::Failed, Some(reason)).await {
        tracing::error!(job = %id, "failing the extract job failed: {e}");
    }
    Outcome::Skipped
}

/// Runs the model step of job `id`.
pub async fn run_step(
    services: &Services,
    store: &dyn JobStore,
    id: &str,
    plan: &Plan,
    bill: &mut PageBill,
) -> Outcome {
    let Some(request) = &plan.extract else {
        return fail(store, id, "not an extract job".into()).await;
    };
    let documents = match store.results(id, 0, usize::MAX, None).await {
        Ok(page) => page.documents,
        Err(e) => return fail(store, id, format!("reading the scraped pages failed: {e}")).await,
    };
    let mut pages: Vec<Page> = documents
        .iter()
        .filter(|d| d.get("extract").is_none())
        .map(|d| Page {
            url: d["metadata"]["sourceURL"]
                .as_str()
                .or_else(|| d["metadata"]["url"].as_str())
                .unwrap_or_default()
                .to_string(),
            markdown: d["markdown"].as_str().unwrap_or_default().to_string(),
        })
        .collect();
    // Pages are stored as they finish: give them to the model in the
    // request's order.
    let rank = |url: &str| {
        request
            .urls
            .iter()
            .position(|u| u.as_str() == url)
            .unwrap_or(usize::MAX)
    };
    pages.sort_by_key(|p| rank(&p.url));
    let failed: Vec<String> = match store.errors(id).await {
        Ok((errors, _)) => errors
            .iter()
            .map(|e| {
                format!(
                    "{} ({})",
                    e["url"].as_str().unwrap_or_default(),
                    e["error"].as_str().unwrap_or_default()
                )
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    if pages.is_empty() {
        return fail(
            store,
            id,
            format!("No page could be scraped: {}", failed.join("; ")),
        )
        .await;
    }
    let Some(llm) = services.plugins.services().llm.clone() else {
        return fail(store, id, format!("The extraction failed: {NO_MODEL}")).await;
    };
    // The call's price is held before the model is asked (a key that
    // cannot afford it costs no model call); a failed call gives it back
    // (the step stores nothing, and the runner refunds what it holds).
    let limits = &services.limits;
    if !bill.take(limits).await || !bill.charge(limits, MODEL_CREDITS).await {
        return fail(store, id, billing::no_credits_message()).await;
    }
    let deadline = Instant::now() + STEP_DEADLINE;
    let extracted = match extract::run(&llm, request, &pages, id, deadline).await {
        Ok(x) => x,
        Err(why) => return fail(store, id, format!("The extraction failed: {why}")).await,
    };
    let mut warnings = extracted.notes;
    if !failed.is_empty() {
        warnings.push(format!(
            "{} of {} pages could not be scraped and were left out: {}",
            failed.len(),
            failed.len() + pages.len(),
            failed.join("; ")
        ));
    }
    let mut result = json!({"data": extracted.data, "tokensUsed": extracted.tokens});
    if let Some(sources) = extracted.sources {
        result["sources"] = sources;
    }
    if !warnings.is_empty() {
        result["warning"] = Value::String(warnings.join("; "));
    }
    Outcome::Page {
        document: json!({"extract": result, "metadata": {"creditsUsed": MODEL_CREDITS}}),
        final_key: STEP_KEY.into(),
    }
}
