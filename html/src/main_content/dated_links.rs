//! Another post's dated headline after the article: a news or blog template links the
//! previous and the next story under the current one, each a block that is one link
//! holding the story's time (`<time>`, "5:45pm, EDT") and its headline. The article's own
//! text is not a link holding a time; a dated link inside the prose (a source's date) is
//! not a block of its own. Only blocks after the body's last paragraph of prose are read
//! (on an article page without a body, the container's).

use dom_query::{Document, NodeData};

use super::arena::Arena;
use super::closing_lines::{blocks_after, closing_prose};
use super::pruning::Pruning;
use crate::dom::local_name;

/// Words of a dated headline block at most (a time, a date and a headline).
const MAX_WORDS: u32 = 30;

/// Prunes the blocks after the body's last prose that are one link holding a `<time>`.
pub(super) fn prune(
    doc: &Document,
    arena: &Arena,
    body: Option<usize>,
    article_page: bool,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    let Some(last) = closing_prose(arena, body, article_page, prune) else {
        return;
    };
    let nodes = &arena.nodes;
    let found = blocks_after(arena, last, MAX_WORDS, holds_forced, prune, None, |i, _| {
        let n = &nodes[i];
        let one_link = n.counts.links == 1 && n.total.chars > 0 && n.total.link_chars == n.total.chars;
        one_link && holds_time(doc, arena, i)
    });
    prune.extend(found);
}

/// Whether the subtree of `i` holds a `<time>` element.
fn holds_time(doc: &Document, arena: &Arena, i: usize) -> bool {
    let nodes = &arena.nodes;
    (i..i + nodes[i].size as usize).any(|j| {
        doc.tree
            .query_node(
                &nodes[j].id,
                |n| matches!(&n.data, NodeData::Element(el) if el.name.local == local_name!("time")),
            )
            .unwrap_or(false)
    })
}
