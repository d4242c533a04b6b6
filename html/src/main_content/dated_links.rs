//! Another post's dated headline after the article: a news or blog template links the
//! previous and the next story under the current one, each a block that is one link
//! holding the story's time (`<time>`, "5:45pm, EDT") and its headline. The article's own
//! text is not a link holding a time; a dated link inside the prose (a source's date) is
//! not a block of its own. Only blocks after the body's last paragraph of prose are read
//! (on an article page without a body, the container's).

use dom_query::{Document, NodeData};

use super::arena::Arena;
use super::closing_lines::last_prose;
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
    let body = body.or(article_page.then(|| prune.container()));
    let Some(last) = body.and_then(|body| last_prose(arena, body, prune)) else {
        return;
    };
    let nodes = &arena.nodes;
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, last + nodes[last].size as usize, prune.end());
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if holds_forced[i] || n.forced {
            walk.step_over();
            continue;
        }
        let one_link = n.counts.links == 1 && n.total.chars > 0 && n.total.link_chars == n.total.chars;
        if n.is_block() && one_link && n.total.words <= MAX_WORDS && holds_time(doc, arena, i) {
            found.push(i);
            walk.step_over();
        }
    }
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
