//! The scrape pipeline: fetch → decode → clean → plugins → response.
//!
//! - [`scrape`]: orchestrates one `/v2/scrape` request (web page or document URL).
//! - [`parse`]: orchestrates one `/v2/parse` upload.
//! - [`document`]: converters, OCR, `parsers: []`.
//! - [`produce`]: content → `data`, shared by all of the above.
//! - [`prepare`]: the HTML work (metadata, cleaning, links, images) in one pass.
//! - [`render`]: calls the format plugins a request asks for.
//! - [`response`]: assembles the response's `data` object.
//! - [`errors`]: maps fetch and plugin failures to API errors.

pub mod document;
pub mod errors;
pub mod parse;
pub mod prepare;
pub mod produce;
pub mod render;
pub mod response;
pub mod scrape;

pub use parse::parse;
pub use scrape::scrape;
