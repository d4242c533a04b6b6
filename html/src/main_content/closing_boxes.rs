//! Boxes named as closing a post, after it: the theme's card about the writer
//! (`blog-author`, `post-author-block`, `BlogAuthorProfile`, `contributor`, `#author`) with
//! a name, a title and a biography, and the slot a theme or plugin fills under every post
//! (`after-content`, `below-content`, `under-post`: an appeal, a promotion, a notice). The
//! class or id names the box; its place says it is not the byline: only boxes after the
//! post's last paragraph of prose outside such a box (a biography is prose too) go, on
//! article pages. A box holding half the container's words or more is not a box but the
//! post, and one of a template its siblings share is an entry of a list (a listing's posts,
//! classed with their writer's name: `author-ann-lee`).

use super::arena::Arena;
use super::closing_lines::last_prose_where;
use super::pruning::Pruning;

/// Words a box holds at most: a name, a title, a biography of a few sentences and the links
/// under it; an appeal of a paragraph or two.
const MAX_WORDS: u32 = 250;
/// Words it holds at least: a line of fewer ("Written by: Ann on May 2, 2012") is a byline,
/// which some ground truths keep.
const MIN_WORDS: u32 = 10;

/// Prunes, on an article page, the boxes named for the writer or for the slot after the post
/// after the last paragraph of prose of the post's `body` (of the container when none was
/// found).
pub(super) fn prune(
    arena: &Arena,
    body: Option<usize>,
    article_page: bool,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    if !article_page {
        return;
    }
    let nodes = &arena.nodes;
    let container = prune.container();
    let half = nodes[container].total.words / 2;
    let is_box = |i: usize| {
        let n = &nodes[i];
        (n.words.writer || n.words.after_post)
            && n.is_block()
            && (MIN_WORDS..=MAX_WORDS.min(half)).contains(&n.total.words)
            && one_of_a_kind(arena, i)
    };
    // A paragraph inside a box (below the container) is the box's (a biography, an appeal).
    let in_box = |j: usize| {
        let mut a = nodes[j].parent as usize;
        while a > container && a != u32::MAX as usize {
            if is_box(a) {
                return true;
            }
            a = nodes[a].parent as usize;
        }
        false
    };
    let Some(last) = last_prose_where(arena, body.unwrap_or(container), prune, |j| !in_box(j)) else {
        return;
    };
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, last + nodes[last].size as usize, prune.end());
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if holds_forced[i] || n.forced {
            walk.step_over();
        } else if is_box(i) {
            found.push(i);
            walk.step_over();
        }
    }
    prune.extend(found);
}

/// Whether at most one sibling of the entry `i` shares its template (tag and first class
/// word): the post beside its writer's box (`div.post`, `div.post#author`) or two writers'
/// boxes, not a list's entries.
fn one_of_a_kind(arena: &Arena, i: usize) -> bool {
    let nodes = &arena.nodes;
    let parent = nodes[i].parent;
    parent == u32::MAX
        || arena
            .children(parent as usize)
            .filter(|&c| c != i && nodes[c].sig == nodes[i].sig)
            .nth(1)
            .is_none()
}
