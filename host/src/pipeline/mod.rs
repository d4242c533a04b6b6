//! The pipeline: fetch → decode → clean → plugins → response `data`. It
//! depends on [`crate::services::Services`] only (no HTTP server) and fails
//! with its own [`PipelineError`].
//!
//! - [`scrape`]: one scrape (web page or document URL): engine choice, cache, fetch.
//! - [`backstop`]: ends a request past its deadline whatever it waits for.
//! - [`cached`]: the page cache's lookup, the coalesced fetch, storing results.
//! - [`fallback`]: the live fetch, and the browser's for a script-rendered HTTP result.
//! - [`track`]: the `changeTracking` format.
//! - [`media_formats`]: formats that store files (audio, video): ZDR refusal, never cached.
//! - [`parse`]: one upload.
//! - [`document`]: converters (typed options, OCR hand-off, `parsers: []`).
//! - [`produce`]: content → `data`, shared by all of the above.
//! - [`prepare`]: the HTML work (metadata, cleaning, links, images) in one pass.
//! - [`clean_content`]: `onlyCleanContent` (the `cleanContent` plugin's markdown replaces `markdown`).
//! - [`render`]: format plugins in dependency order (`consumes`).
//! - [`response`]: assembles the response's `data` object.
//! - [`redact`]: `redactPII` on every text output.
//! - [`error`]: [`PipelineError`] and where a document came from.
//! - [`cost`]: the credits a result costs (the billing rules).

pub mod backstop;
pub mod cached;
pub mod clean_content;
pub mod cost;
pub mod document;
pub mod error;
pub mod fallback;
pub mod media_formats;
pub mod parse;
pub mod prepare;
pub mod produce;
pub mod redact;
pub mod render;
pub mod response;
pub mod scrape;
pub mod track;
pub mod track_json;

pub use error::{Origin, PipelineError};
pub use parse::{parse, parse_until};
pub use scrape::{Data, scrape, scrape_data, scrape_data_until};
