//! The tree builder's sink: `dom_query`'s [`Document`] behind handles that carry their
//! element's name. html5ever asks an element's name many times per tag (scope checks walk
//! the stack of open elements, one name per entry); `Document` answers each by borrowing
//! its node list (a `RefCell` borrow and an index check per name), so here the handle
//! holds the name and every other call goes to the `Document` unchanged: the tree is the
//! one `Document` as the sink builds. It also notes the `<noscript>` elements it makes
//! (see `Seen::noscripts`).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use dom_query::{Document, Element, NodeData, NodeId};

use super::node_list::{self, node_list};
use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::{Attribute, ExpandedName, LocalName, Namespace, QualName, local_name, ns};

/// A node of the tree being built, with its element's name (other nodes: the empty name;
/// the tree builder asks only elements' names). The namespace is a reference, so dropping
/// a handle is at most one atom's drop (a no-op for a static or inline atom).
#[derive(Clone)]
pub(crate) struct Handle {
    pub(crate) id: NodeId,
    ns: &'static Namespace,
    local: LocalName,
}

/// The namespaces of the elements the tree builder makes, and the empty one.
static NAMESPACES: [Namespace; 4] = [ns!(html), ns!(svg), ns!(mathml), ns!()];

impl Handle {
    fn unnamed(id: NodeId) -> Handle {
        Handle {
            id,
            ns: &NAMESPACES[3],
            local: local_name!(""),
        }
    }
}

/// `ns` as a `'static` reference: an entry of [`NAMESPACES`], else a leaked copy. Never
/// leaks with html5ever's tree builder: it makes elements in the HTML namespace, in SVG or
/// MathML (entering foreign content), or in the adjusted current node's namespace.
fn static_ns(ns: &Namespace) -> &'static Namespace {
    match NAMESPACES.iter().find(|n| *n == ns) {
        Some(n) => n,
        None => Box::leak(Box::new(ns.clone())),
    }
}

/// `Document` as a tree sink with [`Handle`]s, noting the `<noscript>` elements it makes.
pub(crate) struct Sink {
    pub(crate) doc: Document,
    /// Every element named `noscript` made (in any namespace), in order.
    pub(crate) noscripts: RefCell<Vec<NodeId>>,
    /// Elements, comments and processing instructions made so far (text nodes are not
    /// counted: adjacent text merges, so there is at most one more of them than of these).
    made: Cell<usize>,
    /// How many of those may be made before the page is [`Sink::over`] its budget.
    most: usize,
}

impl Sink {
    pub(crate) fn new() -> Sink {
        Sink {
            doc: Document::default(),
            noscripts: RefCell::new(Vec::new()),
            made: Cell::new(0),
            most: usize::MAX,
        }
    }

    /// The same sink, over its budget once it has made more than `most` nodes.
    pub(crate) fn at_most(self, most: usize) -> Sink {
        Sink { most, ..self }
    }

    /// Whether more nodes were made than the budget allows: the tokenizer then stops
    /// (a page whose markup multiplies into millions of nodes, e.g. formatting elements
    /// reopened in every paragraph, is refused instead of held).
    #[inline]
    pub(crate) fn over(&self) -> bool {
        self.made.get() > self.most
    }

    #[inline]
    fn count(&self) {
        self.made.set(self.made.get() + 1);
    }

    /// A sink whose `Document` has room for the nodes a page of `len` bytes most likely
    /// makes (see [`nodes_expected`]), so that its node list is not grown (and copied) by
    /// doubling as the tree builder appends.
    pub(crate) fn for_page(len: usize) -> Sink {
        let sink = Sink::new();
        node_list(&sink.doc.tree)
            .borrow_mut()
            .reserve(nodes_expected(len));
        sink
    }
}

/// The nodes a page of `len` bytes is expected to make, rounded up: one per 24 bytes, and
/// 128 more (small pages vary most). Over the two corpora (2,072 pages parsed) a page
/// makes a median 0.019 nodes per byte, 0.030 at the 90th percentile and 0.045 at the
/// 99th; 21 pages make more than this (they grow the list once more, as they would have
/// anyway). A 30 KB article's room (~1,400 nodes of 80 bytes) stays below the server's
/// 128 KiB mapping threshold (`host/src/large_alloc.rs`). At most [`MOST_NODES_RESERVED`]:
/// a page of megabytes (mostly script, often) grows its list past that as before.
pub(crate) fn nodes_expected(len: usize) -> usize {
    (len / 24 + 128).min(MOST_NODES_RESERVED)
}

/// Most nodes room is made for up front (5 MiB of nodes: a page of about 1.5 MB).
const MOST_NODES_RESERVED: usize = 1 << 16;

impl Sink {
    /// Text as the last child of `parent`: merged into that child when it is text (what
    /// `Document::append` does), under one borrow of the node list. Inlined into the tree
    /// builder's text insertion, its one caller on the hot path.
    #[inline]
    pub(crate) fn append_text(&self, parent: NodeId, text: StrTendril) {
        node_list::append_text(&self.doc.tree, parent, text);
    }

