//! Helpers for converter plugins that read office documents (feature `documents`):
//! ZIP access with bomb limits, an XML tree with depth/node limits, HTML output
//! helpers, and test helpers. The OOXML, ODF and EPUB converters share them.

pub mod archive;
pub mod html;
pub mod testing;
pub mod xml;
