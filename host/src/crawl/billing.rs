//! Credits of crawl and batch pages (docs/OPERATORS.md, "Credits and
//! billing"): every page a job stores is billed to the key that started the
//! job, by the scrape rules ([`crate::pipeline::cost`]), and says so in its
//! `metadata.creditsUsed`. Once the key has no credit left, the job's
//! remaining pages are not fetched: each fails with `INSUFFICIENT_CREDITS`.
//! The manager calls this at its page-finished seam only.

use super::plan::Plan;
use crate::api::ScrapeOptions;
use crate::limits::Limits;
use crate::limits::keys::KeyRecord;
use serde_json::{Value, json};

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

fn payer(limits: &Limits, plan: &Plan) -> Option<KeyRecord> {
    let id = plan.bill_to.as_deref()?;
    limits.keys.current().keys.iter().find(|k| k.id == id).cloned()
}

/// Whether the job's key has no credit left (a key without a limit never
/// runs out; a counter store that cannot answer lets the page through).
pub async fn out_of_credits(limits: &Limits, plan: &Plan) -> bool {
    let Some(key) = payer(limits, plan) else {
        return false;
    };
    match limits.usage(&key).await {
        Ok(usage) => usage.remaining() == Some(0),
        Err(e) => {
            tracing::warn!(key = %key.id, "crawl billing: credits unknown, page let through: {e}");
            false
        }
    }
}

/// Bills a stored page (`document`) to the job's key.
pub async fn bill_page(limits: &Limits, plan: &Plan, document: Option<&Value>) {
    let (Some(key), Some(document)) = (payer(limits, plan), document) else {
        return;
    };
    let credits = document["metadata"]["creditsUsed"].as_u64().unwrap_or(1);
    if let Err(e) = limits.settle(&key, credits as i64).await {
        tracing::error!(key = %key.id, "crawl billing: settling {credits} credits failed: {e}");
    }
}
