//! The old token path, kept for tests: html5ever's [`Serializer`] driven by
//! dom_query's [`SerializableNodeRef::serialize`], writing tokens instead of
//! markup. The walk in the parent module must write the same bytes.

use distill_page_tokens::Writer;
use dom_query::{Document, SerializableNodeRef};
use html5ever::serialize::{AttrRef, Serialize, Serializer, TraversalScope};
use html5ever::{QualName, local_name, ns};
use std::borrow::Cow;
use std::io;

// The void elements are the parent's list (html5ever's serialiser's); the
// comparison tests the walk, the token tests check the list on `<br>`, `<img>`.
use super::is_void;

/// The token stream (`ops`, `text`) of `doc`, through the serialiser.
pub(super) fn encode(doc: &Document) -> (Vec<u8>, String) {
    let mut out = TokenSerializer {
        writer: Writer::with_capacity(4096),
        open: Vec::new(),
    };
    SerializableNodeRef::from(doc.root())
        .serialize(&mut out, TraversalScope::IncludeNode)
        .expect("the token writer does not fail");
    out.writer.finish()
}

/// An html5ever [`Serializer`] that writes tokens instead of markup.
struct TokenSerializer {
    writer: Writer,
    /// Per open element: its tag's id as its start tag wrote it, or [`IGNORED`]
    /// when its content is dropped (a void element's, as the serialiser drops it).
    open: Vec<u16>,
}

/// An open element whose content and end tag are not written.
const IGNORED: u16 = u16::MAX;

impl TokenSerializer {
    fn ignored(&self) -> bool {
        self.open.last() == Some(&IGNORED)
    }
}

impl Serializer for TokenSerializer {
    fn start_elem<'a, AttrIter>(&mut self, name: QualName, attrs: AttrIter) -> io::Result<()>
    where
        AttrIter: Iterator<Item = AttrRef<'a>>,
    {
        if self.ignored() {
            self.open.push(IGNORED);
            return Ok(());
        }
        // Namespaced attributes (SVG's xlink:href, ...) are written with the
        // serialiser's prefix; the rest by their local name.
        let id = self.writer.start(
            &name.local,
            attrs.map(|(attr, value)| {
                let prefix = match attr.ns {
                    ns!() => "",
                    ns!(xml) => "xml:",
                    ns!(xmlns) if attr.local != local_name!("xmlns") => "xmlns:",
                    ns!(xmlns) => "",
                    ns!(xlink) => "xlink:",
                    _ => "unknown_namespace:",
                };
                let name = if prefix.is_empty() {
                    Cow::Borrowed(&*attr.local)
                } else {
                    Cow::Owned(format!("{prefix}{}", &*attr.local))
                };
                (name, value)
            }),
        );
        self.open
            .push(if is_void(&name) { IGNORED } else { u16::from(id) });
        Ok(())
    }

    fn end_elem(&mut self, name: QualName) -> io::Result<()> {
        match self.open.pop() {
            Some(IGNORED) => {}
            Some(id) => self.writer.end_id(id as u8, &name.local),
            None => self.writer.end(&name.local),
        }
        Ok(())
    }

    fn write_text(&mut self, text: &str) -> io::Result<()> {
        if !self.ignored() {
            self.writer.text(text);
        }
        Ok(())
    }

    fn write_comment(&mut self, _text: &str) -> io::Result<()> {
        if !self.ignored() {
            self.writer.break_text();
        }
        Ok(())
    }

    fn write_doctype(&mut self, _name: &str) -> io::Result<()> {
        self.writer.break_text();
        Ok(())
    }

    fn write_processing_instruction(&mut self, _target: &str, _data: &str) -> io::Result<()> {
        if !self.ignored() {
            self.writer.break_text();
        }
        Ok(())
    }
}
