//! One metered scrape or parse, the same for `POST /v2/scrape`,
//! `POST /v2/parse` and their MCP tools: take a concurrency slot and a credit
//! ([`Meter`]; a refusal is audited and answered), run the work isolated (a
//! panic is a 500 for this request only), bill what it cost
//! (`metadata.creditsUsed`), answer, and write the audit record.

use super::audit_trail::{self, Subject};
use super::auth::Caller;
use super::billing::{self, Meter};
use super::respond::{respond_data, respond_escaped, run_caught};
use super::state::AppState;
use crate::pipeline::{Data, PipelineError};
use axum::response::Response;
use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

/// What is being run, for the audit trail.
pub struct Job<'a> {
    /// `"scrape"` or `"parse"`.
    pub route: &'static str,
    /// The route's path, for the record of a refusal.
    pub path: &'static str,
    pub request_id: &'a str,
    /// The URL scraped or the uploaded file's name.
    pub target: Option<&'a str>,
    /// The request's deadline (its `timeout` from when the route took it):
    /// the wait for a concurrency slot and the work share it.
    pub deadline: Instant,
}

/// Runs `work` metered, billed and audited; the response to send. The work
/// comes boxed, so this future and the route's stay small to move.
pub async fn run(
    state: &AppState,
    caller: Option<Caller>,
    job: Job<'_>,
    options: &crate::api::ScrapeOptions,
    work: Pin<Box<impl Future<Output = Result<Data, PipelineError>> + Send + 'static>>,
) -> Response {
    let key = caller.as_ref().map(|c| c.0.clone());
    let key = key.as_deref();
    let meter = match Meter::start(state, caller, job.deadline).await {
        Ok(m) => m,
        Err(refused) => {
            audit_trail::refused(state, Some(job.request_id), job.path, key, &refused);
            return refused;
        }
    };
    let (credits, response) = match run_caught(job.request_id.to_string(), work).await {
        // A cache hit with its billing facts: billed and served from the
        // stored bytes, never parsed.
        Ok(Ok(Data::Stored(mut hit))) if hit.facts().is_some() => {
            let facts = hit.facts().expect("checked by the guard");
            let credits = billing::cost_of_hit(options, facts);
            meter.finish_stored(state, credits, &mut hit).await;
            (credits, respond_data(Ok(Data::Stored(hit))))
        }
        Ok(outcome) => {
            let (mut outcome, escaped) = match outcome.and_then(Data::into_parts) {
                Ok((data, escaped)) => (Ok(data), escaped),
                Err(e) => (Err(e), None),
            };
            let credits = billing::cost(options, &outcome);
            meter.finish(state, credits, outcome.as_mut().ok()).await;
            (credits, respond_escaped(outcome, escaped.as_ref()))
        }
        Err(panicked) => {
            meter.finish(state, 0, None).await;
            (0, panicked)
        }
    };
    let subject = Subject {
        route: job.route,
        request_id: job.request_id,
        target: job.target,
        options: Some(options),
    };
    audit_trail::record(state, key, subject, credits, &response);
    response
}
