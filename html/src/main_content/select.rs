//! Choosing the container and pruning inside it, then applying the plan to the document.

use dom_query::{Document, NodeId};

use super::arena::Arena;
use super::hints::{Kind, Landmark};
use super::pruning::Pruning;
use super::score::Scores;
use super::vocabulary::FnvSet;

pub(super) struct Plan {
    /// Arena index of the main-content container.
    pub container: usize,
    /// Arena indices of subtrees to remove inside the container.
    pub prune: Vec<usize>,
}

/// The plan for a page, or `None` when nothing on it scores as content.
pub(super) fn plan(doc: &Document, arena: &Arena, scores: &Scores, author_notes: &[String]) -> Option<Plan> {
    let nodes = &arena.nodes;
    let mut container = 0;
    let mut best = 0.0;
    for (i, node) in nodes.iter().enumerate() {
        if node.dropped {
            continue;
        }
        // Strictly better only: on a tie the outer element (earlier in pre-order) wins.
        if scores.fit[i] > best {
            best = scores.fit[i];
            container = i;
        }
    }
    if best <= 0.0 {
        return None;
    }
    container = prefer_prose(arena, scores, container);
    container = narrow_to_main(arena, scores, container);
    container = narrow_to_article_body(arena, scores, container);
    // Upstream's force-include list (`#main`…) keeps its elements whatever they score:
    // the container grows to hold them, and neither they nor their ancestors are pruned
    // (their costly parts are: a thread or a share bar inside `#main` is not content).
    let mut holds_forced = vec![false; nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        if node.forced && !node.dropped {
            container = common_ancestor(arena, container, i);
            let mut cur = i as u32;
            while cur != u32::MAX && !holds_forced[cur as usize] {
                holds_forced[cur as usize] = true;
                cur = nodes[cur as usize].parent;
            }
        }
    }
    let mut prune = Pruning::new(arena, container);
    // (Room for a page's usual depth and breadth at once, not grown step by step.)
    let mut stack = Vec::with_capacity(WALK_ROOM);
    stack.push(container);
    // The children with text of the entry popped, and whether each is kept (what
    // `orphan_headings` reads).
    let mut texts: Vec<(usize, bool)> = Vec::with_capacity(WALK_ROOM);
    while let Some(i) = stack.pop() {
        texts.clear();
        for c in arena.children(i) {
            // A subtree goes when nothing in it is worth keeping; otherwise the walk goes
            // down and removes its costly parts only.
            let kept = if holds_forced[c] {
                stack.push(c);
                true
            } else if nodes[c].dropped
                || nodes[c].chrome_inline
                || scores.best[c] < 0.0
                || (scores.best[c] == 0.0 && scores.sum[c] < 0.0)
            {
                prune.push(c);
                false
            } else {
                stack.push(c);
                true
            };
            if nodes[c].total.chars > 0 {
                texts.push((c, kept));
            }
        }
        orphan_headings(arena, &texts, &mut prune);
    }
    prune_card_shelves(arena, scores, &holds_forced, &mut prune);
    prune_repeats(arena, &holds_forced, &mut prune);
    prune_trailing_links(arena, &holds_forced, &mut prune);
    super::calls::prune(doc, arena, scores, &holds_forced, &mut prune);
    let body = super::link_lists::prune(arena, scores, &holds_forced, &mut prune);
    super::related::prune(arena, body, &holds_forced, &mut prune);
    super::teasers::prune(arena, scores, body, &holds_forced, &mut prune);
    super::teasers_before::prune(arena, scores, body, &holds_forced, &mut prune);
    super::teaser_tail::prune(arena, &holds_forced, &mut prune);
    super::column_beside::prune(arena, scores, body, &holds_forced, &mut prune);
    super::teasers_within::prune(arena, scores, body, &holds_forced, &mut prune);
    super::wrapper_parts::prune(arena, scores, body, &holds_forced, &mut prune);
    super::aside_beside::prune(arena, scores, &holds_forced, &mut prune);
    super::column_pair::prune(arena, &holds_forced, &mut prune);
    // The body the page names, on an article page: what stands beside it.
    let named = if scores.article_page {
        super::named_body::find(arena, &prune)
    } else {
        None
    };
    super::sidebar_beside::prune(arena, named, &holds_forced, &mut prune);
    super::link_grid_beside::prune(arena, &holds_forced, &mut prune);
    super::main_beside::prune(arena, named, &holds_forced, &mut prune);
    super::body_pointers::prune(arena, body, &holds_forced, &mut prune);
    super::pointer_box::prune(arena, scores, &holds_forced, &mut prune);
    super::repeated_labels::prune(doc, arena, scores, &holds_forced, &mut prune);
    super::slide_counters::prune(doc, arena, scores, &holds_forced, &mut prune);
    super::closing_lines::prune(doc, arena, body, scores.article_page, &holds_forced, &mut prune);
    super::post_footer::prune(doc, arena, body, &holds_forced, &mut prune);
    super::reaction_lists::prune(doc, arena, &holds_forced, &mut prune);
    super::dated_links::prune(doc, arena, body, scores.article_page, &holds_forced, &mut prune);
    super::read_also::prune(doc, arena, body, scores.article_page, &holds_forced, &mut prune);
    super::contents_boxes::prune(doc, arena, &holds_forced, &mut prune);
    super::caption_credits::prune(doc, arena, &holds_forced, &mut prune);
    super::figure_captions::prune(doc, arena, scores, &holds_forced, &mut prune);
    super::fine_print::prune(doc, arena, scores, body, &holds_forced, &mut prune);
    if scores.article_page {
        super::datelines::prune(doc, arena, &holds_forced, &mut prune);
    }
    super::author_notes::prune(doc, arena, author_notes, &holds_forced, &mut prune);
    super::closing_boxes::prune(arena, body, scores.article_page, &holds_forced, &mut prune);
    super::repeated_headings::prune(arena, &holds_forced, &mut prune);
    Some(Plan {
        container,
        prune: prune.into_list(),
    })
}

