//! Scores: each block's text gets a value — positive for content-like text (prose, headings,
//! table and list data, the cards of a listing, links inside sentences), negative for
//! chrome-like text (short links, buttons, furniture phrases, anything inside navigation,
//! banners, footers, sidebars, dialogs, sharing, consent and ad boxes). Values are in
//! characters, so a subtree's worth is the sum of its blocks' values, and the best container
//! is the subtree worth the most ([`Scores::fit`]): it takes in a neighbouring region when
//! that region adds more content than chrome.

use super::arena::{Arena, Node};
use super::comments::Section;
pub(super) use super::ctx::Ctx;
use super::hints::{Kind, Landmark};

pub(super) struct Scores {
    pub ctx: Vec<Ctx>,
    /// Value of the text each element owns as a block.
    pub own: Vec<f32>,
    /// Sum over the subtree.
    pub sum: Vec<f32>,
    /// Best sum over the subtree once every subtree that costs more than it brings is
    /// pruned (own value + the positive `best` of the children).
    pub best: Vec<f32>,
    /// What a subtree is worth as the container: like `sum`, but a costly part inside
    /// counts only [`PRUNED_COST`] of its cost, as pruning will remove it. A banner between
    /// two halves of an article does not split it; a sidebar beside it still weighs.
    pub fit: Vec<f32>,
    /// Whether the element's children include a group of records (cards, rows, posts).
    pub has_records: Vec<bool>,
    /// The page reads as an article (a run of paragraphs, or prose in an element named as
    /// an article's body) or its head declares it one ([`super::declared`]).
    pub article_page: bool,
    /// The page's head declares it an article ([`super::declared`]).
    pub declared_article: bool,
}

/// Share of the page's plain (non-link) text above which an element's chrome hints are
/// ignored: a `<footer>` or "sidebar-layout" wrapper around the whole page is not chrome.
const PROTECT_SHARE: f32 = 0.8;

/// Share of the page's plain text, and share of itself filled by an element named as
/// content, that make an element named as chrome a layout wrapper.
const LAYOUT_PLAIN_SHARE: f32 = 0.5;
const LAYOUT_FILL: f32 = 0.75;

/// Weight of short (non-prose) plain text in table cells and list items, and elsewhere.
const SHORT_IN_LIST: f32 = 0.6;
const SHORT_ELSEWHERE: f32 = 0.1;

/// Weight of text hidden until a script shows it.
const HIDDEN_WEIGHT: f32 = 0.5;

/// Share of a costly subtree's (negative) worth its ancestors still pay for it.
const PRUNED_COST: f32 = 0.35;

/// The same for comments written beside the article's paragraphs: nothing, as they go
/// whatever holds them; a long thread (60 KB under a 2 KB post) must not push the
/// container down to one paragraph.
const BESIDE_COST: f32 = 0.0;

/// Plain characters an element needs before its share of the page can protect it.
const MIN_PROTECTED: u32 = 200;

/// Share of the page's plain text an element named as boilerplate (`share_wrapper`, a
/// post tagged `cookie-recipes`) must hold, as prose named as content, to be the content:
/// a share bar or a consent box never holds that much.
const BOILER_PROSE_SHARE: f32 = 0.4;
/// Share of an element a content-named element inside it must fill to vouch for it.
const CONTENT_FILL: f32 = 0.8;
/// Share of the page's plain text an element named as an article's body (`entry-content`,
/// `itemprop=articleBody`) must hold to be content inside a wrapper named as chrome (`box
/// article modal-enabled`): the author said what it is, and its prose agrees.
const BODY_PROSE_SHARE: f32 = 0.25;
/// Link share below which a text is prose rather than a list.
const PROSE_LINK_DENSITY: f32 = 0.2;
/// Plain characters of one run of paragraphs (children of one element) that make a page
/// an article: its bare link records (headlines, "most read") are furniture there.
const ARTICLE_RUN: u32 = 700;
/// Plain characters of prose in an element named as an article's body that make a page an
/// article (a short post whose paragraphs are not one run).
const ARTICLE_BODY_PROSE: u32 = 250;
/// Plain text of a bare record, as a share of its link text: under it the record is a
/// headline link and nothing else.
const BARE_RECORD_PLAIN: f32 = 0.3;

