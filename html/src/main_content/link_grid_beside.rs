//! A grid of links beside the page's one named article: a video page's caption is the
//! article (`<article>` around the player and one paragraph) and its playlist, a grid of
//! thirty linked thumbnails beside it, holds far more text, all of it links; no share
//! test tells the caption from an introduction to a listing, but the page says which is
//! its article. When the container holds one `<article>` (`role=article`) with a
//! paragraph of prose and no other, a block beside it (a sibling of it or of one of its
//! wrappers) whose text is all links, many of them, goes. A listing whose cards are
//! `<article>`s has several, and keeps its grid.

use super::arena::{Arena, Node};
use super::hints::Landmark;
use super::pruning::Pruning;

/// Links the grid holds at least, and their share of its text.
const GRID_LINKS: u32 = 10;
const GRID_LINK_SHARE: f32 = 0.9;

/// Prunes all-link grids beside the container's one named article.
pub(super) fn prune(arena: &Arena, holds_forced: &[bool], prune: &mut Pruning) {
    let Some(article) = one_article(arena, prune) else {
        return;
    };
    super::beside::prune_where(arena, article, holds_forced, prune, |i| {
        link_grid(&arena.nodes[i])
    });
}

/// The one `<article>` with text in the container, if it holds a paragraph of prose.
fn one_article(arena: &Arena, prune: &Pruning) -> Option<usize> {
    let nodes = &arena.nodes;
    let (container, end) = (prune.container(), prune.end());
    if nodes[container].landmark == Landmark::Article {
        return None;
    }
    let mut found = None;
    let mut walk = prune.kept(nodes, container + 1, end);
    while let Some(i) = walk.next() {
        if nodes[i].landmark == Landmark::Article {
            if found.is_some() {
                return None;
            }
            found = Some(i);
            walk.step_over();
        }
    }
    let a = found?;
    nodes[a + 1..a + nodes[a].size as usize]
        .iter()
        .any(Node::is_prose_paragraph)
        .then_some(a)
}

/// A block whose text is all links, many of them, with no paragraph of prose.
fn link_grid(n: &Node) -> bool {
    n.counts.links >= GRID_LINKS && n.total.link_density() >= GRID_LINK_SHARE
}
