//! A small, fast HTML parser for the converter: a tokenizer, a tree builder
//! with the standard's implied end tags (enough for real-world and
//! html5ever-serialised HTML), and an arena document the renderer walks.
//!
//! It is not a full HTML5 parser: no foster parenting, no adoption agency
//! (a misnested formatting end tag closes what it crosses), `<svg>` is dropped
//! whole, and `<head>`/`<html>`/`<body>` tags are ignored (their content stays).
//! The tree builder is also fed a host's token stream ([`parse_stream`]).

mod entities;
mod entity_table;
mod stream;
pub mod tags;
mod tokenizer;
mod tree;

pub use stream::parse_stream;
pub use tags::{AttrName, Tag};
pub use tokenizer::Attr;
pub use tree::parse;

use std::borrow::Cow;

/// Index of a node in [`Document::nodes`]; 0 is the root, and as a link it means "none".
pub type NodeId = u32;

/// The root's id.
pub const ROOT: NodeId = 0;

/// Node flag: some descendant is a block-level element.
pub const HAS_BLOCK: u8 = 1;
/// Node flag: some descendant is a `<pre>` (or another preformatted element).
pub const HAS_PRE: u8 = 2;
/// Node flag: a text of ASCII whitespace alone (the indentation between
/// tags, about half of a page's texts).
pub const WS_ONLY: u8 = 4;

/// What a node is.
pub enum Kind<'a> {
    Root,
    Text(Cow<'a, str>),
    Element(Element<'a>),
}

/// An element: its tag, its name as written, and its stored attributes
/// (`attrs` indexes [`Document::attrs`]).
pub struct Element<'a> {
    pub tag: Tag,
    pub name: &'a str,
    pub attrs: (u32, u32),
}

/// One node of the arena.
pub struct Node<'a> {
    pub kind: Kind<'a>,
    pub first_child: NodeId,
    pub last_child: NodeId,
    pub next: NodeId,
    pub flags: u8,
}

/// A parsed document.
pub struct Document<'a> {
    pub nodes: Vec<Node<'a>>,
    pub attrs: Vec<Attr<'a>>,
}

impl<'a> Document<'a> {
    /// The node with this id.
    pub fn node(&self, id: NodeId) -> &Node<'a> {
        &self.nodes[id as usize]
    }

    /// The element at `id`, if it is one.
    pub fn element(&self, id: NodeId) -> Option<&Element<'a>> {
        match &self.node(id).kind {
            Kind::Element(e) => Some(e),
            _ => None,
        }
    }

    /// The tag of the element at `id`, if it is one.
    pub fn tag(&self, id: NodeId) -> Option<Tag> {
        self.element(id).map(|e| e.tag)
    }

    /// The children of `id`, in order.
    pub fn children(&self, id: NodeId) -> Children<'_, 'a> {
        Children {
            doc: self,
            next: self.node(id).first_child,
        }
    }

    /// An attribute of an element.
    pub fn attr(&self, e: &Element<'a>, name: AttrName) -> Option<&str> {
        self.attrs[e.attrs.0 as usize..e.attrs.1 as usize]
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.value.as_ref())
    }

    /// Whether some descendant of `id` is a block-level element.
    pub fn has_block(&self, id: NodeId) -> bool {
        self.node(id).flags & HAS_BLOCK != 0
    }

    /// Whether `id` is a text of ASCII whitespace alone.
    pub fn is_blank(&self, id: NodeId) -> bool {
        self.node(id).flags & WS_ONLY != 0
    }

    /// Whether some descendant of `id` is preformatted (`<pre>`, `<xmp>`, ...).
    pub fn has_pre(&self, id: NodeId) -> bool {
        self.node(id).flags & HAS_PRE != 0
    }
}

/// Iterator over a node's children.
pub struct Children<'d, 'a> {
    doc: &'d Document<'a>,
    next: NodeId,
}

impl Iterator for Children<'_, '_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        if self.next == ROOT {
            return None;
        }
        let id = self.next;
        self.next = self.doc.node(id).next;
        Some(id)
    }
}
