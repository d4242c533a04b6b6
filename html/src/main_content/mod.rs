//! `onlyMainContent`: finds the main content of a page by scoring its blocks, then removes
//! everything else. Deterministic, no model, linear in the size of the document.
//!
//! 0. [`deferred`] (before the usual stripping): content a browser would show after running
//!    scripts is put in place — `<noscript>` fallbacks of script shells, streamed segments.
//!    [`declared`] reads, before the head goes, whether the page declares itself an article
//!    (`og:type`, JSON-LD): a short post then gets the article rules of step 3 too.
//! 1. [`arena`]: one walk over `<body>` collects, per element, its markup hints ([`hints`]:
//!    tag, ARIA role, `itemprop`, class/id words read with [`vocabulary`], hidden) and text
//!    statistics (characters, link characters, words, punctuation, furniture phrases from
//!    [`phrases`], a hash of the words) of the text it owns as a block and of its subtree.
//! 2. [`comments`]: comment sections after the article's prose are chrome whatever their
//!    share of the page (forum threads, told apart by their markup, stay content).
//!    [`score`]: every block's text gets a value — prose, headings, table and list data
//!    and the cards of a listing (sibling groups built from one template) count for the
//!    content; short links, buttons, furniture phrases and anything inside navigation,
//!    banners, footers, sidebars, dialogs, ads, sharing or consent boxes count against it.
//!    Subtree sums are computed bottom-up.
//! 3. [`select`]: the container is the subtree worth the most (a costly part inside costs
//!    only a share of its weight: pruning will take it out), narrowed to the page's `main`
//!    or the article's body when those hold most of it (a container that is mostly links
//!    gives way to a text holding far more plain text); inside the container, subtrees
//!    that cost more than they bring are pruned, then shelves of link cards after the
//!    page's own content, repeats of a kept block (the same words in the same order),
//!    link blocks before the first sentence and after the last one (breadcrumbs; tags,
//!    sharing, related lists), on article pages headline lists outside the article's
//!    body and blocks of links after it ([`link_lists`]), shelves of teaser cards after it
//!    ([`teasers`]) and before it ([`teasers_before`]), what the article's wrapper holds
//!    besides it (headline lists beside the part holding the kept prose:
//!    [`wrapper_parts`]; an `<aside>` beside the named article: [`aside_beside`]; an
//!    unnamed column of links beside a column named as content: [`column_pair`]; a
//!    column named as a sidebar beside the named body: [`sidebar_beside`]; a grid of links
//!    beside the page's one `<article>`: [`link_grid_beside`]; what stands beside the
//!    page's `main` holding the named body: [`main_beside`]; a titled list
//!    of links at the body's end: [`body_pointers`]; a box named as the site's after a
//!    pointer title, prose or not: [`pointer_box`]; a gallery's labels repeated by
//!    each picture: [`repeated_labels`]; a slideshow's slides numbered "k/N":
//!    [`slide_counters`]), short closing lines after its last paragraph
//!    (calls to the reader, the site's notices: [`closing_lines`]; a dated "Posted by"
//!    line, tags: [`post_footer`]; both also read an inline element standing as a line of
//!    its own: [`inline_lines`]), readers' reactions listed under it ("ann liked
//!    this": [`reaction_lists`]), the previous and next stories' dated headline links
//!    after it ([`dated_links`]), the post's date printed as a `<time>` line above its first
//!    paragraph ([`datelines`]), "read also" lines inside it ([`read_also`]; on a
//!    page without a body element, those whose label is in bold: [`bold_label`]),
//!    reading-time lines on any page ([`reading_time`], in the same walk), tables of
//!    contents (a titled box of links to the page's own sections: [`contents_boxes`]),
//!    captions that are a picture's credit ("Photo credit: …": [`caption_credits`]), on
//!    article pages captions of a sentence describing a picture ([`figure_captions`]),
//!    long headings repeated in another kind of block ([`repeated_headings`]), the
//!    author's biography the head's JSON-LD gives, printed in a box ([`author_notes`]), a
//!    box named for the writer or for the slot after the post, after it ([`closing_boxes`]) and
//!    headings left without a section. One
//!    [`pruning::Pruning`] set (list and mask) carries what is pruned from pass to pass.
//!
//! Upstream's force-include list (`#main`…) still keeps its elements and their ancestors,
//! but not everything inside them: comments, share bars and the like inside `#main` are
//! pruned as anywhere (upstream's own rule removes its excluded elements there too). When
//! nothing scores as content
//! (a script shell, a page of links), upstream's selector rule applies instead; an empty
//! result then makes the server fall back to the whole page. With `includeTags` the user
//! chose the content already: only upstream's rule ([`upstream`]) applies inside it.

mod arena;
mod aside_beside;
mod author_notes;
mod beside;
mod body_pointers;
mod bold_label;
mod calls;
mod caption_credits;
mod closing_boxes;
mod closing_lines;
mod column_beside;
mod column_pair;
mod comments;
mod contents_boxes;
mod ctx;
mod dated_links;
mod datelines;
mod declared;
mod deferred;
mod figcaptions;
mod figure_captions;
mod fine_print;
mod hints;
mod inline_lines;
mod letter_hash;
mod link_grid_beside;
mod link_lists;
mod main_beside;
mod named_body;
mod phrases;
mod pointer_box;
mod pointer_titles;
mod post_footer;
mod pruning;
mod reaction_lists;
mod read_also;
mod reading_time;
mod related;
mod repeated_headings;
mod repeated_labels;
mod score;
mod select;
mod sidebar_beside;
mod signature;
mod slide_counters;
mod spare;
mod str_hash;
mod str_memo;
#[cfg(test)]
mod strip_walk_tests;
mod tag_facts;
mod teaser_tail;
mod teasers;
mod teasers_before;
mod teasers_within;
mod text_stats;
mod upstream;
mod vocab_i18n;
mod vocabulary;
mod wrapper_parts;

