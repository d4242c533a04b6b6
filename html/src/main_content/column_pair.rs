//! Two columns side by side at the top of the container, one named as the page's content
//! (`main-content`, `col1 content`) and the other unnamed and mostly links (a theme's
//! second column: tabs of "most read" lists, a box of links, an ad's call): the second
//! goes. A short post (a few paragraphs under a headline) does not read as an article,
//! so none of the article rules runs, and the column's links were kept beside it as the
//! container's. Only the one-level pair counts: a third column, a named second column,
//! or a second column with as much plain text as the first leaves both.

use super::arena::{Arena, Node};
use super::pruning::Pruning;

/// Share of the second column's text inside links, at least.
const LINKS: f32 = 0.6;
/// Links the second column holds at least (a post's linked title and byline above its
/// text are two columns of one or two links).
const MIN_LINKS: u32 = 5;
/// The same for a column before the named one.
const MIN_LINKS_BEFORE: u32 = 10;
/// Wrappers of one child with text looked through for a column's name.
const NAME_DEPTH: usize = 2;

/// Prunes the unnamed link column beside the column named as content.
pub(super) fn prune(arena: &Arena, holds_forced: &[bool], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    // Down the single-child wrappers to the first element with two children with text.
    let mut at = prune.container();
    let (a, b) = loop {
        let mut kids = arena.children(at).filter(|&c| !prune.skips(c, &nodes[c]));
        let (Some(first), second) = (kids.next(), kids.next()) else {
            return;
        };
        match second {
            None => at = first,
            Some(second) if kids.next().is_none() => break (first, second),
            Some(_) => return,
        }
    };
    // Named itself or through the wrappers holding its one child with text.
    let named = |mut i: usize| {
        for _ in 0..=NAME_DEPTH {
            let n = &nodes[i];
            if n.words.content_word && n.words.score > 0 && !n.words.strong_chrome {
                return true;
            }
            let mut kids = arena.children(i).filter(|&c| !prune.skips(c, &nodes[c]));
            match (kids.next(), kids.next()) {
                (Some(only), None) => i = only,
                _ => return false,
            }
        }
        false
    };
    let links = |n: &Node| n.words.score <= 0 && n.total.link_density() >= LINKS;
    // A column before the text needs more links: a post's header there (its linked
    // title, date, byline and category links) is a few.
    for (main, side, min_links) in [(a, b, MIN_LINKS), (b, a, MIN_LINKS_BEFORE)] {
        let (m, s) = (&nodes[main], &nodes[side]);
        let side_ok = links(s) && s.counts.links >= min_links && !s.forced && !holds_forced[side];
        if side_ok && s.plain() < m.plain() && named(main) && !named(side) {
            prune.push(side);
            return;
        }
    }
}