/// Share of the container's characters the shelves of link cards may hold together and
/// still be asides of the page rather than its subject.
const SHELF_SHARE: f32 = 0.35;
/// The same for shelves whose text is all links (at least [`SHELF_ALL_LINKS`]).
const SHELF_SHARE_ALL_LINKS: f32 = 0.6;
const SHELF_ALL_LINKS: f32 = 0.9;

/// Prunes shelves of link cards after the page's own content: groups of records whose
/// text is mostly links ("more from this shop", recommended products, other threads),
/// holding together a minority of the container (up to 60 % when every card is a link
/// and nothing else) and starting once most of the rest has been read. On a listing the cards are most of the container and all stay; a grid
/// before the category's copy stays; cards with their own prose (products reviewed in a
/// buying guide) are not link-dominated and stay.
fn prune_card_shelves(arena: &Arena, scores: &Scores, holds_forced: &[bool], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    let (container, end) = (prune.container(), prune.end());
    let total = nodes[container].total.chars as f32;
    // (shelf, characters of the rest read before it)
    let mut shelves = Vec::new();
    let mut shelf_chars = 0.0;
    let mut all_links = true;
    let mut before = 0.0;
    let mut i = container + 1;
    while i < end {
        let n = &nodes[i];
        if scores.has_records[i]
            && !n.dropped
            && !holds_forced[i]
            && n.total.link_density() >= SHELF_LINK_DENSITY
        {
            shelves.push((i, before));
            shelf_chars += n.total.chars as f32;
            all_links &= n.total.link_density() >= SHELF_ALL_LINKS;
            i += n.size as usize;
        } else {
            if !n.dropped {
                before += n.own.chars as f32;
            }
            i += 1;
        }
    }
    let rest = total - shelf_chars;
    // Cards that are nothing but links (title, price and all inside the anchor) can be
    // a larger share of a short page and still be a shelf.
    let share = if all_links {
        SHELF_SHARE_ALL_LINKS
    } else {
        SHELF_SHARE
    };
    if shelf_chars < share * total && rest >= SHELF_MIN_REST {
        prune.extend(
            shelves
                .into_iter()
                .filter(|&(_, before)| before >= 0.5 * rest)
                .map(|(s, _)| s),
        );
    }
}

