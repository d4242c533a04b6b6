//! The HTTP API's data: request validation (strict, with zod-like issue lists
//! as upstream Firecrawl returns them), the typed scrape request, and the
//! error bodies every endpoint shares.
//!
//! - [`error`]: [`ApiError`] and its JSON body `{success:false, code, error, details}`.
//! - [`validate`]: a small schema walker that collects issues with paths.
//! - [`scrape_request`]: the `/v2/scrape` body, field by field, per the spec.
//! - [`formats`]: the `formats` array (strings or `{type, ...}` objects).
//! - [`crawl_request`]: crawl, batch scrape, map and params-preview bodies.
//! - [`extract_request`]: the `/v2/extract` body (URLs, prompt/schema, scrape options).
//! - [`parse_request`]: the `/v2/parse` upload: options, kind detection, errors.
//! - [`openapi`]: the OpenAPI document, its request schemas recorded from the validators.

pub mod actions;
pub mod crawl_request;
pub mod error;
pub mod extract_request;
pub mod formats;
pub mod openapi;
pub mod parse_request;
pub mod scrape_request;
pub mod validate;

pub use error::ApiError;
pub use formats::FormatRequest;
pub use scrape_request::{ScrapeOptions, ScrapeRequest};
