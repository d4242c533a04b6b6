//! Shelves of teaser cards before an article's body: the shelf [`super::teasers`] takes
//! after the body ("more from the blog") also stands above it on some themes (the
//! latest posts, each a linked headline and a blurb, over the story). Before the body,
//! not around it, saying less than it, on a page whose body is a good part of what the
//! container says, it goes the same way.

use super::arena::Arena;
use super::pruning::Pruning;
use super::score::Scores;
use super::teasers::teaser_shelf;

/// Share of the container's plain text the body holds for the shelves before it to go.
const BODY_LEADS: f32 = 0.25;

/// Prunes shelves of teaser cards before the article's `body` inside the container.
pub(super) fn prune(
    arena: &Arena,
    scores: &Scores,
    body: Option<usize>,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    let Some(body) = body else { return };
    let nodes = &arena.nodes;
    let container = prune.container();
    let body_plain = nodes[body].plain();
    if (body_plain as f32) < BODY_LEADS * nodes[container].plain() as f32 {
        return;
    }
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, container + 1, body);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        let end = i + n.size as usize;
        if holds_forced[i] && end <= body {
            walk.step_over();
            continue;
        }
        let around_body = body < end;
        // Saying less than the body, links counted: a collection's grid of cards above its
        // closing text is the page.
        let smaller = n.total.chars < nodes[body].total.chars;
        if !around_body
            && smaller
            && scores.has_records[i]
            && n.plain() < body_plain
            && teaser_shelf(arena, i)
        {
            found.push(i);
            walk.step_over();
        }
    }
    prune.extend(found);
}