/// Link share of a shelf's text, and the characters the rest of the container must hold.
const SHELF_LINK_DENSITY: f32 = 0.4;
const SHELF_MIN_REST: f32 = 500.0;

/// Characters a subtree needs before its repetition counts: short labels ("Add to cart",
/// a price) legitimately repeat.
const REPEAT_MIN_CHARS: u32 = 100;

/// Texts [`prune_repeats`] makes room for at once.
const REPEATS_ROOM: usize = 64;

/// Entries the plan's first walk (its stack, the children of one entry) makes room for
/// at once.
const WALK_ROOM: usize = 64;

/// Prunes every kept subtree whose text repeats one kept earlier in the container (same
/// words in the same order): a block rendered once per screen size, a promise or dialog
/// repeated in several places. The first copy stays. List items, table cells and code are
/// data: their repeats (a step in two recipes, a line in every row) stay.
fn prune_repeats(arena: &Arena, holds_forced: &[bool], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    let (container, end) = (prune.container(), prune.end());
    // Room for the long blocks of most containers: grown step by step from nothing,
    // the set was rehashed five times on an article.
    let mut seen = FnvSet::with_capacity_and_hasher(REPEATS_ROOM, Default::default());
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, container, end);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if matches!(n.kind, Kind::Item | Kind::Cell | Kind::Pre) {
            walk.step_over();
        } else if n.total.chars >= REPEAT_MIN_CHARS && !seen.insert(n.hash) && !n.forced && !holds_forced[i] {
            found.push(i);
            walk.step_over();
        }
    }
    prune.extend(found);
}

/// Link share above which a container is a list of links (a related-links widget, a
/// column of teasers) rather than a text, and below which a candidate is a text.
const LINKY: f32 = 0.5;
/// The same for lists of long links (cards whose title and summary are one anchor: a
/// guide's chapters, a hub's sections), which are more often the content.
const LINKY_LONG: f32 = 0.6;
/// The same for narrowing to a text inside the list (an index page's introduction sits
/// inside its list of sections).
const LINKY_INSIDE: f32 = 0.5;
/// Share of the list's plain text the text inside it must hold.
const PROSE_SHARE_INSIDE: f32 = 0.7;
const PROSE_LINKS: f32 = 0.35;
const PROSE_LINKS_INSIDE: f32 = 0.2;
/// Average characters per link of a list of links (longer: cards inside their anchors).
const LIST_LINK_CHARS: u32 = 60;
/// Plain characters the text needs, at least, and as a multiple of the list's own.
const PROSE_MIN: u32 = 500;
const PROSE_OVER_LIST: u32 = 2;
/// Share of the list's worth the text needs (less inside it: the list's links are what
/// make its worth).
const PROSE_FIT_SHARE: f32 = 0.5;
const PROSE_FIT_SHARE_INSIDE: f32 = 0.3;

/// A container that is mostly links gives way to a text elsewhere on the page holding
/// far more plain text and worth about as much, or to a text inside it holding most of
/// its plain text: a small link-heavy block (related
/// links, most-read teasers) is not chosen over a long prose body because its many
/// links add up. A listing's grid stays when no such text competes with it.
fn prefer_prose(arena: &Arena, scores: &Scores, container: usize) -> usize {
    let nodes = &arena.nodes;
    let c = &nodes[container];
    if c.total.link_density() < LINKY {
        return container;
    }
    let end = container + c.size as usize;
    // Elsewhere: twice the list's plain text; inside it: most of it.
    let need_out = c.plain().saturating_mul(PROSE_OVER_LIST).max(PROSE_MIN);
    let need_in = (c.plain() as f32 * PROSE_SHARE_INSIDE).max(PROSE_MIN as f32) as u32;
    // Short links (headlines, archive months), not cards whose whole text is one link.
    let short_links = c.total.link_chars < LIST_LINK_CHARS * c.counts.links.max(1);
    let mut best = container;
    let mut best_fit = 0.0;
    for (i, n) in nodes.iter().enumerate() {
        if n.dropped || n.total.link_density() >= PROSE_LINKS || scores.fit[i] <= best_fit {
            continue;
        }
        let inside = i > container && i < end;
        let holds_container = i <= container && container < i + n.size as usize;
        let ok = if inside {
            short_links
                && c.total.link_density() >= LINKY_INSIDE
                && n.plain() >= need_in
                && n.total.link_density() < PROSE_LINKS_INSIDE
                && scores.fit[i] >= PROSE_FIT_SHARE_INSIDE * scores.fit[container]
        } else {
            !holds_container
                && (short_links || c.total.link_density() >= LINKY_LONG)
                && n.plain() >= need_out
                && scores.fit[i] >= PROSE_FIT_SHARE * scores.fit[container]
        };
        if ok {
            best = i;
            best_fit = scores.fit[i];
        }
    }
    best
}

