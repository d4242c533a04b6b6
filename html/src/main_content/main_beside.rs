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

/// Prunes the blocks beside the container's one `main`, when `named`, the named body
/// ([`super::named_body`]), is inside it.
pub(super) fn prune(arena: &Arena, named: Option<usize>, holds_forced: &[bool], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    let (container, end) = (prune.container(), prune.end());
    let Some(body) = named else { return };
    if nodes[container].landmark == Landmark::Main || nodes[container].counts.mains != 1 {
        return;
    }
    let Some(main) = (container + 1..end).find(|&i| nodes[i].landmark == Landmark::Main) else {
        return;
    };
    let main_end = main + nodes[main].size as usize;
    if prune.skips(main, &nodes[main]) || body < main || body >= main_end {
        return;
    }
    super::beside::prune_where(arena, main, holds_forced, prune, |_| true);
}
