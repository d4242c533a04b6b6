//! Datelines before an article's body: the post's date printed above it as a line of its
//! own, written as a `<time>` element ("December 19, 2025", "Published 12.22.14"). It
//! dates the page, it is not what the page says, and the ground truths leave it out
//! (bylines stay: a line with more than a short label besides its `<time>` is not read).
//! Only lines before the first paragraph of prose go, on article pages, and only when no
//! `<time>` of the same template follows that paragraph: a forum's posts and a list's
//! entries each print theirs, and they stay, as do dates inside the text.

use dom_query::Document;

use super::arena::Arena;
use super::hints::Kind;
use super::inline_lines;
use super::pruning::Pruning;
use crate::dom::{is, local_name, with_element};

/// Words of its own a dateline's block holds at most (a date and time, a label).
const MAX_WORDS: u32 = 12;
/// Words besides the `<time>` a dateline holds at most ("Published", "Updated on").
const MAX_LABEL_WORDS: u32 = 2;

/// Prunes the datelines before the container's first paragraph of prose.
pub(super) fn prune(doc: &Document, arena: &Arena, holds_forced: &[bool], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    let mut found = Vec::new();
    // The found dates' template signatures.
    let mut sigs = Vec::new();
    let mut first_prose = None;
    let mut walk = prune.kept(nodes, prune.container() + 1, prune.end());
    while let Some(b) = walk.next() {
        let n = &nodes[b];
        if n.is_prose_paragraph() {
            first_prose = Some(b);
            break;
        }
        if !n.is_block() || n.own.words == 0 || n.own.words > MAX_WORDS || holds_forced[b] || n.forced {
            continue;
        }
        let Some((time, words)) = time_in(doc, arena, b) else {
            continue;
        };
        if n.own.words > words + MAX_LABEL_WORDS {
            continue;
        }
        if n.total.words == n.own.words {
            // The block is the line: it goes whole.
            found.push(b);
            sigs.push(nodes[time].sig);
            walk.step_over();
        } else if inline_lines::stands_alone(doc, arena, time).is_some() {
            // A line inside a block that holds more (the headline, the byline).
            found.push(time);
            sigs.push(nodes[time].sig);
        }
    }
    let Some(first) = first_prose else { return };
    if found.is_empty() {
        return;
    }
    // The dates' templates: one printed again after the body's start is a post's or an
    // entry's, and every line found stays.
    let repeated = prune.kept(nodes, first, prune.end()).any(|b| {
        nodes[b].own.words > 0 && time_in(doc, arena, b).is_some_and(|(t, _)| sigs.contains(&nodes[t].sig))
    });
    if repeated {
        return;
    }
    prune.extend(found);
}

/// The first `<time>` element of the text block `b` owns, with its words.
fn time_in(doc: &Document, arena: &Arena, b: usize) -> Option<(usize, u32)> {
    let nodes = &arena.nodes;
    let end = b + nodes[b].size as usize;
    (b + 1..end)
        .filter(|&j| nodes[j].block as usize == b && nodes[j].kind == Kind::Inline)
        .find(|&j| with_element(&doc.tree, nodes[j].id, |el| is(el, &local_name!("time"))).unwrap_or(false))
        .map(|j| (j, inline_lines::words_of(&doc.tree, nodes[j].id)))
        .filter(|&(_, w)| w > 0)
}