pub(super) fn score(arena: &Arena, declared_article: bool) -> Scores {
    let nodes = &arena.nodes;
    let n = nodes.len();
    let page_plain = nodes[0].plain().max(1) as f32;
    let page_chars = nodes[0].total.chars.max(1) as f32;
    // Shares of a tiny page mean nothing: protection needs some text.
    let protected =
        |node: &Node| node.plain() >= MIN_PROTECTED && node.plain() as f32 >= PROTECT_SHARE * page_plain;

    // Comment sections (see [`super::comments`]).
    let comment_sections = super::comments::sections(arena);

    let groups = record_groups(arena);
    let (paragraph_run, content_fill) = paragraph_run_and_content_fill(arena);
    // The page reads as an article (a run of paragraphs, a named body's prose): its bare
    // link records are furniture. A page that only declares itself one (a short post)
    // gets the late passes' article rules, not that: a listing's cards are bare records.
    let article_page = paragraph_run >= ARTICLE_RUN || named_body_prose(arena) >= ARTICLE_BODY_PROSE;
    let mut ctx = vec![Ctx::default(); n];
    let mut own = vec![0f32; n];
    // Characters of the nearest `main`/`article` landmark around each element.
    let mut landmark_chars = vec![0u32; n];
    // Characters of the nearest record item (card) around each element.
    let mut record_chars = vec![0u32; n];
    for i in 0..n {
        let node = &nodes[i];
        let mut c = if node.parent == u32::MAX {
            Ctx::default()
        } else {
            ctx[node.parent as usize]
        };
        landmark_chars[i] = if matches!(node.landmark, Landmark::Main | Landmark::Article) {
            node.total.chars
        } else if node.parent == u32::MAX {
            0
        } else {
            landmark_chars[node.parent as usize]
        };
        // The wrapper of (nearly) everything in a main/article landmark is the content itself.
        let fills_landmark =
            landmark_chars[i] > 0 && node.total.chars as f32 >= 0.8 * landmark_chars[i] as f32;

        // Class words, forms and asides are weaker signals: an element holding a good part
        // of the page's prose is not chrome whatever its class says (forms wrap whole
        // threads, asides hold call-outs).
        let substantial = || node.plain() >= MIN_PROTECTED && node.plain() as f32 >= 0.25 * page_plain;
        // A word naming a region outright (sidebar, related, reviews) needs half the page's
        // prose before it is overruled: testimonials in a sidebar are still the sidebar.
        let share = if node.words.strong_chrome && !node.words.article_body {
            0.5
        } else {
            0.25
        };
        // An item of a record group is one card of a listing, whatever its classes say
        // (page builders name cards "cta", "widget", "promo").
        let record_item =
            node.parent != u32::MAX && groups[node.parent as usize].is_some_and(|g| g.holds(node));
        // Only cards of one class template: a group by tag alone (sections of a page that
        // each have a heading) is too loose to vouch for what is inside.
        let class_record = record_item && groups[node.parent as usize].is_some_and(|g| !g.by_tag);
        // (The tests below that read prose or shares are closures, evaluated only where a
        // hint asks: most elements carry none, and their tests are pure.)
        let prose_rich = || {
            (node.plain() >= MIN_PROTECTED
                && node.plain() as f32 >= share * page_plain
                && node.total.link_density() < 0.2)
                || sections_of_prose(nodes, node, class_record, share * page_plain)
        };
        record_chars[i] = if class_record {
            node.total.chars
        } else if node.parent == u32::MAX {
            0
        } else {
            record_chars[node.parent as usize]
        };
        // The wrapper of (nearly) all of a card is the card, whatever generic class words it
        // carries ("cta", "banner"); words naming a region outright (reviews, related) count.
        let fills_record = record_chars[i] > 0
            && node.total.chars as f32 >= 0.8 * record_chars[i] as f32
            && !node.words.strong_chrome;
        // Navigation holds links: a `role=tablist` or `<nav>` around a good part of the
        // page's prose (tab panels, a whole article) is a misused role, not navigation.
        // A `<header>` around it (a template putting an article's title, lead and body in
        // its header element) is no banner either.
        let misused_nav = || matches!(node.landmark, Landmark::Nav | Landmark::Banner) && prose_rich();
        // A boilerplate word (`share`, `cookie`) on the element that holds the article —
        // named as content itself or filled by an element that is — is a tag or a
        // wrapper's modifier (`share_wrapper`, `tag-cookie-recipes`), not a share bar.
        let prose_named_content = || {
            prose_holds(node, BOILER_PROSE_SHARE * page_plain)
                && (node.words.score > 0
                    || node.words.article_body
                    || content_fill[i] as f32 >= CONTENT_FILL * node.total.chars as f32)
        };
        // A boilerplate word on the wrapper of a whole listing card (`hide-read-more-ad`,
        // `product-card-wrapper subscription-eligible`) is the card's modifier: a card
        // links to its item and is small. Not on an article page, where a grid of
        // subscription or sharing boxes beside the post is what the word names.
        let card_wrapper =
            || fills_record && !article_page && record_chars[i] <= CARD_MAX_CHARS && node.counts.links > 0;
        // A boilerplate word on a wrapper filled by an element named as content (a news feed
        // `section-feed` inside `section-more-ads`) holding a good part of the page's text
        // is the layout's modifier, on a page that does not read as an article: an ad slot
        // does not hold the page's listing.
        let named_listing = || {
            substantial() && !article_page && content_fill[i] as f32 >= CONTENT_FILL * node.total.chars as f32
        };
        // A `<header>` inside a card (an `<article>` teaser holding its headline) is the
        // card's title, not the site's banner, when the grid of cards is a good part of a
        // page that does not read as an article (a river of stories, a shop's products). A
        // carousel of other products under a product is a smaller part and stays chrome.
        let card_header = node.landmark == Landmark::Banner
            && record_chars[i] > 0
            && node.counts.headings > 0
            && !article_page
            && grid_chars(nodes, &record_chars, i) as f32 >= CARD_GRID_SHARE * page_chars;
        let landmark_chrome = (matches!(
            node.landmark,
            Landmark::Nav | Landmark::Banner | Landmark::Footer | Landmark::Dialog
        ) && !misused_nav()
            && !card_header)
            // (Sections of one text under one template are not the box a boilerplate word
            // names: `skip-item` on each section a skip link points at.)
            || (node.words.boiler
                && !(prose_named_content() || card_wrapper() || (class_record && prose_rich()) || named_listing()));
        // A form around a good part of the page's text is the page (a product grid with
        // compare boxes, a thread with quick-reply controls), even with its cards' links.
        let content_form =
            || node.landmark == Landmark::Form && substantial() && node.total.link_density() < 0.5;
        // A class naming chrome on the element that holds most of the page is a layout
        // modifier (`main--withSidebar`, `has-sidebar`), unless the element is all links.
        // So is one holding half the page's plain text and filled by an element named as
        // content (`c-layout-sidebar-left` around `c-layout-main`) when menus elsewhere
        // hold most of the page's characters.
        // (Read only where a chrome hint asks.)
        let layout_wrapper = || {
            (node.total.chars as f32 >= 0.5 * page_chars
                || (node.plain() as f32 >= LAYOUT_PLAIN_SHARE * page_plain
                    && content_fill[i] as f32 >= LAYOUT_FILL * node.total.chars as f32))
                && node.total.link_density() < 0.5
        };
        let words_chrome = (node.words.score <= -3
            || (node.words.strong_chrome && !node.words.article_body)
            || (node.words.weak_chrome && !node.words.content_word)
            || (node.listed && node.words.score <= 0)
            || matches!(node.landmark, Landmark::Aside | Landmark::Form))
            && !prose_rich()
            && !content_form()
            && !layout_wrapper()
            && (!record_item || node.words.strong_chrome)
            && !fills_record
            && !fills_landmark;
        // An `<aside>` is a side column even when it is one of a grid's areas: only its
        // prose (a call-out holding much of the page) or its holding the page overrules it.
        let aside_chrome =
            node.landmark == Landmark::Aside && !prose_rich() && !layout_wrapper() && !fills_landmark;
        // Nothing holding the page's `main` is chrome.
        let chrome_mark = (landmark_chrome || words_chrome || aside_chrome) && node.counts.mains == 0;
        let content_mark = matches!(node.landmark, Landmark::Main | Landmark::Article)
            || node.words.score >= 2
            || node.forced;
        if node.forced {
            c.set(Ctx::CHROME, false);
        }
        // Chrome from a navigation landmark alone (no chrome word, no other region).
        let nav_alone = node.landmark == Landmark::Nav
            && !misused_nav()
            && !words_chrome
            && !aside_chrome
            && !node.words.boiler;
        if chrome_mark && !node.forced && !protected(node) {
            c.set(Ctx::NAV_CHROME, nav_alone && (!c.chrome() || c.nav_chrome()));
            c.set(Ctx::CHROME, true);
        }
        // Navigation holds links: a good part of the page's prose inside a navigation
        // landmark (the tab panels a `role=tablist` wraps) is the page's text, not a menu.
        if c.nav_chrome() && !chrome_mark && prose_rich() {
            c.set(Ctx::CHROME | Ctx::NAV_CHROME, false);
        }
        // The article's body, named as such and holding a good part of the page's prose,
        // is content inside a wrapper named as chrome (`box article modal-enabled`).
        if node.words.article_body && !chrome_mark && prose_holds(node, BODY_PROSE_SHARE * page_plain) {
            c.set(Ctx::CHROME, false);
        }
        if comment_sections[i] != Section::No {
            c.set(Ctx::COMMENTS, true);
        }
        if matches!(node.landmark, Landmark::Main | Landmark::Article) && !chrome_mark {
            c.set(Ctx::LANDMARK, true);
            c.set(Ctx::LINK_LANDMARK, node.total.link_density() >= 0.6);
        }
        if content_mark && !chrome_mark {
            c.set(Ctx::CONTENT, true);
        }
        if node.hidden {
            c.set(Ctx::HIDDEN, true);
        }
        // Sections of a page grouped by tag alone (columns, regions) are not cards: one
        // that is a block of many links (menus, archives, a drop-down of names) gives its
        // links no card weight.
        let loose_record = record_item && (!class_record || node.sig == node.tag_sig);
        if record_item && !(loose_record && menu_like(node)) {
            c.set(Ctx::RECORD, true);
        }
        ctx[i] = c;
        own[i] = block_value(node, c, article_page);
    }
    let mut sum = own.clone();
    let mut best = own.clone();
    let mut fit = own.clone();
    // Negative worth inside each subtree (what pruning it removes).
    let mut neg: Vec<f32> = own.iter().map(|v| v.min(0.0)).collect();
    for i in (1..n).rev() {
        if nodes[i].dropped {
            sum[i] = 0.0;
            best[i] = 0.0;
            fit[i] = 0.0;
            neg[i] = 0.0;
            continue;
        }
        let p = nodes[i].parent as usize;
        sum[p] += sum[i];
        best[p] += best[i].max(0.0);
        neg[p] += neg[i];
        // Keep the child as it is, or prune it: losing what it has and paying a share of
        // its cost.
        let cost = if comment_sections[i] == Section::BesideArticle {
            BESIDE_COST
        } else {
            PRUNED_COST
        };
        fit[p] += fit[i].max(cost * neg[i]);
    }
    Scores {
        ctx,
        own,
        sum,
        best,
        fit,
        has_records: groups.iter().map(Option::is_some).collect(),
        article_page: article_page || declared_article,
        declared_article,
    }
}

