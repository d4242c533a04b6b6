//! Credits of crawl and batch pages (docs/OPERATORS.md, "Credits and
//! billing"): every page a job stores is billed to the key that started the
//! job, by the scrape rules ([`crate::pipeline::cost`]), and says so in its
//! `metadata.creditsUsed`. Billing is exact under concurrency: a page holds
//! one credit before it is fetched (none left: the page fails with
//! `INSUFFICIENT_CREDITS` unfetched), its real cost is taken before it is
//! stored (not affordable: it fails the same way, its hold given back), and
//! a page not stored gives its credits back. The hold is named after the job,
//! the task and the lease's attempt, and it outlives the store (it expires
//! with the job): a lease of a task that was leased before first gives back
//! what the earlier leases hold — their worker died before storing the page,
//! a crash reverted the store, or their lease expired and that worker's
//! finish will be refused — so a page is billed once however often it is
//! leased, and a late worker's refund never touches another lease's credits.

use super::plan::Plan;
use crate::api::ScrapeOptions;
use crate::jobs::{JOB_TTL_MS, LeaseToken};
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

/// Earlier leases of one task whose holds a new lease gives back (a task
/// leased more often than this is failing on every worker).
const EARLIER_LEASES: u64 = 16;

/// The credits one lease of a page holds (no key: nothing to hold).
pub struct PageBill {
    payer: Option<KeyRecord>,
    /// `job:seq:` (the attempt is appended).
    task: String,
    attempt: u64,
    hold: String,
    held: u64,
}

impl PageBill {
    /// The bill of `lease` of job `id`.
    pub fn new(limits: &Limits, plan: &Plan, id: &str, lease: LeaseToken) -> PageBill {
        let payer = plan.bill_to.as_deref().and_then(|bill_to| {
            limits
                .keys
                .current()
                .keys
                .iter()
                .find(|k| k.id == bill_to)
                .cloned()
        });
        PageBill::for_payer(payer, id, lease)
    }

    /// The bill of `lease` of job `id`, paid by `payer`.
    pub fn for_payer(payer: Option<KeyRecord>, id: &str, lease: LeaseToken) -> PageBill {
        let task = format!("{id}:{}:", lease.seq);
        PageBill {
            payer,
            hold: format!("{task}{}", lease.attempt),
            task,
            attempt: lease.attempt,
            held: 0,
        }
    }

    /// Gives back what the task's earlier leases hold (run before anything
    /// else: their page was not stored, or this lease would not exist).
    pub async fn release_earlier(&self, limits: &Limits) {
        let Some(key) = &self.payer else { return };
        let ttl = Duration::from_millis(JOB_TTL_MS as u64);
        for attempt in self.attempt.saturating_sub(EARLIER_LEASES).max(1)..self.attempt {
            let hold = format!("{}{attempt}", self.task);
            if let Err(e) = limits.hold(key, &hold, 0, ttl).await {
                tracing::warn!(key = %key.id, "crawl billing: giving back an earlier lease's hold failed: {e}");
            }
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::LimitSettings;

    /// Limits on files in a fresh directory, removed with the directory.
    async fn limits() -> (crate::test_dir::TestDir, Limits) {
        let dir = crate::test_dir::TestDir::new("billing");
        let limits = Limits::open(&LimitSettings {
            keys_file: dir.join("keys.json"),
            url: None,
            path: dir.join("limits").join("counters.redb"),
            queue_per_key: 1,
        })
        .await
        .unwrap();
        (dir, limits)
    }

    fn payer() -> KeyRecord {
        KeyRecord {
            id: "key_b".into(),
            name: "b".into(),
            hash: String::new(),
            prefix: String::new(),
            credits: Some(10),
            rpm: None,
            concurrency: None,
            created_at: 0,
            revoked: false,
        }
    }

    fn lease(attempt: u64) -> LeaseToken {
        LeaseToken { seq: 7, attempt }
    }

    async fn spent(limits: &Limits) -> u64 {
        limits.usage(&payer()).await.unwrap().used
    }

    /// A page of 3 credits leased three times — its first worker dies after
    /// taking the cost, the second stores it while the first, still alive
    /// but past its lease, charges and refunds, and a crash reverts the
    /// store so a third lease redoes it — is billed 3 at every end.
    #[tokio::test]
    async fn a_page_leased_again_is_billed_once_and_a_late_refund_touches_no_other_lease() {
        let (_dir, limits) = limits().await;
        let bill = |attempt| PageBill::for_payer(Some(payer()), "job", lease(attempt));
        let mut first = bill(1);
        first.release_earlier(&limits).await;
        assert!(first.take(&limits).await && first.charge(&limits, 3).await);
        assert_eq!(
            spent(&limits).await,
            3,
            "the first lease holds the cost; its worker dies"
        );

        let mut second = bill(2);
        second.release_earlier(&limits).await;
        assert_eq!(spent(&limits).await, 0, "the dead lease's hold given back");
        assert!(second.take(&limits).await);
        // The first worker was only late: it charges again, its finish is
        // refused (the task is the second lease's), it refunds its own hold.
        assert!(first.charge(&limits, 3).await);
        assert!(second.charge(&limits, 3).await);
        assert_eq!(spent(&limits).await, 6);
        first.refund(&limits).await;
        assert_eq!(
            spent(&limits).await,
            3,
            "the late refund leaves the second lease's credits"
        );
        // The second lease's page is stored: its hold stays spent.

        // A crash reverted that store: a third lease gives the second's back and redoes it.
        let mut third = bill(3);
        third.release_earlier(&limits).await;
        assert_eq!(spent(&limits).await, 0);
        assert!(third.take(&limits).await && third.charge(&limits, 3).await);
        assert_eq!(spent(&limits).await, 3, "billed once");
    }
}
