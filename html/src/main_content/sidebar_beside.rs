//! Side columns named as such beside an article's named body: on a short post the side
//! column (`#sidebar`, `.sidebar`) can hold as much prose as the post — an "About" text
//! widget, a blogroll's blurbs — and the scoring keeps a region holding half the page's
//! prose whatever its class says. When the container holds an element the page names as
//! the article's body (`entry-content`, `article-body`, `<article>`) with prose in it, an
//! element whose class or id names a side region outright, beside it (a sibling of it or
//! of one of its wrappers), is the page's side column and goes. A region around the body
//! (`content-with-sidebar`) or inside it stays, and so does anything holding the `main`.

use super::arena::{Arena, Node};
use super::pruning::Pruning;

/// Prunes side regions named outright beside `named`, the container's named article body
/// ([`super::named_body`]).
pub(super) fn prune(arena: &Arena, named: Option<usize>, holds_forced: &[bool], prune: &mut Pruning) {
    let Some(article) = named else { return };
    super::beside::prune_where(arena, article, holds_forced, prune, |i| {
        side_region(&arena.nodes[i])
    });
}

/// A region whose class or id names a side column outright, holding no `main`.
fn side_region(n: &Node) -> bool {
    n.words.strong_chrome && !n.words.article_body && n.counts.mains == 0
}