/// Characters a card of a listing holds at most (a product's name, price and badges; a
/// headline and its summary): more is a panel or a dialog, not a card.
const CARD_MAX_CHARS: u32 = 1000;

/// Share of the page's characters a grid of cards must hold for the headers inside its
/// cards to be their titles.
const CARD_GRID_SHARE: f32 = 0.25;

/// Characters of the element holding the group of cards around `i` (inside a card): the
/// parent of the outermost ancestor that is still that card. Walked only for the few
/// elements that need it (headers inside cards).
fn grid_chars(nodes: &[Node], record_chars: &[u32], i: usize) -> u32 {
    let card = record_chars[i];
    let mut cur = i;
    while nodes[cur].parent != u32::MAX && record_chars[nodes[cur].parent as usize] == card {
        cur = nodes[cur].parent as usize;
    }
    match nodes[cur].parent {
        u32::MAX => 0,
        p => nodes[p as usize].total.chars,
    }
}

/// Links above which a record item that is mostly links is a menu section, not a card:
/// a card has a title, an image, a byline and a "read more", not a list of names.
const CARD_MAX_LINKS: u32 = 15;

/// Whether a record item is a block of many links (a page section of menus among sibling
/// sections, a drop-down of names), not a card whose links weigh as a listing's titles.
fn menu_like(node: &Node) -> bool {
    node.counts.links > CARD_MAX_LINKS && node.total.link_density() >= 0.5
}

