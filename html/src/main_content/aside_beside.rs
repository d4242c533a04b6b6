//! Side columns marked as such beside an article marked as such: when the container holds
//! an element the page names as its article (`<article>`, `role=article`,
//! `itemprop=articleBody`) with prose in it, an `<aside>` (`role=complementary`) beside it
//! (a sibling of it or of one of its wrappers) is the page's side column, whatever it
//! holds (a live feed with its blurbs, a column of teasers): the scoring keeps such an
//! aside when it holds half the page, as a layout area, and a feed's blurbs are prose. An
//! aside inside the article (a call-out), around it (a theme's misnamed wrapper) or inside
//! another post of a thread stays.

use super::arena::{Arena, Node};
use super::hints::Landmark;
use super::pruning::Pruning;
use super::score::Scores;

/// Plain characters of the named article at least, and its link share at most.
const ARTICLE_PLAIN: u32 = 600;
const ARTICLE_LINKS: f32 = 0.3;

/// Prunes `<aside>` landmarks beside the container's named article.
pub(super) fn prune(arena: &Arena, scores: &Scores, holds_forced: &[bool], prune: &mut Pruning) {
    if !scores.article_page {
        return;
    }
    let nodes = &arena.nodes;
    let (container, end) = (prune.container(), prune.end());
    let named = |i: usize, n: &Node| {
        n.landmark == Landmark::Article
            && !prune.skips(i, n)
            && n.total.chars - n.total.link_chars >= ARTICLE_PLAIN
            && n.total.link_density() <= ARTICLE_LINKS
    };
    let Some(article) = (container..end).find(|&i| named(i, &nodes[i])) else {
        return;
    };
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, container + 1, end);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if i == article {
            walk.step_over();
            continue;
        }
        let holds_article = |j: usize| j < article && article < j + nodes[j].size as usize;
        // Beside the article: a sibling of the article or of one of its wrappers (an
        // aside inside another post of a thread is that post's).
        let beside = !holds_article(i) && holds_article(n.parent as usize);
        if n.landmark == Landmark::Aside && beside && !n.forced && !holds_forced[i] {
            found.push(i);
            walk.step_over();
        }
    }
    prune.extend(found);
}
