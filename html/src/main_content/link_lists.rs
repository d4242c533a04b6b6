//! Headline lists beside an article: on an article page, the container often holds more
//! than the article — a side column or a row under the post with "Top stories", "Most
//! read", "Recent posts", archive months, a blogroll — each a list whose every item is a
//! link. The article's body is the element holding the page's longest run of paragraphs;
//! a list of links outside it (not in it, not around it) is not the article's. Lists inside
//! the body (a reading list, sources) stay, and so does anything on a page that does not
//! read as an article (a listing's grid, a hub's sections). After the body, where the
//! body is a good part of what the container says, blocks of links with a little text
//! (teasers with their blurbs, "more from" rows, a side column) go as well.

use super::arena::{Arena, Node};
use super::hints::Kind;
use super::pruning::Pruning;
use super::score::Scores;

/// Link share of a headline list: most of its text is its links (a headline's comment
/// count and its age, "6days 3hrs ago", beside each link are a quarter of it).
const LIST_LINKS: f32 = 0.75;
/// Links a headline list has at least (two links are a previous/next pair or a byline).
const LIST_MIN_LINKS: u32 = 3;
/// The same for a block of links without a list.
const BLOCK_MIN_LINKS: u32 = 4;
const BLOCK_LINKS: f32 = 0.85;
/// Characters besides the list its wrapper may hold to go with it (a heading: "Top
/// stories", "Recent posts").
const TITLE_MAX_CHARS: u32 = 60;
/// Share of the container's prose the article's body holds.
const BODY_SHARE: f32 = 0.75;
/// A block of links after the body: links it has at least, and their share of its text.
const AFTER_MIN_LINKS: u32 = 4;
const AFTER_LINKS: f32 = 0.25;
/// Share of the container's plain text the body holds for blocks of links after it to go.
const BODY_LEADS: f32 = 0.33;
/// A teaser card holds at most this multiple of its blurb's characters, and link text
/// outside the blurb (its title) of this many characters at least.
const CARD_OVER_BLURB: u32 = 3;
const CARD_TITLE_LINK: u32 = 15;
/// Links of a card whose blurb is wrapped on its own (a title, "read more", an author, a
/// category): more is a section with a list of links.
const CARD_MAX_LINKS: u32 = 5;
/// Link share of a wrapper that goes with its list.
const WRAPPER_LINKS: f32 = 0.6;

/// Prunes headline lists outside the article's body inside `container`; returns the
/// article's body on an article page.
pub(super) fn prune(
    arena: &Arena,
    scores: &Scores,
    holds_forced: &[bool],
    prune: &mut Pruning,
) -> Option<usize> {
    if !scores.article_page {
        return None;
    }
    let nodes = &arena.nodes;
    let (container, end) = (prune.container(), prune.end());
    let body = article_body(arena, container, end)?;
    let body_end = body + nodes[body].size as usize;
    let body_plain = nodes[body].plain();
    // The article is most of what the container says: on a page whose body is a short
    // introduction to a larger whole (a hub, a documentation index), what follows is not
    // its furniture.
    let after_body_furniture = body_plain as f32 >= BODY_LEADS * nodes[container].plain() as f32;
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, container + 1, end);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        // The body and what is inside it stay; its ancestors are walked through.
        if i == body {
            walk.step_over();
            continue;
        }
        if let Some(list) = stray_list(arena, scores, holds_forced, i, container, body) {
            found.push(list);
            walk.step_over();
        } else if after_body_furniture
            && i >= body_end
            && !n.forced
            && !holds_forced[i]
            && links_after_body(n, body_plain)
            && !has_kept_peer(arena, i, body_plain)
        {
            found.push(i);
            walk.step_over();
        }
    }
    found.dedup();
    prune.extend(found);
    Some(body)
}

/// After the article's body: a block of several links, a quarter of its text or more,
/// saying less than the body (teasers of other posts with their blurbs, a side column, a
/// post footer). What says more than the body is no furniture of it.
/// An element named as content (a thread's `message`: a short reply with its links)
/// is not furniture.
fn links_after_body(n: &Node, body_plain: u32) -> bool {
    n.words.score <= 0
        && n.counts.links >= AFTER_MIN_LINKS
        && n.total.link_density() >= AFTER_LINKS
        && n.plain() < body_plain
        && n.total.url_links * 2 < n.counts.links
}

/// Whether `i` is a list and a sibling list built from the same template (same tag and
/// first class word) is no block of links after the body: `i` is then one section of a
/// run the page keeps (an index's "Structs", "Enums", "Functions" tables), not a teaser
/// row.
fn has_kept_peer(arena: &Arena, i: usize, body_plain: u32) -> bool {
    let nodes = &arena.nodes;
    let p = nodes[i].parent;
    if p == u32::MAX || nodes[i].kind != Kind::List {
        return false;
    }
    arena
        .children(p as usize)
        .any(|c| c != i && nodes[c].sig == nodes[i].sig && !links_after_body(&nodes[c], body_plain))
}

