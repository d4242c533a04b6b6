//! What a scrape or parse costs and the metering around it: a concurrency
//! slot (queued up to the request's deadline), one credit taken before the
//! work, the rest settled after it from the result; `metadata.creditsUsed`,
//! `concurrencyLimited` and `concurrencyQueueDurationMs` on the response.
//!
//! Billing rules (spec, docs/OPERATORS.md): 1 credit per scrape; a PDF
//! converted by the pdf parser 1 per page (`numPages`); a PDF returned raw
//! (`parsers: []`) a flat 1; lockdown 5 on a cache hit and 1 on a miss; an
//! page fetched through the enhanced proxy pool 5 (`auto` when its enhanced
//! retry succeeded; not on a cache hit); the `json` format (or changeTracking's json mode) 5.
//! Other failures cost nothing.

use super::auth::{Caller, concurrency_error, insufficient_credits, limits_unavailable};
use super::state::AppState;
use crate::limits::concurrency::Slot;
use crate::pipeline::cached::StoredHit;
pub use crate::pipeline::cost::{cost, cost_of_hit};
use axum::response::Response;
use serde_json::{Value, json};
use std::time::Instant;

/// Metering of one request.
pub struct Meter {
    caller: Option<Caller>,
    slot: Option<Slot>,
    reserved: u64,
}

impl Meter {
    /// Takes a concurrency slot (waiting until `deadline` at most) and one
    /// credit. No key (auth off): nothing to take.
    pub async fn start(
        state: &AppState,
        caller: Option<Caller>,
        deadline: Instant,
    ) -> Result<Meter, Response> {
        let Some(caller) = caller else {
            return Ok(Meter {
                caller: None,
                slot: None,
                reserved: 0,
            });
        };
        let limits = &state.services.limits;
        let slot = limits
            .slots
            .acquire(&caller.0, deadline)
            .await
            .map_err(concurrency_error)?;
        match limits.reserve(&caller.0, 1).await {
            Ok(true) => {}
            Ok(false) => return Err(insufficient_credits()),
            Err(e) => return Err(limits_unavailable(&e)),
        }
        Ok(Meter {
            caller: Some(caller),
            slot: Some(slot),
            reserved: 1,
        })
    }

    /// Settles the request's `credits` (the reserved one included), frees the
    /// slot and annotates `data.metadata`.
    pub async fn finish(self, state: &AppState, credits: u64, data: Option<&mut Value>) {
        let fields = self.settle(state, credits).await;
        let Some(Value::Object(metadata)) = data.and_then(|d| d.get_mut("metadata")) else {
            return;
        };
        for (name, value) in fields {
            metadata.insert(name.into(), value);
        }
    }

    /// As [`Meter::finish`], for a document served from the cache: the
    /// fields are spliced into the stored JSON.
    pub async fn finish_stored(self, state: &AppState, credits: u64, hit: &mut StoredHit) {
        for (name, value) in self.settle(state, credits).await {
            hit.add_field(name, value.to_string());
        }
    }

    /// Settles the credits and frees the slot; the `metadata` fields to add.
    async fn settle(mut self, state: &AppState, credits: u64) -> Vec<(&'static str, Value)> {
        if let Some(caller) = &self.caller {
            let delta = credits as i64 - self.reserved as i64;
            if let Err(e) = state.services.limits.settle(&caller.0, delta).await {
                tracing::error!(key = %caller.0.id, "settling credits failed: {e}");
            }
        }
        let queued = self.slot.take().and_then(|s| s.queued);
        let mut fields = vec![("creditsUsed", json!(credits))];
        if let Some(waited) = queued {
            fields.push(("concurrencyLimited", json!(true)));
            fields.push(("concurrencyQueueDurationMs", json!(waited.as_millis() as u64)));
        }
        fields
    }
}
