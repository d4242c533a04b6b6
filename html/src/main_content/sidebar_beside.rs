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
use super::score::Scores;

/// Prunes side regions named outright beside the container's named article body.
pub(super) fn prune(arena: &Arena, scores: &Scores, holds_forced: &[bool], prune: &mut Pruning) {
    if !scores.article_page {
        return;
    }
    let nodes = &arena.nodes;
    let (container, end) = (prune.container(), prune.end());
    let Some(article) = super::named_body::find(arena, prune) else {
        return;
    };
    let article_end = article + nodes[article].size as usize;
    let holds_article = |j: usize| j < article && article < j + nodes[j].size as usize;
    let mut found = Vec::new();
    let mut i = container + 1;
    while i < end {
        let n = &nodes[i];
        if i == article {
            i = article_end;
            continue;
        }
        if prune.skips(i, n) {
            i += n.size as usize;
            continue;
        }
        let beside = !holds_article(i) && holds_article(n.parent as usize);
        if beside && side_region(n) && !holds_forced[i] {
            found.push(i);
            i += n.size as usize;
        } else {
            i += 1;
        }
    }
    prune.extend(found);
}

/// A region whose class or id names a side column outright, holding no `main`.
fn side_region(n: &Node) -> bool {
    n.words.strong_chrome && !n.words.article_body && n.counts.mains == 0 && !n.forced
}
