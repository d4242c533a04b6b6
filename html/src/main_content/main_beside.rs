//! What stands beside the page's `main` when `main` holds the article: a theme's
//! `role=main` element around the post, inside a container that also holds the side
//! columns (a "Best of" list, an issue's teasers with their blurbs, a blogroll, a shop's
//! banners). The container was not narrowed to `main` because those columns carry prose
//! worth as much as the post; but when the body the page names (`entry-content`…) is
//! inside `main`, the author said twice where the content is. Blocks that are siblings of
//! `main` or of one of its wrappers go. Without the named body inside `main` it stays as
//! it was (tried: article pages whose `main` holds only part of the story lost it).

use super::arena::Arena;
use super::hints::Landmark;
use super::pruning::Pruning;
use super::score::Scores;

/// Prunes the blocks beside the container's one `main`, when the named body is inside it.
pub(super) fn prune(arena: &Arena, scores: &Scores, holds_forced: &[bool], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    let (container, end) = (prune.container(), prune.end());
    if !scores.article_page
        || nodes[container].landmark == Landmark::Main
        || nodes[container].counts.mains != 1
    {
        return;
    }
    let Some(main) = (container + 1..end).find(|&i| nodes[i].landmark == Landmark::Main) else {
        return;
    };
    let main_end = main + nodes[main].size as usize;
    if prune.skips(main, &nodes[main]) {
        return;
    }
    let Some(body) = super::named_body::find(arena, prune) else {
        return;
    };
    if body < main || body >= main_end {
        return;
    }
    let mut found = Vec::new();
    let mut cur = main;
    while cur != container {
        let p = nodes[cur].parent as usize;
        for s in arena.children(p).filter(|&s| s != cur) {
            if !prune.skips(s, &nodes[s]) && !nodes[s].forced && !holds_forced[s] {
                found.push(s);
            }
        }
        cur = p;
    }
    prune.extend(found);
}
