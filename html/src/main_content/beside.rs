//! The blocks beside an element inside the container: the siblings of the element and of
//! each of its wrappers up to the container, the ones already pruned, dropped or empty
//! left out. A side column, a playlist, a "Best of" box stands so beside the post; what
//! is inside the post or around it is never beside it.

use super::arena::Arena;
use super::pruning::Pruning;

/// The blocks beside `target` (inside the container, not the container itself), in the
/// order their wrappers are met going up.
pub(super) fn blocks(arena: &Arena, prune: &Pruning, target: usize) -> Vec<usize> {
    let nodes = &arena.nodes;
    let container = prune.container();
    let mut found = Vec::new();
    let mut cur = target;
    while cur != container && nodes[cur].parent != u32::MAX {
        let p = nodes[cur].parent as usize;
        found.extend(
            arena
                .children(p)
                .filter(|&s| s != cur && !prune.skips(s, &nodes[s])),
        );
        cur = p;
    }
    found
}

/// Prunes the blocks beside `target` that `goes` picks, leaving any block that is or
/// holds a forced element (upstream's include list).
pub(super) fn prune_where(
    arena: &Arena,
    target: usize,
    holds_forced: &[bool],
    prune: &mut Pruning,
    goes: impl Fn(usize) -> bool,
) {
    let nodes = &arena.nodes;
    let found: Vec<usize> = blocks(arena, prune, target)
        .into_iter()
        .filter(|&i| !nodes[i].forced && !holds_forced[i] && goes(i))
        .collect();
    prune.extend(found);
}
