//! `dom_query`'s node list reached directly, for the sink's two hot appends (an element or
//! a text as a parent's last child). `dom_query` 0.29 (pinned `=0.29.0`) keeps the list
//! and the conversions between a `NodeId` and its index private, so every append went
//! through `Tree::append_child_data_of` (the node data moved by value into an out-of-line
//! call, the list borrowed) and then a second borrow to learn the new node's id
//! (`query_node` of the parent's last child), and a text append borrowed the list twice to
//! check whether it merges. Here each append is one borrow, in line, building the same
//! node with the same id and links as `TreeNodeOps::append_child_data_of`.

use std::cell::RefCell;
use std::num::NonZeroU32;

use dom_query::{NodeData, NodeId, Tree, TreeNode};
use html5ever::tendril::StrTendril;

/// The node list of `tree` (`dom_query` 0.29 keeps it private).
pub(super) fn node_list(tree: &Tree) -> &RefCell<Vec<TreeNode>> {
    // `Tree` is a struct of the one field `nodes: RefCell<Vec<TreeNode>>` (dom_query
    // 0.29, pinned). A struct of the same size and alignment as its field holds that
    // field at offset 0 (the field's bytes fit in the struct's only there), whatever
    // layout Rust picks; a change in `Tree` that adds bytes fails this assertion when
    // compiling.
    const {
        assert!(size_of::<Tree>() == size_of::<RefCell<Vec<TreeNode>>>());
        assert!(align_of::<Tree>() == align_of::<RefCell<Vec<TreeNode>>>());
    }
    // SAFETY: by the assertion above the node list is at the start of `tree`, so the
    // pointer is to a valid, aligned `RefCell<Vec<TreeNode>>` living as long as `tree`;
    // the `RefCell` keeps its borrows checked as `Tree`'s own methods do.
    unsafe { &*std::ptr::from_ref(tree).cast::<RefCell<Vec<TreeNode>>>() }
}

// `NodeId` (dom_query 0.29) is a struct of the one field `raw: NonZeroU32`, the node's
// index + 1 (`NodeId::new`, `NodeId::value`, both crate-private). Same size and alignment:
// the field is the whole struct. The tests check the values against ids `dom_query` makes.
const _: () = {
    assert!(size_of::<NodeId>() == size_of::<NonZeroU32>());
    assert!(align_of::<NodeId>() == align_of::<NonZeroU32>());
};

/// The id `dom_query` gives the node at `index` of a node list (`NodeId::new`, which
/// panics at `u32::MAX` nodes as this does).
#[inline(always)]
fn id_at(index: usize) -> NodeId {
    let raw = u32::try_from(index)
        .ok()
        .filter(|&i| i < u32::MAX)
        .and_then(|i| NonZeroU32::new(i + 1))
        .expect("dom_query: too many nodes");
    // SAFETY: `NodeId` is a `NonZeroU32` (asserted above) holding index + 1; any non-zero
    // value is a valid `NonZeroU32`, and `raw` is non-zero by construction.
    unsafe { std::mem::transmute::<NonZeroU32, NodeId>(raw) }
}

/// The index of the node `id` names in its node list (`NodeId::value`).
#[inline(always)]
fn index_of(id: NodeId) -> usize {
    // SAFETY: `NodeId` is a `NonZeroU32` (asserted above); every `NodeId` holds one.
    let raw = unsafe { std::mem::transmute::<NodeId, NonZeroU32>(id) };
    raw.get() as usize - 1
}

/// Appends a node of `data` as the last child of `parent` and returns its id: the same
/// node, id and links `Tree::append_child_data_of` makes, under one borrow of the list.
#[inline(always)]
pub(super) fn append_child(tree: &Tree, parent: NodeId, data: NodeData) -> NodeId {
    let mut nodes = node_list(tree).borrow_mut();
    let last = nodes.get(index_of(parent)).and_then(|n| n.last_child);
    push_child(&mut nodes, parent, last, data)
}

/// Appends `text` as the last child of `parent`: merged into that child when it is a text
/// node, else a new text node (what `Document::append` of text does), under one borrow of
/// the list.
#[inline(always)]
pub(super) fn append_text(tree: &Tree, parent: NodeId, text: StrTendril) {
    let mut nodes = node_list(tree).borrow_mut();
    let last = nodes.get(index_of(parent)).and_then(|n| n.last_child);
    if let Some(last) = last
        && let Some(TreeNode {
            data: NodeData::Text { contents },
            ..
        }) = nodes.get_mut(index_of(last))
    {
        contents.push_tendril(&text);
        return;
    }
    push_child(&mut nodes, parent, last, NodeData::Text { contents: text });
}

