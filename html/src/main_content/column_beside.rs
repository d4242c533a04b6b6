//! A side column inside the article's wrapper: the body [`super::link_lists`] finds is the
//! innermost element holding most of the container's prose, and the blurbs of a column of
//! post cards beside a short post ("Latest News": four cards, each a linked title and a
//! paragraph of excerpt) can hold as much prose as the post itself, so the wrapper of post
//! and column becomes the body and the after-body rules never see the column. What gives
//! the column away is its parts, not a share: one part of the body holds a shelf of
//! teaser cards ([`super::teasers::teaser_shelf`]) as most of its text, and a sibling part
//! holds the post's paragraphs, far more of them than the column holds outside its cards
//! (a call to action, a testimonial), and comes before it. That part goes whole. Cards
//! without blurbs (a linked title and a source line: a resource list), a shelf before the
//! post, bodies of many parts where the post's part holds under 60 % of the prose (a
//! page of sections) or with several shelves (a blog's rows of cards) stay.

use super::arena::Arena;
use super::pruning::Pruning;
use super::score::Scores;
use super::teasers::teaser_shelf;

/// Share of the part's kept characters its teaser shelf holds at least.
const SHELF_SHARE: f32 = 0.5;
/// The post's kept prose, as a multiple of the column's prose outside its shelf.
const POST_LEADS: u32 = 2;
/// Share of a shelf's characters outside its links: the cards carry blurbs, not only
/// a linked title and a source line.
const BLURBS: f32 = 0.6;
/// Share of the body's kept prose (outside shelves) the post's part holds: one post, not
/// one section of a page of many.
const POST_SHARE: f32 = 0.6;
/// Characters of kept prose the post holds at least.
const POST_MIN: u32 = 500;

/// Prunes the parts of the article's `body` that are a column of teaser cards beside the
/// part holding the post.
pub(super) fn prune(
    arena: &Arena,
    scores: &Scores,
    body: Option<usize>,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    let Some(body) = body else { return };
    let nodes = &arena.nodes;
    if !worth_reading(arena, scores, prune, body) {
        return;
    }
    // (part, kept prose outside a shelf, kept characters, characters of its shelf)
    let mut parts: Vec<(usize, u32, u32, u32)> = Vec::new();
    for c in arena.children(body) {
        if prune.skips(c, &nodes[c]) {
            continue;
        }
        parts.push(read_part(arena, scores, prune, c));
    }
    if parts.len() < 2 {
        return;
    }
    // Several parts holding shelves: a page of sections (a blog's rows of cards), no
    // column beside one post.
    if parts.iter().filter(|p| p.3 > 0).count() != 1 {
        return;
    }
    let all_prose: u32 = parts.iter().map(|p| p.1).sum();
    // The part holding the post: the most prose, no shelf.
    let Some(post_at) = (0..parts.len())
        .filter(|&k| parts[k].3 == 0)
        .max_by_key(|&k| parts[k].1)
    else {
        return;
    };
    let post = parts[post_at].1;
    if post < POST_MIN || (post as f32) < POST_SHARE * all_prose as f32 {
        return;
    }
    // The column follows the post in source order (a right-hand or bottom column).
    let mut found = Vec::new();
    for &(part, prose, chars, shelf) in &parts[post_at + 1..] {
        if shelf == 0 || (shelf as f32) < SHELF_SHARE * chars as f32 {
            continue;
        }
        if holds_forced[part] || nodes[part].forced || nodes[part].counts.mains > 0 {
            continue;
        }
        if post >= POST_LEADS * prose {
            found.push(part);
        }
    }
    prune.extend(found);
}

/// A cheap test before the parts are read: a part holding a group of cards (three links
/// or more) follows a part with enough plain text to be the post.
fn worth_reading(arena: &Arena, scores: &Scores, prune: &Pruning, body: usize) -> bool {
    let nodes = &arena.nodes;
    let mut post_seen = false;
    for c in arena.children(body) {
        let n = &nodes[c];
        if prune.skips(c, n) {
            continue;
        }
        let end = c + n.size as usize;
        if post_seen && n.counts.links >= MIN_CARDS && scores.has_records[c + 1..end].contains(&true) {
            return true;
        }
        post_seen |= n.plain() >= POST_MIN;
    }
    false
}

/// Links a shelf holds at least (one per card, three cards).
const MIN_CARDS: u32 = 3;

/// A part's kept prose outside teaser shelves, its kept characters, and the characters of
/// the teaser shelves in it (the outermost ones).
fn read_part(arena: &Arena, scores: &Scores, prune: &Pruning, part: usize) -> (usize, u32, u32, u32) {
    let nodes = &arena.nodes;
    let end = part + nodes[part].size as usize;
    let (mut prose, mut chars, mut shelf) = (0u32, 0u32, 0u32);
    let mut walk = prune.kept(nodes, part, end);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if i != part
            && scores.has_records[i]
            && n.plain() as f32 >= BLURBS * n.total.chars as f32
            && teaser_shelf(arena, i)
        {
            shelf += n.total.chars;
            chars += n.total.chars;
            walk.step_over();
            continue;
        }
        chars += n.own.chars;
        if n.is_prose_paragraph() {
            prose += n.own.chars - n.own.link_chars;
        }
    }
    (part, prose, chars, shelf)
}