/// Whether `node` is one of a text's sections written from one class template (each
/// section of an article named `toc-para` or `skip-item`): each holds a small share of the
/// page's prose, so none passes the share test alone, but the element holding the group is
/// that much prose and the section is prose too. The group then stands for its sections.
/// The class must be a real one: columns told apart by their ids alone (a side column, the
/// post and its comments, another side column) are no text's sections, nor are `<aside>`s
/// (a side column's widgets, one template each).
fn sections_of_prose(nodes: &[Node], node: &Node, class_record: bool, min: f32) -> bool {
    class_record
        && node.sig != node.tag_sig
        && node.landmark != Landmark::Aside
        && node.total.link_density() < PROSE_LINK_DENSITY
        && prose_holds(&nodes[node.parent as usize], min)
}

/// Whether an element holds at least `min` plain characters (and [`MIN_PROTECTED`]) with
/// few links: prose, not a list.
fn prose_holds(node: &Node, min: f32) -> bool {
    node.plain() >= MIN_PROTECTED
        && node.plain() as f32 >= min
        && node.total.link_density() < PROSE_LINK_DENSITY
}

/// In one pass over the page: the plain characters of its longest run of prose paragraphs
/// (the paragraph children of one element: an article's body has one, a listing or a
/// home page rarely does), and for each element the characters of the largest element
/// inside it named as content (class words, `articleBody`) or a `main`/`article` landmark.
fn paragraph_run_and_content_fill(arena: &Arena) -> (u32, Vec<u32>) {
    let nodes = &arena.nodes;
    let mut run = vec![0u32; nodes.len()];
    let mut fill = vec![0u32; nodes.len()];
    let mut longest = 0;
    for i in (1..nodes.len()).rev() {
        let node = &nodes[i];
        let p = node.parent as usize;
        let t = &node.own;
        if node.is_prose_paragraph() {
            run[p] += t.chars - t.link_chars;
            longest = longest.max(run[p]);
        }
        let named = node.words.score >= 2
            || node.words.article_body
            || matches!(node.landmark, Landmark::Main | Landmark::Article);
        let v = if named { node.total.chars } else { fill[i] };
        fill[p] = fill[p].max(v);
    }
    (longest, fill)
}

