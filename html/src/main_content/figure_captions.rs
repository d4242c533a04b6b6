//! Figure captions on an article page: a `<figcaption>` of a sentence describing the
//! picture beside it ("Hanami Dango, a snack often enjoyed during Sakura season") is the
//! picture's label, not the article's text. Captions stay when they number or source a
//! figure the text refers to ("Figure 1.", "Listing 9-3:", "Source: …"), hold inline code
//! (a diagram in technical writing), name the picture in a few words (under
//! [`MIN_WORDS`]), or caption no picture (a quote's attribution, a code listing).

use dom_query::Document;

use super::arena::Arena;
use super::closing_lines::{opening_of, opens_with};
use super::figcaptions;
use super::hints::Kind;
use super::pruning::Pruning;
use super::score::Scores;
use crate::dom::{is, local_name, with_element};

/// Words of a describing caption at least: shorter captions name what the picture shows
/// (a product, a place, a tool in a list of them), and the truths keep such names.
const MIN_WORDS: u32 = 6;

/// Openings of a caption that numbers or sources a figure the text refers to
/// ("Figure 1. …", "Table 2: …", "Source: …"); such captions stay. Sorted.
const NUMBERED: &[&str] = &[
    "chart", "diagram", "exhibit", "fig", "figure", "graph", "image", "listing", "map", "source", "sources",
    "step", "table",
];

/// Prunes the describing captions of the pictures inside the container.
pub(super) fn prune(
    doc: &Document,
    arena: &Arena,
    scores: &Scores,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    if !scores.article_page {
        return;
    }
    let nodes = &arena.nodes;
    let found: Vec<usize> = figcaptions::kept(doc, arena, prune)
        .into_iter()
        .filter(|&i| {
            let n = &nodes[i];
            !holds_forced[i]
                && !n.forced
                && n.total.words >= MIN_WORDS
                && beside_picture(arena, i)
                && !holds_code(doc, arena, i)
                && !opens_with(NUMBERED, opening_of(doc, n.id).bytes())
        })
        .collect();
    prune.extend(found);
}

/// Whether the caption's parent (its `<figure>`) holds a picture or a video besides it, or
/// no other text: a caption of a quote or a code listing is not a picture's.
fn beside_picture(arena: &Arena, i: usize) -> bool {
    let nodes = &arena.nodes;
    let parent = nodes[i].parent as usize;
    let (cap_end, end) = (i + nodes[i].size as usize, parent + nodes[parent].size as usize);
    // A figure holding nothing else with text: its picture comes from a script (a video
    // player's placeholder, a lazy image's empty box).
    nodes[parent].total.words == nodes[i].total.words
        || (parent + 1..i)
            .chain(cap_end..end)
            .any(|j| matches!(nodes[j].kind, Kind::Image | Kind::Media))
}

/// Whether the caption holds inline code: a diagram's caption in technical writing.
fn holds_code(doc: &Document, arena: &Arena, i: usize) -> bool {
    let end = i + arena.nodes[i].size as usize;
    (i + 1..end).any(|j| {
        arena.nodes[j].kind == Kind::Inline
            && with_element(&doc.tree, arena.nodes[j].id, |el| is(el, &local_name!("code"))).unwrap_or(false)
    })
}
