//! Scores: each block's text gets a value — positive for content-like text (prose, headings,
//! long link titles in listings), negative for chrome-like text (short links, anything inside
//! navigation, headers, footers, sidebars, sharing and ad widgets). A subtree's score is the
//! sum of its blocks' values, so the best container is the subtree with the highest sum: it
//! takes in a neighbouring region exactly when that region adds more content than chrome.

use super::arena::{Arena, Node};
use super::hints::{Kind, Landmark};

/// Context inherited from ancestors.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Ctx {
    /// Inside page chrome (navigation, banner, footer, sidebar, form, chrome class words).
    pub chrome: bool,
    /// Inside a comment section of an article-like page.
    pub comments: bool,
    /// Inside `main`/`article`/content class words.
    pub content: bool,
}

pub(super) struct Scores {
    pub ctx: Vec<Ctx>,
    /// Value of the text each element owns as a block.
    pub own: Vec<f32>,
    /// Sum over the subtree.
    pub sum: Vec<f32>,
}

/// Share of the page's plain (non-link) text above which an element's chrome hints are
/// ignored: a "sidebar-layout" wrapper around the whole page is not a sidebar.
const PROTECT_SHARE: f32 = 0.4;

pub(super) fn score(arena: &Arena) -> Scores {
    let nodes = &arena.nodes;
    let n = nodes.len();
    let page_plain = plain(&nodes[0]).max(1) as f32;
    let protected = |node: &Node| plain(node) as f32 >= PROTECT_SHARE * page_plain;

    // Comments are content when they are most of the page (a forum thread), chrome when
    // they follow an article.
    let mut comment_chars = 0u32;
    {
        let mut i = 0;
        while i < n {
            if nodes[i].words.comments && !nodes[i].dropped {
                comment_chars += plain(&nodes[i]);
                i += nodes[i].size as usize;
            } else {
                i += 1;
            }
        }
    }
    let comments_are_content = comment_chars as f32 >= 0.5 * page_plain;

    let mut ctx = vec![Ctx::default(); n];
    let mut own = vec![0f32; n];
    for i in 0..n {
        let node = &nodes[i];
        let mut c = if node.parent == u32::MAX { Ctx::default() } else { ctx[node.parent as usize] };
        let chrome_mark = matches!(
            node.landmark,
            Landmark::Nav | Landmark::Banner | Landmark::Footer | Landmark::Aside | Landmark::Form
        ) || node.words.score <= -3
            || node.listed;
        let content_mark = matches!(node.landmark, Landmark::Main | Landmark::Article)
            || node.words.score >= 2
            || node.forced;
        if node.forced {
            c.chrome = false;
        }
        if chrome_mark && !node.forced && !protected(node) {
            c.chrome = true;
        }
        if node.words.comments && !comments_are_content && !protected(node) {
            c.comments = true;
        }
        if content_mark && !chrome_mark {
            c.content = true;
        }
        ctx[i] = c;
        own[i] = block_value(node, c);
    }
    let mut sum = own.clone();
    for i in (1..n).rev() {
        if nodes[i].dropped {
            sum[i] = 0.0;
            continue;
        }
        let p = nodes[i].parent as usize;
        sum[p] += sum[i];
    }
    Scores { ctx, own, sum }
}

/// Non-link characters of a subtree.
pub(super) fn plain(node: &Node) -> u32 {
    node.total.chars - node.total.link_chars
}

/// Value of the text an element owns as a block.
fn block_value(node: &Node, ctx: Ctx) -> f32 {
    if node.dropped {
        return 0.0;
    }
    let t = &node.own;
    if t.chars == 0 {
        return 0.0;
    }
    let chars = t.chars as f32;
    if ctx.chrome || ctx.comments {
        return -chars;
    }
    let link = t.link_chars as f32;
    let plain = chars - link;
    let prose = t.words >= 12 || t.punct >= 2;
    let plain_weight = match node.kind {
        Kind::Heading | Kind::Pre => 1.0,
        _ if prose => 1.0,
        _ => 0.6,
    };
    // Link text: a long anchor is a title (a listing's item); short anchors are menus.
    let per_link = if t.links > 0 { link / t.links as f32 } else { link };
    let link_weight = if per_link >= 30.0 && plain < link { 0.3 } else { -0.6 };
    let mut v = plain * plain_weight + link * link_weight;
    if node.kind == Kind::Button {
        v = -chars;
    }
    if ctx.content && v > 0.0 {
        v *= 1.25;
    }
    v
}
