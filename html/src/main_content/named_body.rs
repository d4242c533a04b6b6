//! The element a page names as its article's body (`entry-content`, `post-content`,
//! `itemprop=articleBody`, `<article>`) holding the most plain text still kept in the
//! container, with prose in it (few links): where the author said the post is, for the
//! passes that need the body when its share of the prose does not show it (a short post
//! beside a side column, or above a row of teasers whose blurbs say as much as it).

use super::arena::Arena;
use super::hints::Landmark;
use super::pruning::Pruning;

/// Plain characters of the named body at least, and its link share at most.
const BODY_PLAIN: u32 = 200;
const BODY_LINKS: f32 = 0.3;

/// The named body inside the container, if any holds [`BODY_PLAIN`] characters.
pub(super) fn find(arena: &Arena, prune: &Pruning) -> Option<usize> {
    let nodes = &arena.nodes;
    let mut best: Option<(usize, u32)> = None;
    for i in prune.kept(nodes, prune.container(), prune.end()) {
        let n = &nodes[i];
        let named = n.words.article_body || n.landmark == Landmark::Article;
        let plain = n.total.chars - n.total.link_chars;
        if named
            && plain >= BODY_PLAIN
            && n.total.link_density() <= BODY_LINKS
            && best.is_none_or(|(_, b)| plain > b)
        {
            best = Some((i, plain));
        }
    }
    best.map(|(i, _)| i)
}
