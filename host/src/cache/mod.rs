//! The page cache, lockdown and change tracking (docs/CACHE.md).
//!
//! - [`store`]: the [`CacheStore`] trait and [`CacheSettings`]; [`factory`]:
//!   [`open`], which picks the backend.
//! - [`embedded`] over [`disk`]: the default backend, a redb file in the data
//!   directory behind a moka hot tier, both capped in bytes.
//!   Large values live in [`segments`] files, `entries` holding a [`locator`];
//!   [`compact`] keeps the tables' accounting and compacts segments;
//!   [`disk_verify`] checks a closed file.
//! - [`writer`]: the embedded store's background writer (batches, compression).
//! - [`encoded`]: a value as the hot tier and the writer hold it (header and
//!   framing, then the body shared, not copied).
//! - [`redis_store`]: the shared backend (`DISTILL_CACHE_URL=redis://...`).
//! - [`codec`]: the entry bytes both backends store (header + zstd, or
//!   [`gzip_tail`]: a page stored with the gzip bytes its origin sent).
//! - [`key`]: page and result keys, and what may be stored ([`key::cacheable`]).
//! - [`entry`]: what a page entry and a result entry hold.
//! - [`escaped`]: a response document's long strings JSON-escaped once, for the
//!   result entry and the response; [`json_string`]: a string (and a whole value)
//!   written as JSON, as `serde_json` writes it, eight bytes at a time.
//! - [`policy`]: maxAge / minAge / lockdown decisions, `cacheState`, `cachedAt`.
//! - [`coalesce`]: concurrent identical fetches run once.
//! - [`page_cache`]: [`PageCache`], the two calls the pipeline makes around a
//!   scrape (`lookup`, `save`).
//! - [`change_tracking`] and [`diff`]: the changeTracking format.
//!
//! Nothing here logs a URL or content; keys are hashes.

pub mod change_tracking;
pub mod coalesce;
pub mod codec;
pub mod compact;
pub mod diff;
pub mod disk;
pub mod disk_verify;
pub mod embedded;
pub mod encoded;
pub mod entry;
pub mod escaped;
pub mod factory;
pub mod gzip_tail;
pub mod json_string;
pub mod key;
pub mod locator;
pub mod page_cache;
pub mod policy;
pub mod redis_store;
pub mod room;
pub mod segments;
pub mod store;
pub mod writer;

pub use factory::open;
pub use page_cache::{Lookup, PageCache, Saved};
pub use store::{CacheSettings, CacheStore, StoreError, Stored, Usage};

#[cfg(test)]
mod tests;
