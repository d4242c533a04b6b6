//! Shelves of teaser cards after an article's body: a group of small cards built from one
//! template, each titled by a linked heading or a line that is one link (another page's
//! headline), or by a plain heading over a blurb whose one link is a "Read more", and
//! carrying a blurb, an image or a date ("more from the blog", a carousel
//! of other posts). Their blurbs are prose, so the shelf is not link-dominated and the
//! link rules keep it; what gives it away is where it stands (after the body, saying less
//! than it, or after a story long enough to stand by itself, whatever the stream says) and
//! what each card is (a headline pointing elsewhere). Cards inside the body stay (the
//! author's own picks), and so do cards on a page whose body is a short introduction to
//! them, and the page's `main`.

use super::arena::Arena;
use super::hints::Kind;
use super::pruning::Pruning;
use super::score::Scores;

/// Cards a shelf has at least.
const MIN_CARDS: usize = 3;
/// Characters a teaser card holds at most (a headline, a blurb of a sentence or two, a
/// date): more is a section or a post.
const CARD_MAX_CHARS: u32 = 800;
/// Share of the group holder's characters inside teaser cards.
const CARDS_SHARE: f32 = 0.8;
/// Share of a heading's characters inside links for it to be a headline link.
const HEADLINE_LINKS: f32 = 0.5;
/// Share of the container's plain text the body holds for the shelves after it to go.
const BODY_LEADS: f32 = 0.25;
/// Plain characters of a body that is a story by itself, not a short introduction to
/// what follows it: the shelves after it go whatever they say.
const STORY_PLAIN: u32 = 1500;
/// Characters of a title line written without a heading (a block that is one link).
const TITLE_MIN_CHARS: u32 = 15;

/// Prunes shelves of teaser cards after the article's `body` inside the container.
pub(super) fn prune(
    arena: &Arena,
    scores: &Scores,
    body: Option<usize>,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    let Some(body) = body else { return };
    let nodes = &arena.nodes;
    let (container, end) = (prune.container(), prune.end());
    let body_end = body + nodes[body].size as usize;
    let body_plain = nodes[body].plain();
    let story = body_plain >= STORY_PLAIN;
    if !story && (body_plain as f32) < BODY_LEADS * nodes[container].plain() as f32 {
        return;
    }
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, body_end.max(container + 1), end);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if holds_forced[i] {
            walk.step_over();
        } else if scores.has_records[i] && (story || n.plain() < body_plain) && teaser_shelf(arena, i) {
            found.push(i);
            walk.step_over();
        }
    }
    prune.extend(found);
}

/// Whether the children of `holder` are mostly teaser cards, at least [`MIN_CARDS`], and
/// `holder` holds no `main`.
pub(super) fn teaser_shelf(arena: &Arena, holder: usize) -> bool {
    let nodes = &arena.nodes;
    // The page's `main` is no shelf beside the body.
    if nodes[holder].counts.mains > 0 {
        return false;
    }
    let (mut cards, mut card_chars) = (0, 0);
    for c in arena.children(holder) {
        let n = &nodes[c];
        if !n.dropped && teaser_card(arena, c) {
            cards += 1;
            card_chars += n.total.chars;
        }
    }
    cards >= MIN_CARDS && card_chars as f32 >= CARDS_SHARE * nodes[holder].total.chars as f32
}

/// A small card holding a heading that is (mostly) a link, or a title line written
/// without a heading: a block whose own text is one link of a few words, no picture in it
/// (a picture with its caption is a person or a logo, not a headline), in a card with
/// text besides its links (a date, a blurb).
pub(super) fn teaser_card(arena: &Arena, card: usize) -> bool {
    let nodes = &arena.nodes;
    let n = &nodes[card];
    if n.total.chars > CARD_MAX_CHARS || n.counts.links == 0 {
        return false;
    }
    if read_more_card(arena, card) {
        return true;
    }
    // A title line: text besides the links (a blurb, a date), one link long enough.
    let line = n.total.chars > n.total.link_chars && n.total.link_chars >= TITLE_MIN_CHARS;
    if n.counts.headings == 0 && !line {
        return false;
    }
    nodes[card + 1..card + n.size as usize]
        .iter()
        .any(|h| match h.kind {
            Kind::Heading => {
                h.total.chars > 0 && h.total.link_chars as f32 >= HEADLINE_LINKS * h.total.chars as f32
            }
            Kind::Block => {
                line && h.own.chars >= TITLE_MIN_CHARS
                    && h.own.link_chars == h.own.chars
                    && h.counts.links == 1
                    && h.counts.images == 0
            }
            _ => false,
        })
}

/// A card titled by a heading without a link whose one link is a "Read more" (a text the
/// phrases count as furniture) in its blurb: an excerpt pointing to the post it is from.
pub(super) fn read_more_card(arena: &Arena, card: usize) -> bool {
    let nodes = &arena.nodes;
    let n = &nodes[card];
    n.counts.headings > 0
        && n.counts.links == 1
        && nodes[card + 1..card + n.size as usize]
            .iter()
            .any(|b| b.own.links == 1 && b.own.furniture_nodes > 0 && b.own.chars > b.own.link_chars)
}
