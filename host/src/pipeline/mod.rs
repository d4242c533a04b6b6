//! The scrape pipeline: fetch → decode → clean → plugins → response.
//!
//! - [`scrape`]: orchestrates one `/v2/scrape` request.
//! - [`prepare`]: the HTML work (metadata, cleaning, links, images) in one pass.
//! - [`render`]: calls the format plugins a request asks for.
//! - [`response`]: assembles the response's `data` object.
//! - [`errors`]: maps fetch and plugin failures to API errors.

pub mod errors;
pub mod prepare;
pub mod render;
pub mod response;
pub mod scrape;

pub use scrape::scrape;