/// Link share above which a block after the container's last sentence is furniture.
const TRAILING_LINKS: f32 = 0.5;
/// Share of the prose before them those blocks may hold together.
const TRAILING_SHARE: f32 = 0.5;

/// Prunes what follows the container's last sentence when it is mostly links: the post
/// footer of an article (tags, share bars, previous/next links, "more from" and related
/// lists, newsletter links), once the body has been read. Nothing with prose of its own
/// follows the last sentence, by definition; data (tables, captions, short lists without
/// links) stays, and so does a grid of cards longer than half the prose before it (a
/// collection's products under its copy). The same before the first sentence: link blocks
/// there (breadcrumbs, category links, a section's menu) go, a heading that links to the
/// post's own page (its title) stays.
fn prune_trailing_links(arena: &Arena, holds_forced: &[bool], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    let (container, end) = (prune.container(), prune.end());
    // The last block with prose of its own, and the prose read up to it.
    let (mut first, mut last, mut prose) = (None, None, 0u32);
    for i in prune.kept(nodes, container, end) {
        let t = &nodes[i].own;
        if (t.words >= 12 || t.punct >= 2) && t.link_density() < TRAILING_LINKS {
            first.get_or_insert(i);
            last = Some(i);
            prose += t.chars - t.link_chars;
        }
    }
    let Some(last) = last else {
        return;
    };
    let (mut found, mut chars) = (Vec::new(), 0u32);
    let link_block = |i: usize, n: &super::arena::Node| {
        // A sentence with links in it ("See the guide or the appendix.") is prose.
        let sentence = n.kind == Kind::Para && n.own.punct > 0 && n.own.words >= n.own.link_words + 2;
        n.total.link_density() >= TRAILING_LINKS && !sentence && !n.forced && !holds_forced[i]
    };
    // A heading linking to the post's own page is its title.
    let title = |n: &super::arena::Node| n.counts.headings > 0 && n.total.words <= 20;
    // Before the first sentence: breadcrumbs, category links, an "in this section" menu.
    let first = first.unwrap_or(last);
    let mut walk = prune.kept(nodes, container + 1, first);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        let holds_first = i + n.size as usize > first;
        if !holds_first && link_block(i, n) && !title(n) {
            found.push(i);
            chars += n.total.chars;
            walk.step_over();
        }
    }
    if (chars as f32) < TRAILING_SHARE * prose as f32 {
        prune.extend(found.drain(..));
    }
    found.clear();
    chars = 0;
    let mut walk = prune.kept(nodes, last + nodes[last].size as usize, end);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if link_block(i, n) {
            found.push(i);
            chars += n.total.chars;
            walk.step_over();
        }
    }
    if (chars as f32) < TRAILING_SHARE * prose as f32 {
        prune.extend(found);
    }
}

/// A container around the page's one `main` landmark narrows to it when it holds most
/// of the container's worth: the author said where the content is.
fn narrow_to_main(arena: &Arena, scores: &Scores, container: usize) -> usize {
    let nodes = &arena.nodes;
    if nodes[container].landmark == Landmark::Main || nodes[container].counts.mains != 1 {
        return container;
    }
    let end = container + nodes[container].size as usize;
    let Some(m) = (container + 1..end).find(|&i| nodes[i].landmark == Landmark::Main) else {
        return container;
    };
    if !nodes[m].dropped && scores.fit[m] >= MAIN_SHARE * scores.fit[container] {
        m
    } else {
        container
    }
}

