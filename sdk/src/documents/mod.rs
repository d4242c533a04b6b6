//! Helpers for converter plugins that read documents. Each part comes with a
//! feature, so a converter pulls in only the dependencies it uses:
//!
//! - `documents`: ZIP access with bomb limits ([`archive`]), an XML tree with
//!   depth/node limits ([`xml`]), OOXML relationships and core properties
//!   ([`ooxml`]) — the OOXML, ODF and EPUB converters;
//! - `bytes`: bounds-checked little-endian readers ([`bytes`](mod@bytes)) and
//!   code-page text ([`codepage`]), no dependencies;
//! - `cfb` (with `bytes`): OLE compound files, their streams and summary title
//!   ([`cfb`](mod@cfb)) — the binary Office 97-2003 converters.
//!
//! Every feature brings [`html`] (escaping, safe links, the page wrapper,
//! nested lists) and [`testing`] (fixtures and hand-built hostile inputs).

#[cfg(feature = "documents")]
pub mod archive;
#[cfg(feature = "bytes")]
pub mod bytes;
#[cfg(feature = "cfb")]
pub mod cfb;
#[cfg(feature = "bytes")]
pub mod codepage;
pub mod html;
#[cfg(feature = "documents")]
pub mod ooxml;
pub mod testing;
#[cfg(feature = "documents")]
pub mod xml;
