//! Teaser cards closing the container one per block: a theme that writes each "more to
//! read" card after the post in a block of its own (a linked headline and a blurb, rules
//! between them) leaves no element holding the cards together, so no shelf is seen
//! ([`super::teasers`]) and, when the post's paragraphs are the container's own children,
//! no body either. A run of such cards, each a block of one class template (a post's own
//! sections titled by links are plain headings and paragraphs), at the container's very
//! end, after a text that says much more than they do, goes, with the short heading that
//! titles the run.

use super::arena::Arena;
use super::hints::Kind;
use super::pruning::Pruning;
use super::teasers::teaser_card;

/// Cards a run holds at least.
const MIN_CARDS: usize = 3;
/// Share of the container's plain text the run holds at most: more is a page of cards
/// with an introduction (a listing), not a post with cards after it.
const RUN_MAX_SHARE: f32 = 0.3;
/// Plain characters the rest of the block holds at least: a text, not a grid's title.
const TEXT_MIN_PLAIN: u32 = 1000;
/// Share of a block's kept plain text its largest child holds to be read as its text.
const HOLDS_MOST: f32 = 0.5;
/// Characters of a heading that titles the run ("More guides").
const TITLE_MAX_CHARS: u32 = 80;

/// Prunes the run of teaser cards that closes the container, or closes the block that
/// holds most of the container's text (the post's own wrapper), down that chain.
pub(super) fn prune(arena: &Arena, holds_forced: &[bool], prune: &mut Pruning) {
    let mut holder = prune.container();
    while let Some(next) = prune_in(arena, holder, holds_forced, prune) {
        holder = next;
    }
}

/// Prunes the run closing `holder`; returns the child holding most of its kept text.
fn prune_in(arena: &Arena, holder: usize, holds_forced: &[bool], prune: &mut Pruning) -> Option<usize> {
    let nodes = &arena.nodes;
    let kids: Vec<usize> = arena
        .children(holder)
        .filter(|&c| !prune.skips(c, &nodes[c]))
        .collect();
    let kept_plain: u32 = kids.iter().map(|&c| nodes[c].plain()).sum();
    let largest = kids
        .iter()
        .copied()
        .max_by_key(|&c| nodes[c].plain())
        .filter(|&c| nodes[c].plain() as f32 >= HOLDS_MOST * kept_plain as f32);
    let mut run = Vec::new();
    let mut run_plain = 0;
    let mut rest = kids.iter().rev().copied().peekable();
    while let Some(&c) = rest.peek() {
        let template = nodes[c].sig != nodes[c].tag_sig
            && run.first().is_none_or(|&f: &usize| nodes[f].sig == nodes[c].sig);
        if holds_forced[c] || !template || !teaser_card(arena, c) {
            break;
        }
        run.push(c);
        run_plain += nodes[c].plain();
        rest.next();
    }
    // A template also used before the run writes the post's own entries (a listicle's
    // items, the last few of which are short).
    let own_entries = run
        .first()
        .is_some_and(|&f| rest.clone().any(|c| nodes[c].sig == nodes[f].sig));
    if run.len() < MIN_CARDS
        || own_entries
        || run_plain as f32 > RUN_MAX_SHARE * kept_plain as f32
        || kept_plain - run_plain < TEXT_MIN_PLAIN
    {
        return largest;
    }
    if let Some(title) = rest.next().filter(|&t| {
        nodes[t].kind == Kind::Heading
            && nodes[t].total.chars <= TITLE_MAX_CHARS
            && nodes[t].counts.links == 0
    }) {
        run.push(title);
    }
    prune.extend(run);
    None
}