/// Share of the container's worth the `main` landmark needs to become the container.
const MAIN_SHARE: f32 = 0.85;

/// The lowest common ancestor of two arena entries.
fn common_ancestor(arena: &Arena, a: usize, b: usize) -> usize {
    let nodes = &arena.nodes;
    let inside = |x: usize, anc: usize| x >= anc && x < anc + nodes[anc].size as usize;
    let mut cur = a;
    while !inside(b, cur) {
        let p = nodes[cur].parent;
        if p == u32::MAX {
            return 0;
        }
        cur = p as usize;
    }
    cur
}

/// A heading whose section was pruned (the next sibling with text is gone, and nothing kept
/// follows before the next heading) titles nothing any more: "Related posts", "Newsletter".
/// `texts`: the children with text of one entry, in order, and whether each is kept.
fn orphan_headings(arena: &Arena, texts: &[(usize, bool)], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    let heading_like = |c: usize| {
        let n = &nodes[c];
        n.counts.headings > 0 && n.counts.blocks <= 2 && n.total.words <= 12
    };
    for (k, &(c, kept)) in texts.iter().enumerate() {
        if !kept || !heading_like(c) {
            continue;
        }
        let Some(&(_, next_kept)) = texts.get(k + 1) else {
            continue;
        };
        if next_kept {
            continue;
        }
        let rest_empty = texts[k + 2..]
            .iter()
            .take_while(|&&(d, _)| !heading_like(d))
            .all(|&(_, kept)| !kept);
        if rest_empty {
            prune.push(c);
        }
    }
}

pub(super) fn apply(doc: &Document, arena: &Arena, plan: &Plan) {
    let tree = &doc.tree;
    let root = arena.nodes[0].id;
    // Everything outside the container goes, its ancestors stay as bare wrappers (their
    // other children taken off one by one from beside the one kept: no list of them).
    let mut cur: NodeId = arena.nodes[plan.container].id;
    while cur != root {
        let Some(parent) = tree.parent_of(&cur) else {
            break;
        };
        while let Some(s) = tree.prev_sibling_of(&cur).map(|s| s.id) {
            tree.remove_from_parent(&s);
        }
        while let Some(s) = tree.next_sibling_of(&cur).map(|s| s.id) {
            tree.remove_from_parent(&s);
        }
        cur = parent.id;
    }
    for &i in &plan.prune {
        tree.remove_from_parent(&arena.nodes[i].id);
    }
}

/// Inside the best container, the article itself — an element named as an article's body
/// (`entry-content`, `itemprop=articleBody`) or an `<article>` — when it is the only
/// substantial one there and holds at least half of the container's worth: what surrounds
/// it inside the container (teasers, popular posts, a newsletter box in a side column) is
/// not the article.
fn narrow_to_article_body(arena: &Arena, scores: &Scores, container: usize) -> usize {
    let nodes = &arena.nodes;
    let is_article = |i: usize| nodes[i].words.article_body || nodes[i].landmark == Landmark::Article;
    if nodes[container].words.article_body || scores.fit[container] <= 0.0 {
        return container;
    }
    // Inside an `<article>`, only a body named as such narrows further.
    let is_article = |i: usize| {
        is_article(i) && (nodes[container].landmark != Landmark::Article || nodes[i].words.article_body)
    };
    let total = scores.fit[container];
    let end = container + nodes[container].size as usize;
    let mut found = None;
    let mut i = container + 1;
    while i < end {
        if is_article(i) && !nodes[i].dropped {
            // Teaser cards are small; a second real post (a thread's reply) is not.
            if scores.fit[i] >= (0.02 * total).max(150.0) {
                if found.is_some() {
                    return container; // several: posts of a thread, cards of a listing
                }
                found = Some(i);
            }
            i += nodes[i].size as usize;
        } else {
            i += 1;
        }
    }
    match found {
        Some(b) if scores.fit[b] >= 0.5 * total => narrow_to_article_body(arena, scores, b),
        _ => container,
    }
}