/// The headline list at `i` with its title (see [`with_title`], up to `within`), when `i`
/// is one outside `keep` and not around it, neither a block of cards (a collection's grid
/// of all-link tiles) nor holding what must stay.
pub(super) fn stray_list(
    arena: &Arena,
    scores: &Scores,
    holds_forced: &[bool],
    i: usize,
    within: usize,
    keep: usize,
) -> Option<usize> {
    let n = &arena.nodes[i];
    let around_keep = i < keep && keep < i + n.size as usize;
    let record_block = n.kind == Kind::Block && (scores.ctx[i].record() || scores.has_records[i]);
    let free = !n.forced && !holds_forced[i];
    (!around_keep && headline_list(n) && !record_block && free).then(|| with_title(arena, i, within, keep))
}

/// A list (`ul`, `ol`) whose text is nearly all links, several of them; or a block of
/// links written without a list (links and line breaks), held to a stricter link share.
fn headline_list(n: &Node) -> bool {
    let density = n.total.link_density();
    match n.kind {
        Kind::List => n.counts.links >= LIST_MIN_LINKS && density >= LIST_LINKS,
        Kind::Block => n.counts.links >= BLOCK_MIN_LINKS && density >= BLOCK_LINKS,
        _ => false,
    }
}

/// The list, or the wrapper holding it and no more than its heading (the wrapper of a
/// "Top stories" module), up to the container and never around the body.
fn with_title(arena: &Arena, list: usize, container: usize, body: usize) -> usize {
    let nodes = &arena.nodes;
    let mut cur = list;
    loop {
        let p = nodes[cur].parent;
        if p == u32::MAX || p as usize <= container {
            return cur;
        }
        let pn = &nodes[p as usize];
        let holds_body = (p as usize) < body && body < p as usize + pn.size as usize;
        if holds_body
            || pn.total.chars > nodes[list].total.chars + TITLE_MAX_CHARS
            || pn.total.link_density() < WRAPPER_LINKS
        {
            return cur;
        }
        cur = p as usize;
    }
}

/// The article's body: the innermost element holding [`BODY_SHARE`] of the container's
/// prose (paragraphs of a dozen words with few links), if it is not the container. When
/// no element does, or only a wrapper of the whole container does, the blurbs of teaser
/// cards (a side column's "Recent posts": a date, a headline link and one sentence each)
/// are left out of the count and the body is looked for again.
fn article_body(arena: &Arena, container: usize, end: usize) -> Option<usize> {
    match body_holding(arena, container, end, false) {
        // An element holding only part of the text: what is outside it is not the body.
        Some((body, false)) => Some(body),
        found => body_holding(arena, container, end, true)
            .map(|(body, _)| body)
            .or(found.map(|(body, _)| body)),
    }
}

/// The innermost element holding [`BODY_SHARE`] of the container's prose, blurbs left out
/// when `skip_blurbs`; and whether it holds all of the container's text (a wrapper of the
/// whole container).
fn body_holding(arena: &Arena, container: usize, end: usize, skip_blurbs: bool) -> Option<(usize, bool)> {
    let nodes = &arena.nodes;
    let mut paras = if skip_blurbs {
        vec![0u8; end - container]
    } else {
        Vec::new()
    };
    if skip_blurbs {
        for (i, n) in nodes.iter().enumerate().take(end).skip(container + 1) {
            if n.is_prose_paragraph() {
                let p = card_of(arena, container, i) - container;
                paras[p] = paras[p].saturating_add(1);
            }
        }
    }
    let mut prose = vec![0u32; end - container];
    for i in (container + 1..end).rev() {
        let n = &nodes[i];
        let p = n.parent as usize;
        if n.is_prose_paragraph() {
            // The card is looked for only for a paragraph (the walk reads every node).
            let blurb = skip_blurbs && {
                let card = card_of(arena, container, i);
                paras[card - container] == 1 && card_blurb(&nodes[card], n)
            };
            if !blurb {
                prose[i - container] += n.own.chars - n.own.link_chars;
            }
        }
        prose[p - container] += prose[i - container];
    }
    let need = (prose[0] as f32 * BODY_SHARE) as u32;
    if need == 0 {
        return None;
    }
    let mut cur = container;
    'down: loop {
        for c in arena.children(cur) {
            if prose[c - container] >= need && !nodes[c].dropped {
                cur = c;
                continue 'down;
            }
        }
        break;
    }
    (cur != container).then_some((cur, nodes[cur].total.chars == nodes[container].total.chars))
}

/// The card a paragraph at `i` would be the blurb of: its parent, or the parent's parent
/// when the parent wraps nothing but the paragraph (an excerpt's `div`) and the parent's
/// parent has a card's few links (a title, "read more", a category), inside `container`.
fn card_of(arena: &Arena, container: usize, i: usize) -> usize {
    let nodes = &arena.nodes;
    let p = nodes[i].parent as usize;
    let g = nodes[p].parent as usize;
    if p > container
        && nodes[p].total.chars == nodes[i].total.chars
        && nodes[g].counts.links <= CARD_MAX_LINKS
    {
        g
    } else {
        p
    }
}

/// Whether `para`, the one prose paragraph of `card`, is a teaser's blurb: the card is
/// small (a few times the paragraph) and holds a link outside the paragraph (its title).
fn card_blurb(card: &Node, para: &Node) -> bool {
    card.total.chars <= CARD_OVER_BLURB * para.total.chars
        && card.total.link_chars >= para.total.link_chars + CARD_TITLE_LINK
}
