//! Credits of crawl and batch pages (docs/OPERATORS.md, "Credits and
//! billing"): every page a job stores is billed to the key that started the
//! job, by the scrape rules ([`crate::pipeline::cost`]), and says so in its
//! `metadata.creditsUsed`. Billing is exact under concurrency: a page holds
//! one credit before it is fetched (none left: the page fails with
//! `INSUFFICIENT_CREDITS` unfetched), its real cost is taken before it is
//! stored (not affordable: it fails the same way, its hold given back), and
//! a page not stored gives its credits back. The hold is named after the job
//! and the task, so a page re-leased after its worker died reuses it.

use super::plan::Plan;
use crate::api::ScrapeOptions;
use crate::jobs::JOB_TTL_MS;
use crate::limits::Limits;
use crate::limits::keys::KeyRecord;
use serde_json::{Value, json};
use std::time::Duration;

/// The code of a page refused for want of credits.
pub const NO_CREDITS_CODE: &str = "INSUFFICIENT_CREDITS";

/// Upstream's 402 message, as the scrape route answers it.
pub fn no_credits_message() -> String {
    "Insufficient credits to perform this request. For more credits, ask the operator of this \
     server or try changing the request limit to a lower value."
        .to_string()
}

/// The page's `data` with `metadata.creditsUsed` (what storing it costs).
pub fn priced(opts: &ScrapeOptions, data: Value) -> Value {
    let outcome = Ok(data);
    let credits = crate::pipeline::cost::cost(opts, &outcome);
    let Ok(mut data) = outcome else {
        unreachable!("built as Ok above")
    };
    if let Some(Value::Object(metadata)) = data.get_mut("metadata") {
        metadata.insert("creditsUsed".into(), json!(credits));
    }
    data
}

/// The credits one page of a job holds (no key: nothing to hold).
pub struct PageBill {
    payer: Option<KeyRecord>,
    hold: String,
    held: u64,
}

impl PageBill {
    /// The bill of task `seq` of job `id`.
    pub fn new(limits: &Limits, plan: &Plan, id: &str, seq: u64) -> PageBill {
        let payer = plan.bill_to.as_deref().and_then(|bill_to| {
            limits
                .keys
                .current()
                .keys
                .iter()
                .find(|k| k.id == bill_to)
                .cloned()
        });
        PageBill {
            payer,
            hold: format!("{id}:{seq}"),
            held: 0,
        }
    }

    /// Moves the hold to `credits`; false when the key cannot afford it. A
    /// counter store that cannot answer lets the page through (logged).
    async fn hold(&mut self, limits: &Limits, credits: u64) -> bool {
        let Some(key) = &self.payer else { return true };
        let ttl = Duration::from_millis(JOB_TTL_MS as u64);
        match limits.hold(key, &self.hold, credits, ttl).await {
            Ok(true) => {
                self.held = credits;
                true
            }
            Ok(false) => false,
            Err(e) => {
                tracing::warn!(key = %key.id, "crawl billing: credits unknown, page let through: {e}");
                true
            }
        }
    }

    /// Holds the page's first credit before it is fetched.
    pub async fn take(&mut self, limits: &Limits) -> bool {
        self.hold(limits, 1).await
    }

    /// Takes the page's real cost before it is stored; when the key cannot
    /// afford it, gives the hold back and answers false.
    pub async fn charge(&mut self, limits: &Limits, credits: u64) -> bool {
        if self.hold(limits, credits).await {
            return true;
        }
        self.refund(limits).await;
        false
    }

    /// Gives back what the page holds (it was not stored).
    pub async fn refund(&mut self, limits: &Limits) {
        if self.held > 0 && self.hold(limits, 0).await {
            self.held = 0;
        }
    }

    /// The page was stored: what it holds stays spent.
    pub async fn keep(&mut self, limits: &Limits) {
        let Some(key) = &self.payer else { return };
        if self.held > 0
            && let Err(e) = limits.keep_hold(key, &self.hold).await
        {
            tracing::warn!(key = %key.id, "crawl billing: ending a hold failed: {e}");
        }
        self.held = 0;
    }
}