use dom_query::Document;

use crate::dom::Seen;

/// Removes what [`crate::clean::strip_unwanted`] removes (`script`, `style`, comments…),
/// then everything but the main content of a whole page from `doc`. The body's unwanted
/// nodes are found by the arena's walk, which reads every node of the body anyway: one walk
/// instead of two. (Removed before anything reads the document again, as if stripped first.)
pub(crate) fn strip_and_remove_non_main(doc: &Document, declared_article: bool, author_notes: &[String]) {
    let Some(body) = doc.body() else {
        crate::clean::strip_unwanted(doc);
        upstream::remove_listed(doc);
        return;
    };
    let mut doomed = Vec::new();
    crate::clean::collect_unwanted(&doc.tree, doc.root().id, Some(body.id), &mut doomed);
    let arena = arena::Arena::build(doc, body.id, &mut doomed);
    crate::clean::remove_all(&doc.tree, doomed);
    let scores = score::score(&arena, declared_article);
    match select::plan(doc, &arena, &scores, author_notes) {
        Some(plan) => select::apply(doc, &arena, &plan),
        // Nothing reads as content (a script shell, a page of links): upstream's rule.
        None => upstream::remove_listed(doc),
    }
}

pub(crate) use declared::{Head, declares_article, read_head};
pub(crate) use deferred::reveal as reveal_deferred;

/// Which kinds of script-deferred content [`reveal_deferred`] could find in a page as parsed.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Deferred {
    /// A script shell: enough `<noscript>` markup, and text in it, in the body.
    pub shell: bool,
    /// A streamed segment or placeholder: an `id` starting `S:` or `B:`.
    pub segments: bool,
}

impl Deferred {
    /// Whether revealing could change anything.
    pub(crate) fn any(self) -> bool {
        self.shell || self.segments
    }
}

/// What [`reveal_deferred`] could change in `doc` as parsed, from what the parse [`Seen`]
/// (without walking the body for either kind).
pub(crate) fn deferred_possible(doc: &Document, seen: &Seen) -> Deferred {
    Deferred {
        shell: deferred::shell_possible(doc, &seen.noscripts),
        segments: seen.segments,
    }
}

/// [`reveal_deferred`] of the kinds [`deferred_possible`] found possible.
pub(crate) fn reveal_deferred_possible(doc: &Document, possible: Deferred) {
    deferred::reveal_possible(doc, possible.shell, possible.segments);
}

/// Removes non-main content from an `includeTags` fragment: upstream's selector rule.
pub(crate) fn remove_non_main_fragment(doc: &Document) {
    upstream::remove_listed(doc);
}

/// A readable dump of the extractor's view of a page (development aid): the element tree
/// down to blocks worth `min_abs` characters, with values, sums and decisions.
pub(crate) fn explain(doc: &Document, declared_article: bool, min_abs: f32) -> String {
    use std::fmt::Write;
    let Some(body) = doc.body() else {
        return String::new();
    };
    // (`doc` is stripped already: nothing to remove.)
    let arena = arena::Arena::build(doc, body.id, &mut Vec::new());
    let scores = score::score(&arena, declared_article);
    let plan = select::plan(doc, &arena, &scores, &[]).unwrap_or(select::Plan {
        container: usize::MAX,
        prune: Vec::new(),
    });
    let mut out = String::new();
    let mut pruned = vec![false; arena.nodes.len()];
    for &p in &plan.prune {
        pruned[p] = true;
    }
    for (i, n) in arena.nodes.iter().enumerate() {
        if scores.sum[i].abs() < min_abs && i != plan.container {
            continue;
        }
        let (tag, attrs) = doc
            .tree
            .query_node(&n.id, |d| match &d.data {
                dom_query::NodeData::Element(el) => {
                    let attrs: Vec<String> = el
                        .attrs
                        .iter()
                        .filter(|a| matches!(&*a.name.local, "class" | "id" | "role" | "itemprop"))
                        .map(|a| {
                            format!(
                                "{}={:?}",
                                a.name.local,
                                a.value.chars().take(60).collect::<String>()
                            )
                        })
                        .collect();
                    (el.name.local.to_string(), attrs.join(" "))
                }
                _ => (String::new(), String::new()),
            })
            .unwrap_or_default();
        let c = scores.ctx[i];
        let _ = writeln!(
            out,
            "{:indent$}{i} <{tag} {attrs}> {:?}/{:?} w={} sum={:.0} own={:.0} chars={} link={} words={} punct={} links={} {}{}{}{}{}{}",
            "",
            n.kind,
            n.landmark,
            n.words.score,
            scores.sum[i],
            scores.own[i],
            n.total.chars,
            n.total.link_chars,
            n.total.words,
            n.total.punct,
            n.counts.links,
            if c.chrome() { "CHROME " } else { "" },
            if c.comments() { "COMMENTS " } else { "" },
            if c.content() { "content " } else { "" },
            if c.record() { "record " } else { "" },
            if i == plan.container { "<<<CONTAINER " } else { "" },
            if pruned[i] { "PRUNED" } else { "" },
            indent = n.depth as usize
        );
    }
    out
}
