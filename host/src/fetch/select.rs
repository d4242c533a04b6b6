//! Engine choice: the engines a server has, in order of preference, and the
//! rule that picks one for a request — the first that honours every feature
//! the request needs; otherwise the default engine with upstream's warning
//! naming what it cannot honour. Actions are never silently dropped: without
//! an engine for them the request is refused.

use super::engine::{Engine, Feature};
use crate::api::ScrapeOptions;
use std::sync::Arc;

/// The engines of a server, in order of preference (the first is the default).
#[derive(Clone)]
pub struct Engines {
    engines: Vec<Arc<dyn Engine>>,
}

/// The engine chosen for a request.
pub struct Selected {
    pub engine: Arc<dyn Engine>,
    /// Upstream's warning when the engine cannot honour some requested features.
    pub warning: Option<String>,
}

/// Why no engine can serve a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectError {
    /// The request has actions and no engine performs them.
    ActionsUnsupported,
}

impl Engines {
    /// `engines` in order of preference; must not be empty.
    pub fn new(engines: Vec<Arc<dyn Engine>>) -> Self {
        assert!(!engines.is_empty(), "a server needs at least one fetch engine");
        Engines { engines }
    }

    /// Every engine, in order of preference.
    pub fn all(&self) -> &[Arc<dyn Engine>] {
        &self.engines
    }

    /// Picks the engine for a request with `opts`.
    pub fn select(&self, opts: &ScrapeOptions) -> Result<Selected, SelectError> {
        self.select_for(&Feature::required_by(opts))
    }

    /// Picks the engine for a request needing `needed`.
    pub fn select_for(&self, needed: &[Feature]) -> Result<Selected, SelectError> {
        if let Some(engine) = self
            .engines
            .iter()
            .find(|e| needed.iter().all(|f| e.supports(*f)))
        {
            return Ok(Selected {
                engine: engine.clone(),
                warning: None,
            });
        }
        let performs_actions = |e: &&Arc<dyn Engine>| e.supports(Feature::Actions);
        let candidates: Vec<&Arc<dyn Engine>> = if needed.contains(&Feature::Actions) {
            self.engines.iter().filter(performs_actions).collect()
        } else {
            self.engines.iter().collect()
        };
        // The engine honouring the most of what was asked; the first on ties.
        let engine = candidates
            .into_iter()
            .rev()
            .max_by_key(|e| needed.iter().filter(|f| e.supports(**f)).count())
            .ok_or(SelectError::ActionsUnsupported)?;
        let missing: Vec<&str> = needed
            .iter()
            .filter(|f| !engine.supports(**f))
            .map(|f| f.name())
            .collect();
        Ok(Selected {
            engine: engine.clone(),
            warning: Some(format!(
                "The engine used does not support the following features: {} -- your scrape may be partial.",
                missing.join(", ")
            )),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fetch::engine::{FetchFuture, FetchRequest};

    struct Fake(&'static str, &'static [Feature]);

    impl Engine for Fake {
        fn name(&self) -> &'static str {
            self.0
        }
        fn supports(&self, feature: Feature) -> bool {
            self.1.contains(&feature)
        }
        fn fetch<'a>(&'a self, _req: FetchRequest<'a>) -> FetchFuture<'a> {
            unimplemented!("selection tests never fetch")
        }
    }

    fn engines(list: Vec<Fake>) -> Engines {
        Engines::new(list.into_iter().map(|e| Arc::new(e) as Arc<dyn Engine>).collect())
    }

    #[test]
    fn default_engine_when_nothing_special_is_needed() {
        let e = engines(vec![Fake("http", &[]), Fake("browser", &[Feature::Screenshot])]);
        let s = e.select_for(&[]).unwrap();
        assert_eq!(s.engine.name(), "http");
        assert!(s.warning.is_none());
    }

    #[test]
    fn first_engine_honouring_everything_wins() {
        let e = engines(vec![
            Fake("http", &[]),
            Fake(
                "browser",
                &[Feature::Screenshot, Feature::WaitFor, Feature::Actions],
            ),
        ]);
        let s = e.select_for(&[Feature::Screenshot, Feature::WaitFor]).unwrap();
        assert_eq!(s.engine.name(), "browser");
        assert!(s.warning.is_none());
    }

    #[test]
    fn warning_names_what_the_engine_cannot_honour_in_order() {
        let e = engines(vec![Fake("http", &[])]);
        let s = e
            .select_for(&[Feature::Screenshot, Feature::Mobile, Feature::StealthProxy])
            .unwrap();
        assert_eq!(s.engine.name(), "http");
        assert_eq!(
            s.warning.as_deref(),
            Some(
                "The engine used does not support the following features: screenshot, mobile, \
                 stealthProxy -- your scrape may be partial."
            )
        );
    }

    #[test]
    fn partial_support_prefers_the_engine_honouring_most() {
        let e = engines(vec![Fake("http", &[]), Fake("browser", &[Feature::Screenshot])]);
        let s = e
            .select_for(&[Feature::Screenshot, Feature::StealthProxy])
            .unwrap();
        assert_eq!(s.engine.name(), "browser");
        assert!(s.warning.unwrap().contains(": stealthProxy --"));
    }

    #[test]
    fn actions_without_an_engine_for_them_are_refused() {
        let e = engines(vec![Fake("http", &[Feature::Screenshot])]);
        assert_eq!(
            e.select_for(&[Feature::Actions]).err(),
            Some(SelectError::ActionsUnsupported)
        );
    }
}
