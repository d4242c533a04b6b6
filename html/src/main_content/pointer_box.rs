//! A box the site names as its own (`promo`, `widget`: a class word hinting chrome) right
//! after a line that titles pointers to other pages ("Also on …:", "Related on …:"), on a
//! page reading as an article: the box and its title go whatever the box holds. The rules
//! for pointer-titled blocks ([`super::related`], [`super::body_pointers`]) want links; a
//! slideshow of another story written into the post's element is prose (each slide a
//! heading and paragraphs), and only the title above it and the class on it say that it
//! is not the post. A box without such a class after such a line stays (an author's
//! "Related reading" section), and so does a class-named box after any other line.

use super::arena::Arena;
use super::pointer_titles::headed_blocks;
use super::pruning::Pruning;
use super::score::Scores;

/// Prunes chrome-hinted boxes right after a pointer title, with their title.
pub(super) fn prune(arena: &Arena, scores: &Scores, holds_forced: &[bool], prune: &mut Pruning) {
    if !scores.article_page {
        return;
    }
    let nodes = &arena.nodes;
    let (container, end) = (prune.container(), prune.end());
    // The title is a line of its own, with nothing inside it.
    let found = headed_blocks(nodes, prune, container + 1, end, |t| {
        let n = &nodes[t];
        let title = n.total.words == n.own.words && !n.forced && !holds_forced[t];
        title
            .then(|| boxed_after(arena, t, holds_forced))
            .flatten()
            .map(|next| vec![t, next])
    });
    prune.extend(found);
}

/// The next sibling with text of the title at `t`, when a class word of its own hints
/// chrome (and none names content or an article's body).
fn boxed_after(arena: &Arena, t: usize, holds_forced: &[bool]) -> Option<usize> {
    let nodes = &arena.nodes;
    let p = nodes[t].parent;
    let next = t + nodes[t].size as usize;
    // Siblings without text (a clearing `div`) are stepped over.
    let mut j = next;
    while j < nodes.len() && nodes[j].parent == p && nodes[j].total.chars == 0 {
        j += nodes[j].size as usize;
    }
    let n = nodes.get(j).filter(|n| n.parent == p)?;
    let w = &n.words;
    let named = w.score < 0 && !w.content_word && !w.article_body;
    (named && n.is_block() && !n.dropped && !n.forced && !holds_forced[j]).then_some(j)
}
