//! Crawl, batch scrape and map: the work above the pipeline and below the
//! routes. Jobs live in the queue (`jobs/`); this module decides what to
//! fetch and runs the pipeline on each page (docs/CRAWL.md).
//!
//! - [`manager`]: [`Crawls`] — job runners, resume at start-up, cancel.
//! - [`plan`]: a job's options rebuilt from its stored request.
//! - [`url_norm`], [`scope`]: de-duplication keys and what a crawl may queue.
//! - [`robots`], [`sitemap`], [`discover`], [`fetcher`]: robots.txt and sitemaps.
//! - [`politeness`]: per-host slots; [`shared_gate`]: the same, and a job's
//!   `delay`, across servers on one Redis queue; [`settings`]: operator settings.
//! - [`webhook`]: signed deliveries with retries; [`map`]: `/v2/map`.
//! - [`preview`]: options from a natural-language prompt (the model).
//! - [`extract_step`]: an extract job's model step, queued once its pages are done.
//! - [`billing`]: each page's credits held before it is fetched, billed to
//!   the key that started the job.

pub mod billing;
pub mod discover;
pub mod extract_step;
pub mod fetcher;
pub mod manager;
pub mod map;
pub mod plan;
pub mod politeness;
pub mod preview;
pub mod robots;
pub mod scope;
pub mod settings;
pub mod shared_gate;
pub mod sitemap;
pub mod url_norm;
pub mod webhook;

pub use manager::{Crawls, DescribeError};
