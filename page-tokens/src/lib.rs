//! The byte format of a pre-tokenised page: what the host hands a format
//! plugin in ABI 0.4's `page.cleaned-tokens` instead of HTML to re-parse.
//! One definition for both ends — the host encodes with [`Writer`] (from its
//! parsed, cleaned tree), a plugin decodes with [`Tokens`].
//!
//! # Format (version 1)
//!
//! Two parts: `ops`, a byte list, and `text`, one UTF-8 string holding every
//! name, attribute value and text run back to back, in token order. `ops`
//! starts with the format version byte ([`FORMAT_VERSION`]), then one record
//! per token, each starting with an op byte:
//!
//! ```text
//! TEXT  = 0x01 len                          a text run (entity-decoded)
//! START = 0x02 tag [len] count (attr [len] len)*
//!                                           a start tag and its attributes
//! END   = 0x03 tag [len]                    an end tag
//! ```
//!
//! `len` and `count` are unsigned LEB128 varints. `tag` is a byte: `1..` an
//! index (plus one) into [`TAGS`], or 0 when the name is not there — then a
//! `len` follows and the name is the next `len` bytes of `text`. `attr` is
//! the same against [`ATTRS`]; every attribute's value is the next `len`
//! bytes of `text` (entity-decoded). Strings take no offsets: each takes the
//! next bytes of `text`, so a reader keeps one cursor.
//!
//! The tokens are those an HTML tokenizer reads from the host's serialised
//! cleaned page: comments, doctypes and processing instructions are left
//! out; void elements (`br`, `img`, ... the serialiser's list) have no end
//! tag; adjacent text is one run; `\r\n` and `\r` are `\n`. Unlike a re-parse
//! of the serialised HTML, the text of a `<pre>` keeps a leading newline
//! and `<plaintext>` ends at its end tag (the tree as the host holds it).

mod decode;
mod encode;
mod names;

pub use decode::{Attr, Attrs, Token, Tokens};
pub use encode::Writer;
pub use names::{ATTRS, TAGS, attr_id, tag_id};

/// The version byte `ops` starts with.
pub const FORMAT_VERSION: u8 = 1;

/// Op byte of a text run.
pub const OP_TEXT: u8 = 1;
/// Op byte of a start tag.
pub const OP_START: u8 = 2;
/// Op byte of an end tag.
pub const OP_END: u8 = 3;

#[cfg(test)]
mod tests;
