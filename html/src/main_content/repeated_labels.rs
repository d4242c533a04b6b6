//! Labels of a template repeated down an article: a gallery writes "Mouseover photo to
//! load notes", the slideshow's title or the agency's credit beside each of its pictures.
//! A short text (3 to 12 words) beside a picture (its parent holds an image) that a page
//! reading as an article repeats word for word in [`MIN_REPEATS`] blocks or more is the
//! template's, not the author's: every copy goes, the first too ([`super::select`]'s rule
//! for repeats keeps the first copy and skips short texts). Shorter texts (a field's name,
//! "Price", "In stock"), headings, texts with a colon (a guide's "Why use it:" in each of
//! its parts), list items, table cells and code stay. Two shapes of caption count too: a
//! definition list's description (`<dd>`) beside the term holding the picture (the
//! `wp-caption` figure's "Photo courtesy of …"), and a label hidden until a script shows
//! it (an editing form's "Img ID#123 Title:" per picture), compared without its digits
//! and whatever its colon.

use dom_query::{Document, NodeData, NodeId};

use super::arena::Arena;
use super::hints::Kind;
use super::letter_hash::LetterHash;
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
    // Off article pages only the captions of definition-list figures are read.
    let article = scores.article_page;
    let nodes = &arena.nodes;
    let (container, end) = (prune.container(), prune.end());
    let mut labels: Vec<(u64, usize)> = Vec::new();
    let mut walk = prune.kept(nodes, container + 1, end);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        // Beside a picture: its parent holds an image (a gallery's slide, a video's card).
        let by_picture = nodes[n.parent as usize].counts.images > 0;
        let caption = n.kind == Kind::Item && by_picture && n.counts.images == 0 && is_dd(doc, n.id);
        if matches!(n.kind, Kind::Item | Kind::Cell | Kind::Pre) && !caption {
            walk.step_over();
            continue;
        }
        let words = n.own.words;
        let label =
            n.is_block() && n.kind != Kind::Heading && (LABEL_MIN_WORDS..=LABEL_WORDS).contains(&words);
        if label && by_picture && (article || caption) && n.total.words <= LABEL_WORDS {
            // A hidden label is a template's field: its number (the picture's) set aside.
            let key = if n.hidden {
                letters_hash(doc, n.id)
            } else {
                n.own_hash
            };
            labels.push((key, i));
            walk.step_over();
            continue;
        }
        // Without a picture in it, nothing below is beside one.
        if n.counts.images == 0 {
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
        // of a guide is the guide's text; a hidden one is an editing form's.
        let first = &nodes[run[0].1];
        if run.len() >= MIN_REPEATS && (first.hidden || !has_colon(doc, first.id)) {
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

/// Whether the element `id` is a definition list's description (`<dd>`).
fn is_dd(doc: &Document, id: NodeId) -> bool {
    doc.tree
        .query_node(
            &id,
            |n| matches!(&n.data, NodeData::Element(el) if el.name.local == crate::dom::local_name!("dd")),
        )
        .unwrap_or(false)
}

/// A hash of the letters of the text of the element `id` (lower-cased; every run of other
/// characters, digits included, counts as one separator).
fn letters_hash(doc: &Document, id: NodeId) -> u64 {
    let mut hash = LetterHash::new();
    for node in Walker::new(&doc.tree, id) {
        doc.tree.query_node(&node, |n| {
            if let NodeData::Text { contents } = &n.data {
                contents.chars().for_each(|c| hash.push(c));
            }
        });
    }
    hash.value()
}
