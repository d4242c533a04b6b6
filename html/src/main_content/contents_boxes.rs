//! A table of contents: a box of links to the page's own sections under a short title
//! ("In this article", "Contents", "Jump to:", "Table of Contents"). Every link of the box
//! points to a fragment of one and the same address (`#topic1`, `page#step-2`), and
//! the box says nothing else but its title. It repeats the headings the text holds
//! anyway; the ground truths leave it out. A list of the sections written into the
//! prose ("These are the top trends in the cleaning industry for 2025:" over the
//! links, or a list right after the paragraph announcing it) has no such title and
//! stays, as do untitled tab strips, pagers written as bare `#` links (no section
//! named), a forum post's header repeating its one permalink, and footnote markers
//! (prose around them).

use dom_query::Document;

use super::arena::Arena;
use super::hints::Kind;
use super::pruning::Pruning;
use crate::dom::{attr, local_name, with_element};

/// Links to sections a table of contents holds at least.
const MIN_LINKS: u32 = 3;
/// Words outside the links at most: the box's title.
const TITLE_WORDS: u32 = 4;

/// Prunes the tables of contents inside the container.
pub(super) fn prune(doc: &Document, arena: &Arena, holds_forced: &[bool], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, prune.container() + 1, prune.end());
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        // Tables and code are data: a code listing's gutter of numbered line anchors is
        // no table of contents. An inline element may wrap blocks (a page builder's
        // `span` around the post): the walk goes into it.
        if matches!(
            n.kind,
            Kind::Table | Kind::Cell | Kind::Pre | Kind::Image | Kind::Break | Kind::Media
        ) {
            walk.step_over();
            continue;
        }
        if !n.is_block() {
            continue;
        }
        if holds_forced[i] || n.forced || n.counts.links < MIN_LINKS {
            continue;
        }
        let outside = n.total.words.saturating_sub(n.total.link_words);
        if outside > TITLE_WORDS {
            continue;
        }
        let Some(first) = section_links(doc, arena, i) else {
            continue;
        };
        let titled = if outside > 0 {
            title_words(arena, i, first) == outside
        } else {
            titled_before(arena, i, prune.container())
        };
        if titled {
            found.push(i);
            walk.step_over();
        }
    }
    prune.extend(found);
}

/// When every link in the subtree of `i` points to a fragment of one address and at
/// least [`MIN_LINKS`] distinct fragments are named (sections, not one post's
/// permalink repeated), the arena index of the first link naming one.
fn section_links(doc: &Document, arena: &Arena, i: usize) -> Option<usize> {
    let end = i + arena.nodes[i].size as usize;
    let mut address: Option<String> = None;
    let mut fragments: Vec<String> = Vec::new();
    let mut first = None;
    for (j, n) in arena.nodes[i + 1..end].iter().enumerate() {
        if n.kind != Kind::Link {
            continue;
        }
        // Whether the link keeps to one address, and the fragment it names if new.
        let (same, fragment) = with_element(&doc.tree, n.id, |el| {
            let (before, fragment) = attr(el, &local_name!("href"))?.split_once('#')?;
            let same = match &address {
                Some(a) => a == before,
                None => {
                    address = Some(before.to_string());
                    true
                }
            };
            let new = !fragment.is_empty() && !fragments.iter().any(|f| f == fragment);
            Some((same, new.then(|| fragment.to_string())))
        })
        .flatten()?;
        if !same {
            return None;
        }
        if let Some(fragment) = fragment {
            first.get_or_insert(i + 1 + j);
            if fragments.len() < MIN_LINKS as usize {
                fragments.push(fragment);
            }
        }
    }
    (fragments.len() >= MIN_LINKS as usize).then_some(first).flatten()
}

/// Words outside links of the blocks inside `i` that end before its first section link
/// `first`: the box's title, when it opens the box in a block of its own.
fn title_words(arena: &Arena, i: usize, first: usize) -> u32 {
    let nodes = &arena.nodes;
    let mut words = 0;
    let mut k = i;
    while k < first {
        let n = &nodes[k];
        let end = k + n.size as usize;
        if !n.is_block() {
            k += 1;
        } else if end <= first {
            words += n.total.words.saturating_sub(n.total.link_words);
            k = end;
        } else {
            // An ancestor of the first link: its own text may follow the link (a
            // reference's page number after its back-links), so none of it is a title.
            k += 1;
        }
    }
    words
}

/// Whether the block just before `i` is a short title: a heading, paragraph or box of
/// at most [`TITLE_WORDS`] words without links. The title may stand before a wrapper
/// that opens with the list (a page builder's modules), and may be pruned already (a
/// furniture title: "Table of contents").
fn titled_before(arena: &Arena, i: usize, container: usize) -> bool {
    let nodes = &arena.nodes;
    let mut cur = i;
    while cur > container {
        let parent = nodes[cur].parent as usize;
        let mut before = None;
        for c in arena.children(parent) {
            if c == cur {
                break;
            }
            if !nodes[c].dropped && nodes[c].total.chars > 0 {
                before = Some(c);
            }
        }
        if let Some(b) = before {
            let t = &nodes[b];
            return matches!(t.kind, Kind::Heading | Kind::Para | Kind::Block)
                && t.counts.links == 0
                && (1..=TITLE_WORDS).contains(&t.total.words);
        }
        cur = parent;
    }
    false
}
