//! Calls to action inside the content: the small boxes a site drops into or under an
//! article ("Subscribe to our newsletter" + a button, "Book a demo", "Start building with
//! $300 in free credits" + "Get started"). Each is a short message and a control — a
//! button, a button-styled link, or a text that is furniture on its own ("Sign up",
//! "Contact us", see [`super::phrases`]) — in an element of its own, far smaller than
//! the prose around it. Cards of a listing (records) are never touched: there a heading,
//! a line and "Learn more" are the content. Small forms go too (a newsletter or contact
//! form's labels and help lines: "Name", "This field is for validation purposes"),
//! whatever the prose around them; a thread posted inside a form is far larger.
//! A box the site names a call to action (`blog-cta`, `inline-cta`, `call-to-action`)
//! goes whatever its shape when it is a small part of a long post (a theme's word for its
//! own promotion, which a content word beside it, `cta-text`, `content-cta`, only
//! qualifies); a `<section>` or a child of `main` named so is the page's own band (a
//! service page's "Ready to start?") and stays with all it holds.

use dom_query::Document;

use super::arena::{Arena, Node};
use super::hints::{Kind, Landmark};
use super::pruning::Pruning;
use super::score::Scores;
use crate::dom::{local_name, with_element};

/// Characters a call-to-action box may hold (a heading, a line or two, a button).
const BOX_MAX_CHARS: u32 = 400;
/// Words the same.
const BOX_MAX_WORDS: u32 = 60;
/// Characters a form may hold (its labels, a line of instructions).
const FORM_MAX_CHARS: u32 = 600;
/// The container's prose must be this many times the box: a box is an aside of the text.
const PROSE_RATIO: u32 = 5;
/// Share of the container's words a box named as a call to action holds at most.
const NAMED_MAX_SHARE: f32 = 0.2;
/// Plain characters of prose the container must hold around a box named as a call to
/// action: a long post (a service page's short text names its offers' boxes `cta` too).
const NAMED_MIN_PROSE: u32 = 4_000;

/// Prunes call-to-action boxes inside `container` (pre-order indices not yet pruned).
pub(super) fn prune(
    doc: &Document,
    arena: &Arena,
    scores: &Scores,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    if !scores.article_page {
        return;
    }
    let nodes = &arena.nodes;
    let prose = prose_chars(nodes, prune);
    let named_max = nodes[prune.container()].total.words as f32 * NAMED_MAX_SHARE;
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, prune.container() + 1, prune.end());
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        let kept = !n.forced && !holds_forced[i];
        // A small form (a sign-up, a contact or a download form): its text is labels,
        // help lines and the like, never the article's.
        let small_form =
            kept && n.landmark == Landmark::Form && n.total.chars <= FORM_MAX_CHARS && !holds_data(nodes, i);
        let call_box = kept
            && n.total.chars <= BOX_MAX_CHARS
            && !scores.ctx[i].record()
            && is_call_box(n)
            && !holds_data(nodes, i)
            && n.total.chars * PROSE_RATIO <= prose;
        let named = kept && n.words.call_to_action && n.is_block() && prose >= NAMED_MIN_PROSE;
        // A section of the page named so is the page's own band: nothing inside is an insert.
        if named && page_section(doc, nodes, i) {
            walk.step_over();
            continue;
        }
        let named_box = named && n.total.words as f32 <= named_max && !holds_data(nodes, i);
        if small_form || call_box || named_box {
            found.push(i);
            walk.step_over();
        }
    }
    prune.extend(found);
}

/// A box: a block of several text blocks, a message with a control in it.
fn is_call_box(n: &Node) -> bool {
    let t = &n.total;
    let control = n.counts.buttons > 0 || t.chrome_chars > 0 || t.furniture_nodes > 0;
    // The message: some text besides the control.
    let message = t.text_nodes > t.furniture_nodes + n.counts.buttons;
    n.kind == Kind::Block && n.counts.blocks >= 2 && t.words <= BOX_MAX_WORDS && control && message
}

/// Whether a block is one of the page's own sections (a `<section>`, or a child of the
/// `main` landmark: a service page's "Ready to start?" band), not an insert in a post.
fn page_section(doc: &Document, nodes: &[Node], i: usize) -> bool {
    let n = &nodes[i];
    (n.parent != u32::MAX && nodes[n.parent as usize].landmark == Landmark::Main)
        || with_element(&doc.tree, n.id, |el| el.name.local == local_name!("section")).unwrap_or(false)
}

/// Whether a box holds what a call to action does not: code (a snippet with its "Copy"
/// button), a list or a table (dates and prices of a course), an image (a slide of a
/// carousel, a figure with its caption and credit link).
fn holds_data(nodes: &[Node], i: usize) -> bool {
    nodes[i + 1..i + nodes[i].size as usize]
        .iter()
        .any(|n| matches!(n.kind, Kind::Pre | Kind::Table))
}

/// Plain characters of the container's prose blocks (those not already pruned).
fn prose_chars(nodes: &[Node], prune: &Pruning) -> u32 {
    let mut prose = 0;
    for i in prune.kept(nodes, prune.container(), prune.end()) {
        let t = &nodes[i].own;
        if (t.words >= 12 || t.punct >= 2) && t.link_density() < 0.5 {
            prose += t.chars - t.link_chars;
        }
    }
    prose
}
