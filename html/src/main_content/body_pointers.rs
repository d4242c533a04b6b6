//! Blocks titled as pointers to other pages at the end of the article's body: the rule of
//! [`super::related`] leaves the body alone (an author's "Related resources" among the
//! post's sections are the author's), but after the body's last paragraph of prose a
//! "Related content:" or "More from …" list inside the body is the site's (a template
//! writing its links into the story's element). What stands before that paragraph stays.

use super::arena::Arena;
use super::pointer_titles::headed_blocks;
use super::pruning::Pruning;

/// Share of the container's characters the block may hold: more than
/// [`super::related`]'s, as only what follows the body's last prose is read (a template's
/// seven headlines under "More world stories from …" are a tenth of a short story's page).
const MAX_SHARE: f32 = 0.2;

/// Prunes pointer-titled blocks of links after the last prose paragraph of `body`.
pub(super) fn prune(arena: &Arena, body: Option<usize>, holds_forced: &[bool], prune: &mut Pruning) {
    let Some(body) = body else { return };
    let nodes = &arena.nodes;
    let body_end = body + nodes[body].size as usize;
    if nodes[body].total.related_titles == 0 {
        return;
    }
    let Some(last) = super::closing_lines::last_prose(arena, body, prune) else {
        return;
    };
    let max_chars = MAX_SHARE * nodes[prune.container()].total.chars as f32;
    let from = last + nodes[last].size as usize;
    let found = headed_blocks(nodes, prune, from, body_end, |t| {
        super::related::titled_block(arena, t, body, holds_forced, max_chars)
    });
    prune.extend(found);
}
