//! A picture's credit written as its caption: a `<figcaption>` (or a block inside one)
//! of a few words opening with a credit label — "Image: Courtesy of …", "Photo credit:
//! …", "Image by … via …", "Credit: Amazon". It names who made the picture, not what
//! the article says; the ground truths leave it out. A caption that describes the
//! picture stays, even when its credit follows it in the same block ("Cycling is on the
//! rise in Houston. Photo: …"), as do bare agency names ("… / Getty Images", which some
//! truths keep) and a chart's "Source: …" line.

use dom_query::Document;

use super::arena::Arena;
use super::closing_lines::{opening_of, opens_with};
use super::figcaptions;
use super::pruning::Pruning;

/// Words of a credit at most (its label, a name, an agency).
const MAX_WORDS: u32 = 12;

/// Openings of a credit, lower case, each a whole word or words; sorted.
const LABELS: &[&str] = &[
    "courtesy",
    "credit",
    "credits",
    "image by",
    "image courtesy",
    "image credit",
    "image via",
    "image:",
    "images by",
    "images courtesy",
    "images:",
    "photo by",
    "photo courtesy",
    "photo credit",
    "photo via",
    "photo:",
    "photograph by",
    "photograph:",
    "photographs by",
    "photos by",
    "photos courtesy",
    "photos:",
    "picture by",
    "picture:",
];

/// Prunes the credits among the captions inside the container.
pub(super) fn prune(doc: &Document, arena: &Arena, holds_forced: &[bool], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    let mut found = Vec::new();
    for i in figcaptions::kept(doc, arena, prune) {
        // The caption itself, or the blocks inside it (a description, then its credit).
        let mut inner = prune.kept(nodes, i, i + nodes[i].size as usize);
        while let Some(j) = inner.next() {
            let c = &nodes[j];
            if !c.is_block() {
                continue;
            }
            if !holds_forced[j] && !c.forced && c.total.words <= MAX_WORDS && credit(doc, arena, j) {
                found.push(j);
                inner.step_over();
            }
        }
    }
    prune.extend(found);
}

/// Whether the text of block `i` opens with one of [`LABELS`].
fn credit(doc: &Document, arena: &Arena, i: usize) -> bool {
    opens_with(LABELS, opening_of(doc, arena.nodes[i].id).bytes())
}

#[cfg(test)]
mod tests {
    use super::LABELS;

    #[test]
    fn labels_are_sorted() {
        assert!(LABELS.windows(2).all(|w| w[0] < w[1]));
    }
}
