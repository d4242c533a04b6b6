//! Shelves of template-built teaser cards inside an article's body: a theme's block of
//! "more from the site" cards (a linked headline and a blurb each, every card an element
//! of one class, `li.card`) written into the story between its paragraphs. An author's
//! own list of picks is written in the story's flow (headings and paragraphs, list items
//! without a class of their own); a shelf whose cards all carry one template's class
//! (not just a tag) and that says a small part of the body goes.

use super::arena::Arena;
use super::hints::Kind;
use super::pruning::Pruning;
use super::score::Scores;
use super::teasers::{teaser_card, teaser_shelf};

/// Share of the body's plain text the shelves hold at most, together: more is what the
/// page is about (a roundup of cards).
const SHELF_MAX_SHARE: f32 = 0.25;

/// Words a card's title holds on average: a headline, not a name.
const HEADLINE_WORDS: u32 = 5;
/// Share of a shelf's text outside links: blurbs under the headlines, not a list of
/// resources (a title and a source line each).
const BLURBS: f32 = 0.6;

/// Prunes shelves of template-built teaser cards inside the article's `body`, on an
/// article page.
pub(super) fn prune(
    arena: &Arena,
    scores: &Scores,
    body: Option<usize>,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    let Some(body) = body.filter(|_| scores.article_page) else {
        return;
    };
    let nodes = &arena.nodes;
    let body_end = body + nodes[body].size as usize;
    let max_plain = SHELF_MAX_SHARE * nodes[body].plain() as f32;
    let mut found = Vec::new();
    let mut shelves_plain = 0;
    let mut walk = prune.kept(nodes, body + 1, body_end);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if holds_forced[i] {
            walk.step_over();
        } else if (n.plain() as f32) <= max_plain
            && n.plain() as f32 >= BLURBS * n.total.chars as f32
            && templated(arena, i)
            && teaser_shelf(arena, i)
            && between_prose(arena, body, i)
            && headlines(arena, i)
        {
            found.push(i);
            shelves_plain += n.plain();
            walk.step_over();
        }
    }
    // Shelves saying together a good part of the body are what the page is (a blog's
    // rows of cards, one row per topic).
    if (shelves_plain as f32) <= max_plain {
        prune.extend(found);
    }
}

/// Whether the teaser cards among `holder`'s children are instances of one template
/// named by a class (one signature that is not the bare tag's).
fn templated(arena: &Arena, holder: usize) -> bool {
    let nodes = &arena.nodes;
    let mut sig = None;
    for c in arena.children(holder) {
        let n = &nodes[c];
        if n.dropped || n.total.chars == 0 {
            continue;
        }
        if n.sig == n.tag_sig || sig.is_some_and(|s| s != n.sig) {
            return false;
        }
        sig = Some(n.sig);
    }
    sig.is_some() && arena.children(holder).any(|c| teaser_card(arena, c))
}

/// Whether the cards' titles read as other pages' headlines: [`HEADLINE_WORDS`] words or
/// more on average (a feature's or a person's name under an icon is a word or three).
fn headlines(arena: &Arena, holder: usize) -> bool {
    let nodes = &arena.nodes;
    let (mut cards, mut words) = (0, 0);
    for c in arena.children(holder).filter(|&c| teaser_card(arena, c)) {
        let card = c..c + nodes[c].size as usize;
        let title = card.clone().find(|&h| nodes[h].kind == Kind::Heading);
        cards += 1;
        words += title.map_or(nodes[c].total.words, |h| nodes[h].total.words);
    }
    cards > 0 && words >= HEADLINE_WORDS * cards
}

/// Whether the story's prose goes on around the shelf: a paragraph of prose before it
/// and one after it inside the body.
fn between_prose(arena: &Arena, body: usize, shelf: usize) -> bool {
    let nodes = &arena.nodes;
    let (end, body_end) = (
        shelf + nodes[shelf].size as usize,
        body + nodes[body].size as usize,
    );
    nodes[body..shelf].iter().any(|n| n.is_prose_paragraph())
        && nodes[end..body_end].iter().any(|n| n.is_prose_paragraph())
}
