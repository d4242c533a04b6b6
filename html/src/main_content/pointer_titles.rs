//! Lines titling pointers to other pages ("Related posts", "Also on …:", "More from …")
//! and the walk that finds what they head: the passes pruning such blocks
//! ([`super::related`], [`super::body_pointers`], [`super::pointer_box`]) share the title
//! test, and the two that read only kept nodes share the walk.

use super::arena::Node;
use super::pruning::Pruning;

/// Words a pointer title has at most.
pub(super) const TITLE_WORDS: u32 = 8;

/// Whether `n` is a block whose own text is a short pointer title.
pub(super) fn is_title(n: &Node) -> bool {
    n.is_block() && n.own.related_titles > 0 && n.own.words <= TITLE_WORDS
}

/// The kept nodes in `from..to` that pointer titles head: subtrees without a title are
/// stepped over; at each title, `headed` gives the nodes it heads (last in document order
/// last), which are collected and stepped over.
pub(super) fn headed_blocks(
    nodes: &[Node],
    prune: &Pruning,
    from: usize,
    to: usize,
    mut headed: impl FnMut(usize) -> Option<Vec<usize>>,
) -> Vec<usize> {
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, from, to);
    while let Some(i) = walk.next() {
        if nodes[i].total.related_titles == 0 {
            walk.step_over();
            continue;
        }
        if let Some(block) = is_title(&nodes[i]).then(|| headed(i)).flatten() {
            let last = block[block.len() - 1];
            found.extend(block);
            walk.jump(last + nodes[last].size as usize);
        }
    }
    found
}
