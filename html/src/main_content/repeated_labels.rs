//! Labels of a template repeated down an article: a gallery writes "Mouseover photo to
//! load notes", the slideshow's title or the agency's credit beside each of its pictures.
//! A short text (3 to 12 words) beside a picture (its parent holds an image) that a page
//! reading as an article repeats word for word in [`MIN_REPEATS`] blocks or more is the
//! template's, not the author's: every copy goes, the first too ([`super::select`]'s rule
//! for repeats keeps the first copy and skips short texts). Shorter texts (a field's name,
//! "Price", "In stock"), headings, texts with a colon (a guide's "Why use it:" in each of
//! its parts), list items, table cells and code stay.

use dom_query::{Document, NodeData, NodeId};

use super::arena::Arena;
use super::hints::Kind;
use super::pruning::Pruning;
use super::score::Scores;
use crate::dom::Walker;

/// Blocks holding the same short text, at least.
const MIN_REPEATS: usize = 5;
/// Words of a label at most, and at least (a field's name, "Price", "In stock", repeats
/// in every record of an article's table of offers; a section's heading in every part of
/// a guide).
const LABEL_WORDS: u32 = 12;
const LABEL_MIN_WORDS: u32 = 3;

/// Prunes short texts repeated in [`MIN_REPEATS`] blocks or more on an article page.
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
    let (container, end) = (prune.container(), prune.end());
    let mut labels: Vec<(u64, usize)> = Vec::new();
    let mut walk = prune.kept(nodes, container + 1, end);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if matches!(n.kind, Kind::Item | Kind::Cell | Kind::Pre) {
            walk.step_over();
            continue;
        }
        let words = n.own.words;
        let label =
            n.is_block() && n.kind != Kind::Heading && (LABEL_MIN_WORDS..=LABEL_WORDS).contains(&words);
        // Beside a picture: its parent holds an image (a gallery's slide, a video's card).
        let by_picture = nodes[n.parent as usize].counts.images > 0;
        if label && by_picture && n.total.words <= LABEL_WORDS {
            labels.push((n.own_hash, i));
            walk.step_over();
        }
    }
    if labels.len() < MIN_REPEATS {
        return;
    }
    labels.sort_unstable();
    let mut found = Vec::new();
    for run in labels.chunk_by(|a, b| a.0 == b.0) {
        // A field's name with its value ("Team size: 11–50", "Why use it:") in every part
        // of a guide is the guide's text.
        if run.len() >= MIN_REPEATS && !has_colon(doc, nodes[run[0].1].id) {
            found.extend(
                run.iter()
                    .map(|&(_, i)| i)
                    .filter(|&i| !nodes[i].forced && !holds_forced[i]),
            );
        }
    }
    prune.extend(found);
}

/// Whether the text of the element `id` holds a colon.
fn has_colon(doc: &Document, id: NodeId) -> bool {
    Walker::new(&doc.tree, id).any(|node| {
        doc.tree
            .query_node(
                &node,
                |n| matches!(&n.data, NodeData::Text { contents } if contents.contains(':')),
            )
            .unwrap_or(false)
    })
}
