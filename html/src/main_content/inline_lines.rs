//! Lines that are an inline element of their own: a blog theme's footer written as a
//! `<span class="posted">Posted by … at …</span>` or a `<b>Posted on … in …</b>` straight
//! inside the post's wrapper after its last paragraph, a `<small>© …</small>` notice. The
//! arena gives their text to the enclosing block, so the passes reading blocks after the
//! body's last paragraph ([`super::closing_lines`], [`super::post_footer`]) never see them
//! as lines. An inline element is a line of its own when nothing but white space, a line
//! break, a block or an element without text stands on either side of it in its parent.

use dom_query::{Document, NodeData, NodeId, Tree};

use super::arena::Arena;
use super::hints::{self, Kind};
use crate::dom::Walker;

/// The words of the inline element `i` (a span, an emphasis, a link) when it stands as a
/// line of its own inside a block holding more text than it. (The arena counts an inline
/// element's text in its block: its words are counted here.)
pub(super) fn stands_alone(doc: &Document, arena: &Arena, i: usize) -> Option<u32> {
    let nodes = &arena.nodes;
    let n = &nodes[i];
    if n.is_block() || n.dropped {
        return None;
    }
    let tree = &doc.tree;
    let side = |next: bool| {
        let mut cur = n.id;
        loop {
            let sibling = tree
                .query_node(&cur, |t| if next { t.next_sibling } else { t.prev_sibling })
                .flatten();
            let Some(s) = sibling else {
                return true;
            };
            match bound(tree, s) {
                Some(alone) => return alone,
                None => cur = s,
            }
        }
    };
    if !(side(false) && side(true)) {
        return None;
    }
    // The element alone in its block: the block itself is the line the passes read.
    let words = words_of(tree, n.id);
    (words > 0 && words < nodes[n.block as usize].total.words).then_some(words)
}

/// Words of the element `id`'s text (runs of letters and digits).
pub(super) fn words_of(tree: &Tree, id: NodeId) -> u32 {
    let mut words = 0;
    for node in Walker::new(tree, id) {
        tree.query_node(&node, |t| {
            if let NodeData::Text { contents } = &t.data {
                words += contents
                    .split(|c: char| !c.is_alphanumeric())
                    .filter(|w| !w.is_empty())
                    .count() as u32;
            }
        });
    }
    words
}

/// What a sibling says about the line: `Some(true)` a boundary (a block, a line break),
/// `Some(false)` more text on the line, `None` nothing (white space, a comment, an element
/// without text: an image, an empty anchor).
fn bound(tree: &Tree, id: NodeId) -> Option<bool> {
    let (kind, text) = tree.query_node(&id, |t| match &t.data {
        NodeData::Element(el) => (Some(hints::kind(el)), None),
        NodeData::Text { contents } => (None, Some(!contents.trim().is_empty())),
        _ => (None, Some(false)),
    })?;
    match (kind, text) {
        (_, Some(true)) => Some(false),
        (Some(Kind::Break), _) => Some(true),
        (Some(Kind::Inline | Kind::Link | Kind::Image | Kind::Media), _) => {
            has_text(tree, id).then_some(false)
        }
        (Some(Kind::Drop), _) => None,
        (Some(_), _) => Some(true),
        _ => None,
    }
}

/// Whether the element `id` holds text other than white space.
fn has_text(tree: &Tree, id: NodeId) -> bool {
    Walker::new(tree, id).any(|node| {
        tree.query_node(&node, |t| match &t.data {
            NodeData::Text { contents } => !contents.trim().is_empty(),
            _ => false,
        })
        .unwrap_or(false)
    })
}

/// The words the line `j` owns: a block's own words, an inline element's text's.
pub(super) fn line_words(doc: &Document, arena: &Arena, j: usize) -> u32 {
    let n = &arena.nodes[j];
    if n.is_block() {
        n.own.words
    } else {
        words_of(&doc.tree, n.id)
    }
}
