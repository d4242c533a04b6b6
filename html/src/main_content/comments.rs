//! Reader comments: which elements start a comment section that is not the page's content.
//!
//! An element named `comment(s)` (`#comments`, `.comments-area`, `li.comment`) starts a
//! comment section when the page's own prose (an article, a post: outside chrome regions
//! and outside anything named as comments or replies) has been read before it: whatever
//! share of the page the thread holds, it comes after the thing it comments on. Forums
//! are told apart by their markup: posts named `reply`, `post` or `message` rather than
//! `comment`, an opening post named like its replies (it is then no article read before
//! them) or built from the same template as a sibling (`forum-post`, then `forum-post
//! forum-post-reply`), and comments inside an element named as a thread, topic, forum or
//! discussion. A block that is one comment's text (no nested blocks: a review's or a
//! seller's comment field) is not a section. Without an article before them, the share
//! rule decides: comments that are most of the page are its content (a forum thread, a
//! discussion page), smaller comment-named elements are chrome unless they are named as,
//! or sit inside, a thread (a short topic's posts on a page of cookie and app prompts).
//!
//! Comments are never part of `onlyMainContent` output: the ground truth of both
//! development corpora leaves them out, as trafilatura does by default
//! (`include_comments=False`). Should an option to include them come (upstream has none),
//! [`Section::AfterArticle`] marks what it would keep.

use super::arena::{Arena, Node};
use super::hints::{Kind, Landmark};

/// Prose characters (outside chrome and comments) that must come before a comment section
/// for it to be the comments of an article rather than the page's content.
const LEAD_MIN: u32 = 300;

/// The same for prose inside an element named as an article's body (`entry-content`,
/// `post-body`): a short post is still the article its comments follow.
const BODY_LEAD_MIN: u32 = 60;

/// Earlier siblings looked at for an opening post or the article's paragraphs (they come
/// first): bounds the work on threads of thousands of bare comments.
const SCAN_SIBLINGS: usize = 64;

/// Share of the page's plain text comment sections must hold together to be its content
/// when no article comes before them.
const CONTENT_SHARE: f32 = 0.5;
/// Share of the page's plain text above which one comment-named element is a wrapper
/// (of the page, of a thread) rather than a comment section, when no article precedes it.
const WRAPPER_SHARE: f32 = 0.4;

/// Share of the page's characters above which an element is the page's layout, whatever
/// chrome words its classes carry.
const LAYOUT_SHARE: f32 = 0.5;

/// Whether an element starts a comment section (it and its subtree are comments, not
/// content).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Section {
    No,
    /// A small comment-named element (a widget, a reply form, a post's comment count).
    Small,
    /// The comments of the article read before it.
    AfterArticle,
    /// The same, written beside the article's own paragraphs (no wrapper around the post
    /// alone) or as the bare items of a list with no comment-named wrapper: the container
    /// may have to hold both, and pruning takes the comments out.
    BesideArticle,
}

/// For each element, whether it starts a comment section.
pub(super) fn sections(arena: &Arena) -> Vec<Section> {
    let nodes = &arena.nodes;
    let n = nodes.len();
    let mut out = vec![Section::No; n];
    let page_plain = nodes[0].plain().max(1) as f32;
    let page_chars = nodes[0].total.chars.max(1) as f32;

    // Comments are content when they are most of the page (a forum thread).
    let mut comment_chars = 0u32;
    let mut i = 0;
    while i < n {
        if nodes[i].words.comments && !nodes[i].dropped {
            comment_chars += nodes[i].plain();
            i += nodes[i].size as usize;
        } else {
            i += 1;
        }
    }
    let comments_are_content = comment_chars as f32 >= CONTENT_SHARE * page_plain;

    // Prose read so far in document order, outside chrome regions and anything named as
    // comments (a forum's opening post named like its replies is not an article).
    let mut lead = 0u32;
    // The same inside an element named as an article's body (`entry-content`), and the end
    // of the one being walked through.
    let mut body_lead = 0u32;
    let mut body_end = 0usize;
    // End (arena index) of the chrome region or comment-named element being walked
    // through, if any: prose there is not the article's.
    let mut quiet_end = 0usize;
    // End of the element named as a forum thread being walked through, if any.
    let mut thread_end = 0usize;
    let mut i = 0;
    while i < n {
        let node = &nodes[i];
        if node.dropped || out[i] != Section::No {
            i += node.size as usize;
            continue;
        }
        // A chrome word on the element holding most of the page is a layout modifier
        // (`<body class="one-sidebar">`, `main--withSidebar`), not a region.
        let layout_wrapper = |node: &Node| {
            node.total.chars as f32 >= LAYOUT_SHARE * page_chars && node.total.link_density() < 0.5
        };
        if chrome_region(node) && !layout_wrapper(node) {
            quiet_end = quiet_end.max(i + node.size as usize);
        }
        let in_thread = i < thread_end;
        if node.words.thread && !node.words.comments && !node.words.boiler {
            thread_end = thread_end.max(i + node.size as usize);
        }
        let article_read = lead >= LEAD_MIN || body_lead >= BODY_LEAD_MIN;
        if article_read && !in_thread && i >= quiet_end && comment_title(node) {
            mark_titled_section(arena, i, &mut out);
            i += node.size as usize;
            continue;
        }
        if node.words.comments {
            let after_article = article_read
                && node.words.comment_word
                && !in_thread
                && node.own.chars * 2 < node.total.chars
                && !posts_template(arena, i);
            // A post of a thread (a comment-named element named as, or inside, a thread,
            // topic or forum) is the page's content however much chrome text surrounds it.
            let small = !comments_are_content
                && (node.plain() as f32) < WRAPPER_SHARE * page_plain
                && !in_thread
                && !node.words.thread;
            if after_article || small {
                out[i] = if !after_article {
                    Section::Small
                } else if beside_prose(arena, i) {
                    Section::BesideArticle
                } else {
                    Section::AfterArticle
                };
                i += node.size as usize;
                continue;
            }
            quiet_end = quiet_end.max(i + node.size as usize);
        }
        if i >= quiet_end && node.words.article_body {
            body_end = body_end.max(i + node.size as usize);
        }
        let t = &node.own;
        if i >= quiet_end && (t.words >= 12 || t.punct >= 2) {
            lead += t.chars - t.link_chars;
            if i < body_end {
                body_lead += t.chars - t.link_chars;
            }
        }
        i += 1;
    }
    free_bare_items(arena, &mut out);
    out
}

