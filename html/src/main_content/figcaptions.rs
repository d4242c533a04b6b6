//! The kept `<figcaption>` blocks inside the container, in document order: what the
//! caption passes ([`super::caption_credits`], [`super::figure_captions`]) read. Pictures,
//! breaks and media are stepped over, and so is each caption's own subtree.

use dom_query::Document;

use super::arena::Arena;
use super::hints::Kind;
use super::pruning::Pruning;
use crate::dom::{is, local_name, with_element};

/// Arena indices of the kept figcaptions inside the container.
pub(super) fn kept(doc: &Document, arena: &Arena, prune: &Pruning) -> Vec<usize> {
    let nodes = &arena.nodes;
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, prune.container() + 1, prune.end());
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        // An inline element may wrap blocks (a page builder's `span` around the post).
        if matches!(n.kind, Kind::Image | Kind::Break | Kind::Media) {
            walk.step_over();
            continue;
        }
        if n.kind == Kind::Para && is_figcaption(doc, arena, i) {
            walk.step_over();
            found.push(i);
        }
    }
    found
}

fn is_figcaption(doc: &Document, arena: &Arena, i: usize) -> bool {
    with_element(&doc.tree, arena.nodes[i].id, |el| {
        is(el, &local_name!("figcaption"))
    })
    .unwrap_or(false)
}
