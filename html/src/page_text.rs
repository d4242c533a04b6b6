//! A page's decoded HTML held in the one buffer the parse cuts its text from.
//!
//! [`PageText`] is made once from the decoded bytes ([`PageText::decode`]), its line ends
//! normalised on the way as the tokenizer wants them (CR LF and lone CR become LF; where
//! they were is noted, so the page as received can be given back). It moves between
//! threads and across `.await`s as it is (it is `Send`); [`PageText::open`] turns it into
//! a [`PageHtml`] (not `Send`) that [`crate::ParsedPage::parse_html`] parses without
//! copying the page again. The page as received is made as a `String` only for whoever
//! asks for it ([`PageHtml::raw`]).

use crate::line_ends::LineEnds;
use html5ever::tendril::{SendTendril, StrTendril, fmt::UTF8};
use std::fmt;

/// A page's HTML, `Send`, not yet readable: [`PageText::open`] it on the thread that parses.
pub struct PageText {
    text: SendTendril<UTF8>,
    line_ends: LineEnds,
    /// The length of the page as received.
    raw_len: usize,
}

impl PageText {
    /// The page as `text` (copied once, into the buffer the parse will use).
    pub fn new(text: &str) -> PageText {
        let (buf, line_ends) = normalised(text);
        PageText {
            // Free: a tendril just made is owned (or inline), not shared.
            text: buf.into_send(),
            line_ends,
            raw_len: text.len(),
        }
    }

    /// Decodes an HTML body as [`crate::decode_html`] does, into the parse's buffer: for a
    /// body that is already UTF-8, the only copy of its bytes.
    pub fn decode(bytes: &[u8], content_type: Option<&str>) -> PageText {
        let (text, _, _) = crate::charset::encoding_of(bytes, content_type).decode(bytes);
        PageText::new(&text)
    }

    /// The length in bytes of the page as received.
    pub fn len(&self) -> usize {
        self.raw_len
    }

    pub fn is_empty(&self) -> bool {
        self.raw_len == 0
    }

    /// The page, readable (on this thread).
    pub fn open(self) -> PageHtml {
        PageHtml {
            text: StrTendril::from(self.text),
            line_ends: self.line_ends,
            raw_len: self.raw_len,
        }
    }
}

impl Default for PageText {
    fn default() -> PageText {
        PageText::new("")
    }
}

impl From<String> for PageText {
    /// Copies `text` (a converter's HTML) into the parse's buffer.
    fn from(text: String) -> PageText {
        PageText::new(&text)
    }
}

impl fmt::Debug for PageText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PageText({} bytes)", self.raw_len)
    }
}

/// A page's HTML, readable: the buffer a parse of it cuts its text from.
pub struct PageHtml {
    text: StrTendril,
    line_ends: LineEnds,
    raw_len: usize,
}

impl PageHtml {
    /// The buffer itself, line ends normalised, for the tokenizer.
    pub(crate) fn tendril(&self) -> StrTendril {
        self.text.clone()
    }

    /// The page as received (its own line ends).
    pub fn raw(&self) -> String {
        let mut out = String::with_capacity(self.raw_len);
        let mut from = 0;
        for (at, crlf) in self.line_ends.iter() {
            let at = at as usize;
            out.push_str(&self.text[from..at]);
            out.push_str(if crlf { "\r\n" } else { "\r" });
            from = at + 1;
        }
        out.push_str(&self.text[from..]);
        out
    }
}

impl fmt::Debug for PageHtml {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PageHtml({} bytes)", self.raw_len)
    }
}

/// `text` in a new buffer with CR LF and lone CR as LF (the input stream's preprocessing),
/// and where each was.
fn normalised(text: &str) -> (StrTendril, LineEnds) {
    let mut ends = LineEnds::default();
    let buf = crate::newlines::normalised(text, |at, crlf| ends.push(at, crlf));
    (buf, ends)
}
