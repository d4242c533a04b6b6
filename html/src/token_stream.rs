//! The cleaned page as a token stream (`distill_page_tokens`, ABI 0.4's
//! `page.cleaned-tokens`): the tokens a tokenizer would read from the
//! serialised page, written straight from the tree. It walks the tree in the
//! serialiser's order (a node, then a template's contents, then its children)
//! with html5ever's serialiser rules (void elements' content and end tag
//! dropped, attribute prefixes, comments, doctypes and processing instructions
//! as breaks between text runs), so a plugin sees what it would have parsed,
//! without the host writing and the plugin re-reading HTML.
//!
//! The walk follows the tree's first-child / next-sibling links, one node
//! borrowed at a time, with a stack of the open elements only; the names
//! travel as ids, so no [`QualName`] is copied.

use distill_page_tokens::{TAGS, Writer};
use dom_query::{Document, NodeData, NodeId, Tree};
use html5ever::{QualName, local_name, ns};
use std::borrow::Cow;

#[cfg(test)]
mod serializer_path;
#[cfg(test)]
mod tests;

/// The token stream (`ops`, `text`) of `doc`.
pub(crate) fn encode(doc: &Document) -> (Vec<u8>, String) {
    let mut walk = Walk {
        // Room for an article's text without growing (the buffers are the
        // response's for a moment only).
        writer: Writer::with_capacity(16 * 1024),
        open: Vec::with_capacity(32),
    };
    walk.run(&doc.tree, doc.root().id);
    walk.writer.finish()
}

/// The walk's state: the writer, and the nodes whose end is still to come.
struct Walk {
    writer: Writer,
    open: Vec<Open>,
}

/// A node whose children are being written.
struct Open {
    /// The node, and its tag's id as its start tag wrote it (0 for a name
    /// not listed: read again from the node at the end).
    node: NodeId,
    tag: u8,
    /// Whether an end tag is written (an element's; not a document's or fragment's).
    end: bool,
    /// Where the walk goes after it (its next sibling, or for a template's
    /// contents, the template's first child).
    then: Option<NodeId>,
}

/// What the walk does after a node's own token.
enum Next {
    /// Go on with this node (a sibling, or nothing: the parent's end).
    Go(Option<NodeId>),
    /// Enter the node's children, `first` first (the frame is pushed).
    Enter(Open, Option<NodeId>),
    /// A template: its contents' root first, then its children.
    Template(Open, NodeId, Option<NodeId>),
}

impl Walk {
    fn run(&mut self, tree: &Tree, root: NodeId) {
        // The root alone (its siblings, if any, are not the document's).
        let mut cur = self.visit(tree, root, false);
        loop {
            while let Some(id) = cur {
                cur = self.visit(tree, id, true);
            }
            let Some(open) = self.open.pop() else { break };
            if open.end {
                if open.tag != 0 {
                    self.writer.end_id(open.tag, TAGS[open.tag as usize - 1]);
                } else {
                    let writer = &mut self.writer;
                    tree.query_node(&open.node, |n| {
                        if let NodeData::Element(e) = &n.data {
                            writer.end_id(0, &e.name.local);
                        }
                    });
                }
            }
            cur = open.then;
        }
    }

    /// Writes node `id`'s token and returns the next node to visit. With
    /// `siblings`, the walk goes on to the node's next sibling after it.
    fn visit(&mut self, tree: &Tree, id: NodeId, siblings: bool) -> Option<NodeId> {
        let writer = &mut self.writer;
        let next = tree.query_node(&id, |n| {
            let after = if siblings { n.next_sibling } else { None };
            match &n.data {
                NodeData::Element(e) => {
                    let tag = start(writer, &e.name, &e.attrs);
                    if is_void(&e.name) {
                        // Written without content or end tag.
                        return Next::Go(after);
                    }
                    let open = Open {
                        node: id,
                        tag,
                        end: true,
                        then: after,
                    };
                    match e.template_contents {
                        Some(contents) => Next::Template(open, contents, n.first_child),
                        None => Next::Enter(open, n.first_child),
                    }
                }
                NodeData::Text { contents } => {
                    writer.text(contents);
                    Next::Go(after)
                }
                NodeData::Comment { .. }
                | NodeData::Doctype { .. }
                | NodeData::ProcessingInstruction { .. } => {
                    writer.break_text();
                    Next::Go(after)
                }
                NodeData::Document | NodeData::Fragment => Next::Enter(
                    Open {
                        node: id,
                        tag: 0,
                        end: false,
                        then: after,
                    },
                    n.first_child,
                ),
            }
        });
        match next {
            // A node not in the tree: skipped, as the serialiser skips it.
            None => None,
            Some(Next::Go(after)) => after,
            Some(Next::Enter(open, first)) => {
                self.open.push(open);
                first
            }
            Some(Next::Template(open, contents, first)) => {
                self.open.push(open);
                // After the contents (alone, not their siblings): the children.
                self.open.push(Open {
                    node: id,
                    tag: 0,
                    end: false,
                    then: first,
                });
                self.visit(tree, contents, false)
            }
        }
    }
}

/// Writes `name`'s start tag and returns its tag id. Namespaced attributes
/// (SVG's `xlink:href`, ...) are written with the serialiser's prefix; the
/// rest by their local name.
fn start(writer: &mut Writer, name: &QualName, attrs: &[dom_query::Attr]) -> u8 {
    writer.start(
        &name.local,
        attrs.iter().map(|attr| {
            let prefix = match attr.name.ns {
                ns!() => "",
                ns!(xml) => "xml:",
                ns!(xmlns) if attr.name.local != local_name!("xmlns") => "xmlns:",
                ns!(xmlns) => "",
                ns!(xlink) => "xlink:",
                _ => "unknown_namespace:",
            };
            let name = if prefix.is_empty() {
                Cow::Borrowed(&*attr.name.local)
            } else {
                Cow::Owned(format!("{prefix}{}", &*attr.name.local))
            };
            (name, &*attr.value)
        }),
    )
}

/// Elements the serialiser writes without content or end tag.
fn is_void(name: &QualName) -> bool {
    name.ns == ns!(html)
        && matches!(
            name.local,
            local_name!("area")
                | local_name!("base")
                | local_name!("basefont")
                | local_name!("bgsound")
                | local_name!("br")
                | local_name!("col")
                | local_name!("embed")
                | local_name!("frame")
                | local_name!("hr")
                | local_name!("img")
                | local_name!("input")
                | local_name!("keygen")
                | local_name!("link")
                | local_name!("meta")
                | local_name!("param")
                | local_name!("source")
                | local_name!("track")
                | local_name!("wbr")
        )
}
