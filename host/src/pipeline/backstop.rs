//! The backstop around a whole scrape or parse: every wait inside is bounded
//! where it happens (docs/OPERATORS.md, "Timeouts"), and this ends the
//! request [`GRACE`] after its deadline whatever it is still waiting for, so
//! a wait nobody found still ends. The work is dropped there, which is safe
//! at every await of the pipeline (a coalesced fetch's leader hands over to
//! a waiter, a browser page lease closes on drop, change tracking records
//! last, metering and the audit record happen outside, in the route). The
//! answer is the request's 408, and one warning names the stage reached.

use super::error::PipelineError;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// How long past its deadline a request may still finish before the
/// backstop ends it: longer than the bounded waits' own overshoot (a plugin
/// call's guard, 250 ms), so they answer first with their own stage.
pub const GRACE: Duration = Duration::from_millis(500);

/// The stages a request passes, in the words of the 408's message ("while …").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Step {
    Starting,
    CacheLookup,
    Fetching,
    Converting,
    Producing,
    Storing,
    Tracking,
}

impl Step {
    const ALL: [Step; 7] = [
        Step::Starting,
        Step::CacheLookup,
        Step::Fetching,
        Step::Converting,
        Step::Producing,
        Step::Storing,
        Step::Tracking,
    ];

    /// As the 408's message and the log line name it.
    pub fn name(self) -> &'static str {
        match self {
            Step::Starting => "starting",
            Step::CacheLookup => "looking up the cache",
            Step::Fetching => "fetching the page",
            Step::Converting => "converting the document",
            Step::Producing => "cleaning the page and rendering its formats",
            Step::Storing => "storing the response",
            Step::Tracking => "tracking changes",
        }
    }
}

/// The stage a request has reached; the pipeline marks each step as it
/// starts it, the backstop reads it.
#[derive(Debug, Default)]
pub struct Stage(AtomicU8);

impl Stage {
    /// The request now does `step`.
    pub fn at(&self, step: Step) {
        self.0.store(step as u8, Ordering::Relaxed);
    }

    /// The step reached.
    pub fn step(&self) -> Step {
        Step::ALL[usize::from(self.0.load(Ordering::Relaxed)).min(Step::ALL.len() - 1)]
    }
}

/// Runs `work` until `deadline` + [`GRACE`]; past that, drops it and fails
/// with the request's timeout (`timeout_ms`), logging `route` and the stage
/// `stage` had reached.
pub async fn within<T>(
    route: &'static str,
    deadline: Instant,
    timeout_ms: u64,
    stage: &Stage,
    work: impl Future<Output = Result<T, PipelineError>>,
) -> Result<T, PipelineError> {
    match tokio::time::timeout_at((deadline + GRACE).into(), work).await {
        Ok(done) => done,
        Err(_) => {
            let stage = stage.step().name();
            tracing::warn!(
                route,
                stage,
                timeout_ms,
                "the request was still waiting {} ms after its deadline; ended by the backstop",
                GRACE.as_millis()
            );
            Err(PipelineError::Timeout { stage, timeout_ms })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wait nobody bounded (a future that never completes) ends at the
    /// deadline plus the grace, as the request's timeout naming the stage
    /// reached.
    #[tokio::test]
    async fn a_wait_that_never_ends_ends_at_the_backstop() {
        let stage = Stage::default();
        let started = Instant::now();
        let deadline = started + Duration::from_millis(200);
        let work = async {
            stage.at(Step::Storing);
            std::future::pending::<Result<(), PipelineError>>().await
        };
        let ended = tokio::time::timeout(
            Duration::from_secs(10),
            within("scrape", deadline, 1000, &stage, work),
        )
        .await
        .expect("the backstop ended the wait");
        match ended {
            Err(PipelineError::Timeout { stage, timeout_ms }) => {
                assert_eq!((stage, timeout_ms), ("storing the response", 1000));
            }
            other => panic!("expected the request's timeout, got {other:?}"),
        }
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(200) + GRACE && took < Duration::from_secs(3),
            "{took:?}"
        );
    }

    /// Work that ends in time, or within the grace, is answered as it is.
    #[tokio::test]
    async fn work_within_the_grace_is_answered() {
        let stage = Stage::default();
        let deadline = Instant::now();
        let late = async {
            tokio::time::sleep(GRACE / 4).await;
            Ok::<_, PipelineError>(7)
        };
        assert_eq!(within("parse", deadline, 1000, &stage, late).await.unwrap(), 7);
        let failed = within("parse", deadline, 1000, &stage, async {
            Err::<(), _>(PipelineError::NoCachedData)
        })
        .await;
        assert!(matches!(failed, Err(PipelineError::NoCachedData)));
    }

    #[test]
    fn every_step_reads_back() {
        let stage = Stage::default();
        assert_eq!(stage.step(), Step::Starting);
        for step in Step::ALL {
            stage.at(step);
            assert_eq!(stage.step(), step);
        }
    }
}
