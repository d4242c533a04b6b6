//! Whether a line's label is set apart in bold: the first text of an element with a letter
//! in it sits inside a `<strong>` or `<b>` of the line, and not inside a link ("**Read
//! More**: <a>…</a>", "<strong>Related: <a>…</a></strong>"). A site's cross-promotion line
//! styles its label so; an author's own sentence opening with the same words, or a linked
//! headline that spells the label itself, does not.

use dom_query::{Document, NodeData, NodeId};
use html5ever::local_name;

use crate::dom::{Walker, with_element};

/// Whether the first text with a letter under `line` is inside bold outside any link.
pub(super) fn bold_label(doc: &Document, line: NodeId) -> bool {
    let tree = &doc.tree;
    let first = Walker::new(tree, line).find(|node| {
        tree.query_node(node, |n| match &n.data {
            NodeData::Text { contents } => contents.chars().any(char::is_alphabetic),
            _ => false,
        })
        .unwrap_or(false)
    });
    let Some(mut cur) = first else {
        return false;
    };
    let mut bold = false;
    while cur != line {
        let Some(parent) = tree.parent_of(&cur).map(|p| p.id) else {
            return false;
        };
        cur = parent;
        if cur == line {
            break;
        }
        match with_element(tree, cur, |el| el.name.local.clone()) {
            Some(local_name!("a")) => return false,
            Some(local_name!("strong") | local_name!("b")) => bold = true,
            _ => {}
        }
    }
    bold
}
