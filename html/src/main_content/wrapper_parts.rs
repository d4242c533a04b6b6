//! Headline lists inside the article's wrapper: the body [`super::link_lists`] finds is the
//! element holding most of the container's prose, counted before any pass pruned; on a
//! page whose post, comments and side column share one wrapper (a theme's `#content`
//! holding the post and its "Best of", "Recent articles" lists), that wrapper is the body
//! and the lists inside it stay. Once the earlier passes have pruned the comments and the
//! carousels, the prose left is concentrated in one part of the wrapper (the post): lists
//! whose every item is a link, outside that part and not around it, are the side column's.
//! Lists inside the post stay, and nothing moves when the prose left is spread out.

use super::arena::Arena;
use super::link_lists::stray_list;
use super::pruning::Pruning;
use super::score::Scores;

/// Share of the body's kept prose the part holds.
const PART_SHARE: f32 = 0.75;

/// Prunes headline lists inside the article's `body` but outside the part of it holding
/// most of the prose the earlier passes kept.
pub(super) fn prune(
    arena: &Arena,
    scores: &Scores,
    body: Option<usize>,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    let Some(body) = body else { return };
    let Some(part) = kept_prose_part(arena, prune, body) else {
        return;
    };
    let nodes = &arena.nodes;
    let body_end = body + nodes[body].size as usize;
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, body + 1, body_end);
    while let Some(i) = walk.next() {
        if i == part {
            walk.step_over();
        } else if let Some(list) = stray_list(arena, scores, holds_forced, i, body, part) {
            found.push(list);
            walk.step_over();
        }
    }
    found.dedup();
    prune.extend(found);
}

/// The innermost element inside `body` (not `body` itself) holding [`PART_SHARE`] of the
/// prose of `body` that is still kept.
fn kept_prose_part(arena: &Arena, prune: &Pruning, body: usize) -> Option<usize> {
    let nodes = &arena.nodes;
    let end = body + nodes[body].size as usize;
    let mut gone = vec![false; end - body];
    let mut prose = vec![0u32; end - body];
    for i in body + 1..end {
        let p = nodes[i].parent as usize - body;
        gone[i - body] = gone[p] || prune.is_gone(i);
    }
    for i in (body + 1..end).rev() {
        let n = &nodes[i];
        if !gone[i - body] && n.is_prose_paragraph() {
            prose[i - body] += n.own.chars - n.own.link_chars;
        }
        prose[n.parent as usize - body] += prose[i - body];
    }
    let need = (prose[0] as f32 * PART_SHARE) as u32;
    if need == 0 {
        return None;
    }
    let mut cur = body;
    'down: loop {
        for c in arena.children(cur) {
            if prose[c - body] >= need && !nodes[c].dropped {
                cur = c;
                continue 'down;
            }
        }
        break;
    }
    (cur != body).then_some(cur)
}
