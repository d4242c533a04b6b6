//! Blocks titled as pointers to other pages: "Related posts", "You may also like", "More
//! from …", "Most read", "Top stories". The title says what the block is whatever the
//! page's type; the block goes when, without its title, it is mostly links (titles of
//! other pages, with a blurb at most). A section so titled that is prose stays, and so do
//! a small part of the page only (a listing made of such sections keeps them) and what
//! the article's body holds (its own "Related resources" are the author's). A grid of cards
//! under such a title goes too, whatever its links: each card one class template's
//! instance with a heading of its own (another post's title, a blurb, a byline), the title
//! pointing elsewhere even when the card's link is a script's.

use super::arena::{Arena, Node};
use super::hints::Kind;
use super::pointer_titles::is_title;
use super::pruning::Pruning;

/// Links the titled block has at least, besides its title.
const MIN_LINKS: u32 = 3;
/// Share of the block's text (its title left out) inside links.
const LINKS: f32 = 0.5;
/// Share of the container's characters the block may hold: a larger one is a part of the
/// page (a listing's "More podcasts" section; tried: 0.15 and 0.3 cost a listing and a
/// collection page what the articles gained).
const MAX_SHARE: f32 = 0.08;
/// Cards a grid under a pointer title holds at least.
const MIN_CARDS: usize = 3;
/// Characters a card of such a grid holds at most (a title, a blurb, a byline).
const CARD_MAX_CHARS: u32 = 800;

/// Prunes blocks of links under a pointer title inside the container.
pub(super) fn prune(arena: &Arena, body: Option<usize>, holds_forced: &[bool], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    let body = body.unwrap_or(usize::MAX);
    let (container, end) = (prune.container(), prune.end());
    let max_chars = MAX_SHARE * nodes[container].total.chars as f32;
    let mut found = Vec::new();
    let mut i = container + 1;
    while i < end {
        let n = &nodes[i];
        // What the article's body holds under such a title (its sources, a reading list)
        // is the author's; a subtree without a title is not worth a look.
        if i == body || n.dropped || n.total.related_titles == 0 {
            i += n.size as usize;
            continue;
        }
        if let Some(block) = is_title(n)
            .then(|| titled_block(arena, i, container, holds_forced, max_chars))
            .flatten()
        {
            let last = block[block.len() - 1];
            found.extend(block);
            i = last + nodes[last].size as usize;
            continue;
        }
        // A title already pruned (a furniture phrase) still says what follows it; what
        // else is pruned is stepped over.
        if prune.is_gone(i) {
            i += n.size as usize;
            continue;
        }
        i += 1;
    }
    prune.extend(found);
}

/// The block a title at `t` heads: its parent when the parent is the title and links,
/// else the title and its next sibling when that sibling is links.
pub(super) fn titled_block(
    arena: &Arena,
    t: usize,
    container: usize,
    holds_forced: &[bool],
    max_chars: f32,
) -> Option<Vec<usize>> {
    let nodes = &arena.nodes;
    let title = &nodes[t];
    let p = title.parent as usize;
    if title.parent != u32::MAX && p != container && !holds_forced[p] && !nodes[p].forced {
        // The title heads its block: the block's first child with text.
        let heads = arena.children(p).find(|&c| nodes[c].total.chars > 0) == Some(t);
        let pointers = links_besides(&nodes[p], Some(title)) || grid_besides(arena, p, t);
        if heads && pointers && (nodes[p].total.chars as f32) <= max_chars {
            return Some(vec![p]);
        }
    }
    let next = arena
        .children(p)
        .skip_while(|&c| c != t)
        .skip(1)
        .find(|&c| nodes[c].total.chars > 0)?;
    let n = &nodes[next];
    // A paragraph after the title is prose with links in it, not a list of them.
    let free = n.kind != Kind::Para && !n.forced && !holds_forced[next] && !title.forced && !holds_forced[t];
    let pointers = links_besides(n, None) || grid_down(arena, next);
    (free && pointers && (n.total.chars as f32) <= max_chars).then(|| vec![t, next])
}

/// Whether the one child of `block` with text besides `title` leads down to a card grid.
fn grid_besides(arena: &Arena, block: usize, title: usize) -> bool {
    let nodes = &arena.nodes;
    let mut rest = arena
        .children(block)
        .filter(|&c| c != title && nodes[c].total.chars > 0);
    match (rest.next(), rest.next()) {
        (Some(only), None) => grid_down(arena, only),
        _ => false,
    }
}

/// Whether `block`, or the chain of single children with text below it, is a card grid.
fn grid_down(arena: &Arena, block: usize) -> bool {
    let nodes = &arena.nodes;
    let mut g = block;
    loop {
        if card_grid(arena, g) {
            return true;
        }
        let mut kids = arena
            .children(g)
            .filter(|&c| !nodes[c].dropped && nodes[c].total.chars > 0);
        match (kids.next(), kids.next()) {
            (Some(only), None) => g = only,
            _ => return false,
        }
    }
}

/// Whether the children of `grid` with text are at least [`MIN_CARDS`] small cards of one
/// class template, each holding a heading.
fn card_grid(arena: &Arena, grid: usize) -> bool {
    let nodes = &arena.nodes;
    let mut cards = 0;
    let mut sig = None;
    for c in arena.children(grid) {
        let n = &nodes[c];
        if n.dropped || n.total.chars == 0 {
            continue;
        }
        let card = n.sig != n.tag_sig && n.counts.headings > 0 && n.total.chars <= CARD_MAX_CHARS;
        if !card || *sig.get_or_insert(n.sig) != n.sig {
            return false;
        }
        cards += 1;
    }
    cards >= MIN_CARDS
}

/// Whether `block`, its `title` left out, has several links and is mostly links.
fn links_besides(block: &Node, title: Option<&Node>) -> bool {
    let (t_links, t_chars, t_link_chars) =
        title.map_or((0, 0, 0), |t| (t.counts.links, t.total.chars, t.total.link_chars));
    let links = block.counts.links.saturating_sub(t_links);
    let chars = block.total.chars.saturating_sub(t_chars);
    let link_chars = block.total.link_chars.saturating_sub(t_link_chars);
    links >= MIN_LINKS && chars > 0 && link_chars as f32 >= LINKS * chars as f32
}
