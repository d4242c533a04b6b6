//! A parsed tree's nodes written out one per line (kind, depth, name or text), for checking
//! that two parsers build the same nodes: serialising cannot tell two adjacent text nodes
//! from one merged text node, this can.

use std::fmt::Write;

use dom_query::{Document, NodeData, NodeId, Tree};

use crate::dom;

/// The page parsed by our tokenizer and sink ([`dom::parse`]) and by html5ever's own
/// tokenizer with `Document`'s sink, each written out node by node (template contents
/// included), with the quirks mode.
#[doc(hidden)]
pub fn parse_both_structure(html: &str) -> (String, String) {
    (
        structure(&dom::parse(html)),
        structure(&dom::parse_html5ever(html)),
    )
}

/// The page parsed by our own tree builder ([`dom::parse_own`]; or the phrase saying why
/// it gave up) and by our tokenizer feeding html5ever's tree builder, each written out node
/// by node with the nodes' ids (so the order the nodes were made in is compared too).
#[doc(hidden)]
pub fn parse_own_structure(html: &str) -> (Result<String, &'static str>, String) {
    let ours = dom::parse_own(html).map(|d| structure_ids(&d));
    (ours, structure_ids(&dom::parse_html5ever_builder(html)))
}

fn structure(doc: &Document) -> String {
    let mut out = format!("{:?}\n", doc.quirks_mode.get());
    write_node(&doc.tree, doc.root().id, 0, false, &mut out);
    out
}

pub(crate) fn structure_ids(doc: &Document) -> String {
    let mut out = format!("{:?}\n", doc.quirks_mode.get());
    write_node(&doc.tree, doc.root().id, 0, true, &mut out);
    out
}

fn write_node(tree: &Tree, id: NodeId, depth: usize, ids: bool, out: &mut String) {
    let (line, template) = tree
        .query_node(&id, |n| match &n.data {
            NodeData::Document => ("document".to_string(), None),
            NodeData::Fragment => ("fragment".to_string(), None),
            NodeData::Doctype {
                name,
                public_id,
                system_id,
            } => {
                let (n, p, s) = (&**name, &**public_id, &**system_id);
                (format!("doctype {n:?} {p:?} {s:?}"), None)
            }
            NodeData::Text { contents } => (format!("text {:?}", &**contents), None),
            NodeData::Comment { contents } => (format!("comment {:?}", &**contents), None),
            NodeData::ProcessingInstruction { target, contents } => {
                (format!("pi {:?} {:?}", &**target, &**contents), None)
            }
            NodeData::Element(el) => {
                let attrs: Vec<String> = el
                    .attrs
                    .iter()
                    .map(|a| format!("{}:{}={:?}", &*a.name.ns, &*a.name.local, &*a.value))
                    .collect();
                let (ns, local) = (&*el.name.ns, &*el.name.local);
                let line = format!("element {ns}:{local} [{}]", attrs.join(" "));
                (line, el.template_contents)
            }
        })
        .unwrap_or_default();
    if ids {
        let _ = writeln!(out, "{:width$}{line} #{id:?}", "", width = depth);
    } else {
        let _ = writeln!(out, "{:width$}{line}", "", width = depth);
    }
    if let Some(contents) = template {
        write_node(tree, contents, depth + 1, ids, out);
    }
    for child in tree.child_ids_of(&id) {
        write_node(tree, child, depth + 1, ids, out);
    }
}