    /// A new element as the last child of `parent`: what `create_element` (with no flag
    /// set: not a template, not MathML `annotation-xml`) then `append` make, the same node
    /// with the same id, built and linked under one borrow of the node list. Inlined into
    /// the tree builder's element insertion.
    #[inline]
    pub(crate) fn append_element(&self, parent: NodeId, name: QualName, attrs: Vec<Attribute>) -> NodeId {
        self.count();
        let noscript = name.local == local_name!("noscript");
        // What `Element::new(name, attrs, None, false)` makes (its attributes unwrapped:
        // dom_query without its `atomic` feature holds html5ever's own).
        let element = Element {
            name,
            attrs,
            template_contents: None,
            mathml_annotation_xml_integration_point: false,
        };
        let id = node_list::append_child(&self.doc.tree, parent, NodeData::Element(element));
        if noscript {
            self.noscripts.borrow_mut().push(id);
        }
        id
    }
}

/// A node or text, as the `Document` takes it.
fn node_or_text(child: NodeOrText<Handle>) -> NodeOrText<NodeId> {
    match child {
        NodeOrText::AppendNode(h) => NodeOrText::AppendNode(h.id),
        NodeOrText::AppendText(t) => NodeOrText::AppendText(t),
    }
}

impl TreeSink for Sink {
    type Handle = Handle;
    type Output = Document;
    type ElemName<'a> = ExpandedName<'a>;

    fn finish(self) -> Document {
        self.doc
    }

    /// Parse errors are not kept: nothing reads them, and `Document` would push each
    /// onto a growing vector.
    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Handle {
        Handle::unnamed(self.doc.get_document())
    }

    fn elem_name<'a>(&'a self, target: &'a Handle) -> ExpandedName<'a> {
        ExpandedName {
            ns: target.ns,
            local: &target.local,
        }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Handle {
        self.count();
        let (ns, local) = (static_ns(&name.ns), name.local.clone());
        let id = self.doc.create_element(name, attrs, flags);
        if local == local_name!("noscript") {
            self.noscripts.borrow_mut().push(id);
        }
        Handle { id, ns, local }
    }

    fn create_comment(&self, text: StrTendril) -> Handle {
        self.count();
        Handle::unnamed(self.doc.create_comment(text))
    }

    fn create_pi(&self, target: StrTendril, data: StrTendril) -> Handle {
        self.count();
        Handle::unnamed(self.doc.create_pi(target, data))
    }

    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        match child {
            NodeOrText::AppendNode(h) => self.doc.tree.append_child_of(&parent.id, &h.id),
            NodeOrText::AppendText(text) => self.append_text(parent.id, text),
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        self.doc
            .append_based_on_parent_node(&element.id, &prev_element.id, node_or_text(child));
    }

    fn append_doctype_to_document(&self, name: StrTendril, public_id: StrTendril, system_id: StrTendril) {
        self.doc.append_doctype_to_document(name, public_id, system_id);
    }

    fn mark_script_already_started(&self, node: &Handle) {
        self.doc.mark_script_already_started(&node.id);
    }

    fn pop(&self, node: &Handle) {
        self.doc.pop(&node.id);
    }

    fn get_template_contents(&self, target: &Handle) -> Handle {
        Handle::unnamed(self.doc.get_template_contents(&target.id))
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x.id == y.id
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.doc.set_quirks_mode(mode);
    }

    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        self.doc
            .append_before_sibling(&sibling.id, node_or_text(new_node));
    }

    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        self.doc.add_attrs_if_missing(&target.id, attrs);
    }

    fn associate_with_form(&self, target: &Handle, form: &Handle, nodes: (&Handle, Option<&Handle>)) {
        self.doc
            .associate_with_form(&target.id, &form.id, (&nodes.0.id, nodes.1.map(|h| &h.id)));
    }

    fn remove_from_parent(&self, target: &Handle) {
        self.doc.remove_from_parent(&target.id);
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        self.doc.reparent_children(&node.id, &new_parent.id);
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &Handle) -> bool {
        self.doc.is_mathml_annotation_xml_integration_point(&handle.id)
    }

    fn set_current_line(&self, line_number: u64) {
        self.doc.set_current_line(line_number);
    }

    fn allow_declarative_shadow_roots(&self, intended_parent: &Handle) -> bool {
        self.doc.allow_declarative_shadow_roots(&intended_parent.id)
    }

    fn attach_declarative_shadow(&self, location: &Handle, template: &Handle, attrs: &[Attribute]) -> bool {
        self.doc
            .attach_declarative_shadow(&location.id, &template.id, attrs)
    }

    fn maybe_clone_an_option_into_selectedcontent(&self, option: &Handle) {
        self.doc.maybe_clone_an_option_into_selectedcontent(&option.id);
    }
}

#[cfg(test)]
mod tests {
    use super::{Sink, nodes_expected};
    use crate::tokenizer::node_list::node_list;

    /// The list reached through `node_list` is the tree's own: its length follows the
    /// tree's as nodes are added, and the room reserved is there.
    #[test]
    fn node_list_is_the_trees() {
        let sink = Sink::for_page(2400);
        let tree = &sink.doc.tree;
        assert_eq!(node_list(tree).borrow().len(), 1);
        assert!(node_list(tree).borrow().capacity() >= nodes_expected(2400));
        assert_eq!(nodes_expected(2400), 228);
        assert_eq!(nodes_expected(100 << 20), 1 << 16);
        let root = tree.root_id();
        for _ in 0..3 {
            tree.append_child_data_of(&root, dom_query::NodeData::Comment { contents: "x".into() });
        }
        assert_eq!(tree.len(), 4);
        assert_eq!(node_list(tree).borrow().len(), tree.len());
        assert_eq!(sink.doc.html().to_string(), "<!--x--><!--x--><!--x-->");
    }
}
