//! "Read also" lines inside an article: a short paragraph, list item or heading that names
//! itself a pointer to another page ("Also read: …", "Related: …", "Read more: …", "Must
//! read: …", "Recommended: …", "Don't miss: …") and is
//! mostly that page's linked headline. The author's text goes on around it; the line is
//! the site's cross-promotion, and the ground truths leave it out. A label must be
//! followed by a colon ("Related: …"), so a sentence opening with the same words
//! ("Related posts help readers…", "Read more about the law in the report") stays.
//! On an article page where no element holds the body apart (its paragraphs are the
//! container's own), a line goes only when prose follows it in the container and its
//! label is set apart in bold ([`bold_label`]): the truths keep a plain "Read more: …"
//! closing a short post, or a headline link spelling its own label. "See also: …" and
//! "Related reading: …" count only with their label in bold anywhere.

use dom_query::Document;

use super::arena::Arena;
use super::bold_label::bold_label;
use super::closing_lines::{self, last_prose, opening_of};
use super::hints::Kind;
use super::pruning::Pruning;
use super::reading_time;
use super::vocab_i18n;

/// Words such a line holds at most (the label and a headline).
const MAX_WORDS: u32 = 30;
/// Share of the line's characters inside links at least.
const LINK_SHARE: f32 = 0.5;

/// Labels of a pointer to another page, lower case, each followed by a colon in the
/// line. Left out, as their lines are kept by the ground truths at least as often:
/// "see also" (a newspaper's in-story pointer), "related article" (a celebrity site's
/// lines), a bare "read" and "more". Sorted.
const LABELS: &[&str] = &[
    "also read",
    "check out",
    "don't miss",
    "must read",
    "read also",
    "read more",
    "recommended",
    "related",
    "you may also like",
    "you might also like",
];

/// Labels that count only set in bold ([`bold_label`]): a plain "See also: …" is a
/// newspaper's in-story pointer the ground truths keep. Sorted.
const BOLD_LABELS: &[&str] = &["related reading", "see also"];

/// Prunes, on an article page (`body` found), the "read also" lines inside the container,
/// and on any page its reading-time lines ([`reading_time`]): one walk, each candidate's
/// text read once.
pub(super) fn prune(
    doc: &Document,
    arena: &Arena,
    body: Option<usize>,
    article_page: bool,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    let article = body.is_some() || article_page;
    // Without a body, a line must stand before the container's last paragraph of prose.
    let before = match body {
        Some(_) => usize::MAX,
        None if article => last_prose(arena, prune.container(), prune).unwrap_or(0),
        None => 0,
    };
    let nodes = &arena.nodes;
    let end = prune.end();
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, prune.container() + 1, end);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        // Both kinds of line are blocks: an inline element's subtree (a link, an emphasis)
        // holds none worth a look.
        if holds_forced[i] || n.forced || !n.is_block() {
            walk.step_over();
            continue;
        }
        let line = article
            && matches!(n.kind, Kind::Para | Kind::Heading | Kind::Item)
            && n.own.chars > 0
            && n.total.words <= MAX_WORDS
            && n.total.link_chars as f32 >= LINK_SHARE * n.total.chars as f32;
        let timing = reading_time::candidate(n);
        if line || timing {
            let opening = opening_of(doc, n.id);
            let opening = opening.bytes();
            // Where the line stands, read only for a labelled line.
            let placed = || i < before && (body.is_some() || bold_label(doc, n.id));
            let bold = || closing_lines::labelled(BOLD_LABELS, opening) && bold_label(doc, n.id);
            let english = (line && (labelled(opening) || bold()) && placed())
                || (timing && reading_time::reading_time(opening));
            // The other languages' opening is read once, and only when English found nothing.
            let other_language = || {
                let intl = vocab_i18n::opening_of(doc, n.id);
                (line && vocab_i18n::read_label(&intl) && placed())
                    || (timing && vocab_i18n::reading_time(&intl))
            };
            if english || other_language() {
                found.push(i);
                walk.step_over();
            }
        }
    }
    prune.extend(found);
}

/// Whether a normalised opening is one of [`LABELS`] and a colon.
fn labelled(opening: &[u8]) -> bool {
    closing_lines::labelled(LABELS, opening)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_needs_its_colon() {
        assert!(labelled(b"also read: how to"));
        assert!(labelled(b"related : the law"));
        assert!(!labelled(b"related posts help readers"));
        assert!(!labelled(b"read more about the law"));
        assert!(!labelled(b"relatedness: a measure"));
    }

    #[test]
    fn labels_are_sorted_and_lower_case() {
        for list in [LABELS, BOLD_LABELS] {
            assert!(list.windows(2).all(|w| w[0] < w[1]));
            assert!(list.iter().all(|c| !c.bytes().any(|b| b.is_ascii_uppercase())));
        }
    }
}
