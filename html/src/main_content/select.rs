//! Choosing the container and pruning inside it, then applying the plan to the document.

use dom_query::{Document, NodeId};

use super::arena::Arena;
use super::score::Scores;

pub(super) struct Plan {
    /// Arena index of the main-content container.
    pub container: usize,
    /// Arena indices of subtrees to remove inside the container.
    pub prune: Vec<usize>,
}

pub(super) fn plan(arena: &Arena, scores: &Scores) -> Plan {
    let nodes = &arena.nodes;
    let mut container = 0;
    let mut best = f32::MIN;
    for (i, node) in nodes.iter().enumerate() {
        if node.dropped {
            continue;
        }
        // Strictly better only: on a tie the outer element (earlier in pre-order) wins.
        if scores.sum[i] > best {
            best = scores.sum[i];
            container = i;
        }
    }
    let mut prune = Vec::new();
    let mut stack = vec![container];
    while let Some(i) = stack.pop() {
        for c in arena.children(i) {
            if nodes[c].dropped || scores.sum[c] < 0.0 {
                prune.push(c);
            } else {
                stack.push(c);
            }
        }
    }
    Plan { container, prune }
}

pub(super) fn apply(doc: &Document, arena: &Arena, plan: &Plan) {
    let tree = &doc.tree;
    let root = arena.nodes[0].id;
    // Everything outside the container goes, its ancestors stay as bare wrappers.
    let mut cur: NodeId = arena.nodes[plan.container].id;
    while cur != root {
        let Some(parent) = tree.parent_of(&cur) else {
            break;
        };
        let siblings: Vec<NodeId> = tree.child_ids_of(&parent.id);
        for s in siblings {
            if s != cur {
                tree.remove_from_parent(&s);
            }
        }
        cur = parent.id;
    }
    for &i in &plan.prune {
        tree.remove_from_parent(&arena.nodes[i].id);
    }
}