/// Comments marked one by one (`li.comment` in an unnamed list): when they are (nearly)
/// all of their parent's text, the parent is the thread, and its items cost the
/// container nothing, like one wrapper would once pruned.
fn free_bare_items(arena: &Arena, out: &mut [Section]) {
    let nodes = &arena.nodes;
    let mut i = 0;
    while i < nodes.len() {
        if out[i] == Section::AfterArticle && nodes[i].parent != u32::MAX {
            let p = nodes[i].parent as usize;
            let (mut items, mut chars) = (0u32, 0u32);
            for c in arena.children(p) {
                if out[c] == Section::AfterArticle {
                    items += 1;
                    chars += nodes[c].total.chars;
                }
            }
            if items >= 2 && chars as f32 >= 0.9 * nodes[p].total.chars as f32 {
                for c in arena.children(p) {
                    if out[c] == Section::AfterArticle {
                        out[c] = Section::BesideArticle;
                    }
                }
            }
            // The parent's other children are done with it.
            i = p + nodes[p].size as usize;
            continue;
        }
        i += 1;
    }
}

/// A heading titling a comment section ("12 Comments", "2 thoughts on …").
fn comment_title(node: &Node) -> bool {
    node.kind == Kind::Heading && node.total.comment_titles > 0 && node.total.words <= 16
}

/// Marks a comment section that only a heading announces (the comments are plain
/// siblings after it, as blog engines of the 2000s write them): the heading, or the
/// wrapper it is the only text of, and its following siblings up to the next heading
/// that titles something else.
fn mark_titled_section(arena: &Arena, heading: usize, out: &mut [Section]) {
    let nodes = &arena.nodes;
    let mut anchor = heading;
    while nodes[anchor].parent != 0
        && nodes[anchor].parent != u32::MAX
        && nodes[nodes[anchor].parent as usize].total.chars == nodes[anchor].total.chars
    {
        anchor = nodes[anchor].parent as usize;
    }
    let parent = nodes[anchor].parent;
    let section = if beside_prose(arena, anchor) {
        Section::BesideArticle
    } else {
        Section::AfterArticle
    };
    out[anchor] = section;
    if parent == u32::MAX {
        return;
    }
    for s in arena.children(parent as usize).filter(|&s| s > anchor) {
        let n = &nodes[s];
        let heading_like = n.counts.headings > 0 && n.total.words <= 16 && n.counts.blocks <= 2;
        if heading_like && n.total.comment_titles == 0 {
            break;
        }
        out[s] = section;
    }
}

/// Whether an earlier sibling is a paragraph of prose: the article's text sits in the
/// same parent as the comments.
fn beside_prose(arena: &Arena, i: usize) -> bool {
    let nodes = &arena.nodes;
    let parent = nodes[i].parent;
    parent != u32::MAX
        && arena
            .children(parent as usize)
            .take_while(|&c| c < i)
            .take(SCAN_SIBLINGS)
            .any(|c| nodes[c].kind == Kind::Para && nodes[c].own.words >= 12)
}

/// Whether an earlier sibling not named as comments is built from the same template
/// (`forum-post` then `forum-post forum-post-reply`): the posts of a thread, the first
/// one included, not comments under an article.
fn posts_template(arena: &Arena, i: usize) -> bool {
    let nodes = &arena.nodes;
    let parent = nodes[i].parent;
    if parent == u32::MAX {
        return false;
    }
    arena
        .children(parent as usize)
        .take_while(|&c| c < i)
        .take(SCAN_SIBLINGS)
        .any(|c| nodes[c].sig == nodes[i].sig && !nodes[c].words.comments && nodes[c].total.chars > 0)
}

/// A region whose markup names page chrome: its prose (a blurb in a sidebar, a site
/// description in the banner) is not the article's.
fn chrome_region(node: &Node) -> bool {
    matches!(
        node.landmark,
        Landmark::Nav | Landmark::Banner | Landmark::Footer | Landmark::Aside | Landmark::Dialog
    ) || node.words.boiler
        || (node.words.strong_chrome && !node.words.article_body)
}