/// The most plain characters an element named as an article's body (`entry-content`,
/// `post-body`, `itemprop=articleBody`) holds as prose: a short post says what it is.
fn named_body_prose(arena: &Arena) -> u32 {
    arena
        .nodes
        .iter()
        .filter(|n| n.words.article_body && !n.dropped && n.total.link_density() < PROSE_LINK_DENSITY)
        .map(Node::plain)
        .max()
        .unwrap_or(0)
}

/// Value of the text an element owns as a block.
fn block_value(node: &Node, ctx: Ctx, article_page: bool) -> f32 {
    if node.dropped {
        return 0.0;
    }
    let t = &node.own;
    if t.chars == 0 {
        return 0.0;
    }
    let chars = t.chars as f32;
    // Chrome context, or a block whose every text is furniture ("Share", "Read more").
    if ctx.chrome() || ctx.comments() || (t.furniture_nodes > 0 && t.furniture_nodes == t.text_nodes) {
        return -chars;
    }
    // Inline chrome (a button-styled link inside a paragraph) costs what it weighs.
    let chrome = t.chrome_chars as f32;
    let chars = chars - chrome;
    let link = (t.link_chars - t.chrome_link_chars) as f32;
    let plain = chars - link;
    let prose = t.words >= 12 || t.punct >= 2;
    let plain_weight = match node.kind {
        Kind::Heading | Kind::Pre => 1.0,
        _ if prose || ctx.record() => 1.0,
        // Short texts: a table cell or list item is data; a lone label is often a widget's.
        Kind::Cell | Kind::Item => SHORT_IN_LIST,
        _ => SHORT_ELSEWHERE,
    };
    // Link text: a long anchor is a title (a listing's item); short anchors are menus.
    let per_link = if t.links > 0 { link / t.links as f32 } else { link };
    // A record that is a bare headline link (no summary, no prose) on an article page is
    // a "most read" or "related" list beside the article, not a listing's card: its links
    // weigh as links elsewhere do.
    let bare_record = ctx.record() && article_page && !prose && plain < BARE_RECORD_PLAIN * link;
    let link_weight = if (ctx.record() && !bare_record) || (prose && plain < link) {
        // Cards: a teaser's title and description inside one link.
        0.5
    } else if (per_link >= 30.0 && plain < link) || (prose && plain >= link) {
        // A title; or links inside a sentence.
        0.3
    } else if plain == 0.0 && t.words <= 3 && !ctx.link_landmark() {
        // A lone short link (a tag, a category, "Home"): furniture even in the content.
        -0.3
    } else if ctx.landmark() || ctx.content() {
        // Links the author put in the main content: reading lists, references.
        0.1
    } else {
        -0.6
    };
    let mut v = plain * plain_weight + link * link_weight - chrome;
    if node.kind == Kind::Button {
        v = -chars;
    }
    if ctx.content() && v > 0.0 {
        v *= 1.25;
    }
    if ctx.hidden() && v > 0.0 {
        v *= HIDDEN_WEIGHT;
    }
    v
}

