//! A heading repeating an earlier kept heading word for word: a page's title rendered again
//! in a sticky bar or a tab's panel, a feature's name in a tab list and again over its
//! section. Only long headings count (short ones are the labels of a template, repeated per
//! item on purpose: "Overview", "Why we chose it"), linked ones stay (cards of a listing
//! may share a title), and so do headings repeated by each instance of one template (a
//! code sample's tab per language, each under the same heading).

use super::arena::Arena;
use super::hints::Kind;
use super::pruning::Pruning;

/// Words of a heading at least.
const MIN_WORDS: u32 = 7;

/// Prunes the repeats of long headings inside the container.
pub(super) fn prune(arena: &Arena, holds_forced: &[bool], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    // The first heading with each text: (hash, arena index).
    let mut seen: Vec<(u64, usize)> = Vec::new();
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, prune.container() + 1, prune.end());
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if n.kind != Kind::Heading {
            continue;
        }
        walk.step_over();
        if n.total.words < MIN_WORDS || n.counts.links > 0 || n.in_link {
            continue;
        }
        match seen.iter().find(|s| s.0 == n.hash) {
            Some(&(_, first)) => {
                if !holds_forced[i] && !n.forced && !in_twin_parts(arena, first, i) {
                    found.push(i);
                }
            }
            None => seen.push((n.hash, i)),
        }
    }
    prune.extend(found);
}

/// Whether headings `first` and `later` stand in two instances of one template: the
/// children of their closest common ancestor holding them share a signature (the tabs of
/// a code sample, one per language, each under the same heading; cards sharing a title).
fn in_twin_parts(arena: &Arena, first: usize, later: usize) -> bool {
    let nodes = &arena.nodes;
    let holds = |a: usize, j: usize| a <= j && j < a + nodes[a].size as usize;
    // The ancestor of `later` (or itself) whose parent also holds `first`.
    let mut b = later;
    while nodes[b].parent != u32::MAX && !holds(nodes[b].parent as usize, first) {
        b = nodes[b].parent as usize;
    }
    let common = nodes[b].parent;
    let mut a = first;
    while nodes[a].parent != common && nodes[a].parent != u32::MAX {
        a = nodes[a].parent as usize;
    }
    a != b && nodes[a].sig == nodes[b].sig
}