/// `TreeNodeOps::append_child_data_of` (`last` is the parent's last child), returning
/// the new node's id.
#[inline(always)]
fn push_child(nodes: &mut Vec<TreeNode>, parent: NodeId, last: Option<NodeId>, data: NodeData) -> NodeId {
    let len = nodes.len();
    let id = id_at(len);
    // Room made first, then the node written straight into its slot: `push` builds the
    // node on the stack and copies it in (80 bytes, twice over on the element path), as
    // the value must outlive the call that may grow the list.
    if len == nodes.capacity() {
        nodes.reserve(1);
    }
    nodes.spare_capacity_mut()[0].write(TreeNode {
        id,
        parent: Some(parent),
        prev_sibling: last,
        next_sibling: None,
        first_child: None,
        last_child: None,
        data,
    });
    // SAFETY: the slot at `len` is within the capacity (made above) and was just
    // initialised; the nodes before it are the list's.
    unsafe { nodes.set_len(len + 1) };
    if let Some(node) = last.and_then(|last| nodes.get_mut(index_of(last))) {
        node.next_sibling = Some(id);
    }
    if let Some(node) = nodes.get_mut(index_of(parent)) {
        if node.first_child.is_none() {
            node.first_child = Some(id);
        }
        node.last_child = Some(id);
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;
    use dom_query::Document;
    use html5ever::interface::{NodeOrText, TreeSink};
    use html5ever::{QualName, local_name, ns};

    /// A node's place and data, by index, to compare two lists node for node.
    fn shape(tree: &Tree) -> Vec<String> {
        node_list(tree)
            .borrow()
            .iter()
            .map(|n| {
                let ids = [
                    n.parent,
                    n.prev_sibling,
                    n.next_sibling,
                    n.first_child,
                    n.last_child,
                ]
                .map(|id| id.map(index_of));
                format!("{} {ids:?} {:?}", index_of(n.id), n.data)
            })
            .collect()
    }

    #[test]
    fn ids_and_indices_are_dom_querys() {
        let doc = Document::default();
        let tree = &doc.tree;
        assert_eq!(tree.root_id(), id_at(0));
        assert_eq!(index_of(tree.root_id()), 0);
        for i in 1..3000 {
            let id = tree.create_node(NodeData::Comment { contents: "x".into() });
            assert_eq!(id, id_at(i));
            assert_eq!(index_of(id), i);
            assert_eq!(format!("{id:?}"), format!("NodeId {{ value: {i} }}"));
        }
    }

    #[test]
    #[should_panic(expected = "too many nodes")]
    fn an_index_past_u32_is_refused() {
        let _ = id_at(u32::MAX as usize);
    }

    /// Random appends of elements and texts (texts merging into a text last child) build
    /// the list `dom_query`'s own calls build: the same ids, links and data.
    #[test]
    fn appends_build_what_dom_query_builds() {
        let mut rng = TestRng::new(11);
        for round in 0..200 {
            let ours = Document::default();
            let theirs = Document::default();
            let mut parents = vec![ours.tree.root_id()];
            for step in 0..rng.below(120) {
                let parent = parents[rng.below(parents.len())];
                if rng.below(3) == 0 {
                    let text: StrTendril = ["a", "bc", " ", "long text run here"][rng.below(4)].into();
                    append_text(&ours.tree, parent, text.clone());
                    TreeSink::append(&theirs, &parent, NodeOrText::AppendText(text));
                } else {
                    let name = QualName::new(None, ns!(html), local_name!("div"));
                    let data =
                        || NodeData::Element(dom_query::Element::new(name.clone(), Vec::new(), None, false));
                    let id = append_child(&ours.tree, parent, data());
                    theirs.tree.append_child_data_of(&parent, data());
                    let last = theirs.tree.query_node(&parent, |n| n.last_child).flatten();
                    assert_eq!(Some(id), last, "round {round} step {step}");
                    parents.push(id);
                }
            }
            assert_eq!(shape(&ours.tree), shape(&theirs.tree), "round {round}");
        }
    }
}
