//! Fine print the site names as such on a page whose head declares it an article
//! (`og:type`, JSON-LD: [`super::declared`]), or at the end of the text of an article page
//! that does not: after the body it names (`entry-content`), or, when no element narrower
//! than the container holds that body, after the container's last paragraph of prose
//! (a fund page's disclosures closing its own section). A block whose own `class` or `id`
//! holds the word "disclaimer" or "disclosure" (`disclaimer`, `affiliate-disclaimer-small`,
//! `#views-disclaimer`) and no content word is the site's legal or editorial note printed
//! under every post (an adviser's regulatory notice, a blog's "views are the author's
//! own"), not the post. The word stays a weak chrome hint elsewhere: on service and product
//! pages such a block is often what the page is about (a plan's or an offer's conditions),
//! and the truths keep it; such pages read as articles by their runs of paragraphs but do
//! not declare themselves one, and the note stands inside their text: among its
//! paragraphs, or inside the element that holds the body. A block holding most of the
//! container's words is the post itself and stays, and so does one whose class words name
//! content too (`post-disclaimer`, `richtext--disclaimer`): attributes are read only where
//! the class words weigh below zero, which keeps the pass to a few blocks.

use dom_query::Document;

use super::arena::Arena;
use super::pruning::Pruning;
use super::score::Scores;
use super::vocabulary::for_each_word;
use crate::dom::{attr, local_name, with_element};

/// Class/id words naming fine print, lower case.
const WORDS: &[&str] = &["disclaimer", "disclaimers", "disclosure", "disclosures"];

/// Share of the container's words a fine-print block holds at most.
const MAX_SHARE: f32 = 0.5;

/// Prunes the blocks named as fine print inside the container of a declared article, or
/// at the end of an article page's text (after its named body, or its last paragraph).
pub(super) fn prune(
    doc: &Document,
    arena: &Arena,
    scores: &Scores,
    body: Option<usize>,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    let nodes = &arena.nodes;
    let container = prune.container();
    // The whole container on a declared article; on an article page, what follows the
    // body it names, or, when no element narrower than the container holds the body,
    // what follows the last paragraph of prose.
    let (from, after_prose) = if scores.declared_article {
        (container + 1, false)
    } else if !scores.article_page {
        return;
    } else {
        match body {
            Some(b) if b > container && nodes[b].total.words < nodes[container].total.words => {
                (b + nodes[b].size as usize, false)
            }
            _ => (container + 1, true),
        }
    };
    let most = nodes[container].total.words as f32 * MAX_SHARE;
    let mut found = Vec::new();
    // The last paragraph of prose the walk reads outside the blocks found.
    let mut last_prose = 0;
    let mut walk = prune.kept(nodes, from, prune.end());
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if !n.is_block() || n.total.words == 0 {
            walk.step_over();
            continue;
        }
        if n.is_prose_paragraph() {
            last_prose = i;
        }
        // Its class words hint chrome (the fine-print words do): most blocks are passed
        // without reading their attributes.
        if n.words.score >= 0 || n.forced || holds_forced[i] || n.total.words as f32 > most {
            continue;
        }
        if named_fine_print(doc, arena, i) {
            walk.step_over();
            found.push(i);
        }
    }
    if after_prose {
        found.retain(|&i| i > last_prose);
    }
    prune.extend(found);
}

/// Whether the element's own class or id holds one of [`WORDS`].
fn named_fine_print(doc: &Document, arena: &Arena, i: usize) -> bool {
    with_element(&doc.tree, arena.nodes[i].id, |el| {
        [attr(el, &local_name!("class")), attr(el, &local_name!("id"))]
            .into_iter()
            .flatten()
            .any(|value| {
                let mut hit = false;
                for_each_word(value, |w| hit |= WORDS.iter().any(|x| w.eq_ignore_ascii_case(x)));
                hit
            })
    })
    .unwrap_or(false)
}