/// Records under an element: their signature, and whether it is the tag-only one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Group {
    sig: u32,
    by_tag: bool,
}

impl Group {
    fn holds(&self, node: &Node) -> bool {
        self.sig == if self.by_tag { node.tag_sig } else { node.sig }
    }
}

/// For each element, the records among its children, if any: at least three siblings built
/// from one template (same tag and first class; or, for cards with an image or a heading
/// each, same tag), holding most of the element's text, each with some substance (an image,
/// a heading, plain text or several blocks: cards, rows, posts — not the one-link items of
/// a menu).
fn record_groups(arena: &Arena) -> Vec<Option<Group>> {
    let nodes = &arena.nodes;
    let mut out = vec![None; nodes.len()];
    // (Room for most elements' children at once.)
    let mut kids: Vec<(u32, usize)> = Vec::with_capacity(64);
    for i in 0..nodes.len() {
        if nodes[i].size < 4 || nodes[i].dropped {
            continue;
        }
        for by_tag in [false, true] {
            kids.clear();
            kids.extend(
                arena
                    .children(i)
                    .filter(|&c| {
                        !nodes[c].dropped && (nodes[c].total.chars > 0 || nodes[c].counts.images > 0)
                    })
                    .map(|c| (if by_tag { nodes[c].tag_sig } else { nodes[c].sig }, c)),
            );
            if kids.len() < 3 {
                break;
            }
            if let Some(sig) = record_group(nodes, i, &mut kids, by_tag) {
                out[i] = Some(Group { sig, by_tag });
                break;
            }
        }
    }
    out
}

fn record_group(nodes: &[Node], parent: usize, kids: &mut [(u32, usize)], by_tag: bool) -> Option<u32> {
    kids.sort_unstable();
    let mut best: Option<(u32, u32, usize)> = None; // (sig, chars, count)
    let mut k = 0;
    while k < kids.len() {
        let sig = kids[k].0;
        let mut j = k;
        let mut chars = 0u32;
        while j < kids.len() && kids[j].0 == sig {
            chars += nodes[kids[j].1].total.chars;
            j += 1;
        }
        if best.is_none_or(|(_, c, _)| chars > c) {
            best = Some((sig, chars, j - k));
        }
        k = j;
    }
    let (sig, chars, count) = best?;
    if count < 3 || (chars as f32) < 0.5 * nodes[parent].total.chars as f32 {
        return None;
    }
    let (mut words, mut images, mut headings, mut plain_chars, mut blocks) = (0u32, 0u32, 0u32, 0u32, 0u32);
    for &(s, c) in kids.iter() {
        if s == sig {
            let t = &nodes[c];
            words += t.total.words;
            images += t.counts.images.min(1);
            headings += t.counts.headings.min(1);
            plain_chars += t.plain();
            blocks += t.counts.blocks;
        }
    }
    let avg = |x: u32| x as f32 / count as f32;
    let rich = if by_tag {
        avg(images) >= 0.8 || avg(headings) >= 0.8
    } else {
        avg(images) >= 0.5 || avg(headings) >= 0.5 || avg(plain_chars) >= 12.0 || avg(blocks) >= 2.0
    };
    (avg(words) >= 3.0 && rich).then_some(sig)
}
