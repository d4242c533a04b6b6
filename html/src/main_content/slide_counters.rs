//! The slides of a slideshow on an article page: each slide a block whose heading opens
//! with its place in the show ("1/50 United going down", "2/50 …"), then a caption of
//! prose. A story's own sections are not numbered against a total; a slideshow's legends
//! are (a gallery widget written into the story's element, another story's pictures).
//! When [`MIN_SLIDES`] headings or more open with counters of one total, each slide (the
//! block the heading opens, one of a group of blocks built from one template) goes.

use dom_query::{Document, NodeData};

use super::arena::Arena;
use super::hints::Kind;
use super::pruning::Pruning;
use super::score::Scores;
use crate::dom::Walker;

/// Numbered slides a show has at least.
const MIN_SLIDES: usize = 5;
/// Words a slide's heading has at most.
const HEADING_WORDS: u32 = 20;

/// Prunes the slides of a show whose headings open with "k/N" counters.
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
    if (nodes[container].counts.headings as usize) < MIN_SLIDES {
        return;
    }
    // (total, slide)
    let mut slides: Vec<(u32, usize)> = Vec::new();
    let mut walk = prune.kept(nodes, container + 1, end);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if n.counts.headings == 0 {
            walk.step_over();
            continue;
        }
        if n.kind == Kind::Heading && n.total.words <= HEADING_WORDS {
            // A slide is one of a group of blocks built from one template.
            let slide = n.parent as usize;
            let in_group = slide > container && scores.has_records[nodes[slide].parent as usize];
            if in_group
                && !nodes[slide].forced
                && !holds_forced[slide]
                && let Some(total) = counter_total(doc, n.id)
            {
                slides.push((total, slide));
            }
            walk.step_over();
        }
    }
    if slides.len() < MIN_SLIDES {
        return;
    }
    slides.sort_unstable();
    let mut found = Vec::new();
    for run in slides.chunk_by(|a, b| a.0 == b.0) {
        if run.len() >= MIN_SLIDES && run[0].0 as usize >= MIN_SLIDES {
            found.extend(run.iter().map(|&(_, s)| s));
        }
    }
    prune.extend(found);
}

/// The total `N` when the text of the heading `id` opens with a counter `k/N` (or
/// `k of N`), `1 ≤ k ≤ N`.
fn counter_total(doc: &Document, id: dom_query::NodeId) -> Option<u32> {
    let mut text = String::new();
    for node in Walker::new(&doc.tree, id) {
        doc.tree.query_node(&node, |n| {
            if let NodeData::Text { contents } = &n.data {
                // Leading whitespace (the markup's indentation) is not kept.
                text.push_str(if text.is_empty() {
                    contents.trim_start()
                } else {
                    contents
                });
            }
        });
        if text.len() > 24 {
            break;
        }
    }
    let t = text.trim_start();
    let k_len = t.bytes().take_while(u8::is_ascii_digit).count();
    let k: u32 = t.get(..k_len)?.parse().ok()?;
    let rest = t[k_len..].trim_start();
    let rest = rest
        .strip_prefix('/')
        .or_else(|| rest.strip_prefix("of "))?
        .trim_start();
    let n_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let n: u32 = rest.get(..n_len)?.parse().ok()?;
    (k >= 1 && k <= n).then_some(n)
}
