//! A post's footer line after its last paragraph: "Posted by Ann at May 2, 2012 9:01 AM",
//! "Posted on November 9, 2012 · 7 Comments", "Labels: gardens, walls", "Tags: …". A blog
//! theme prints it under every post, as a line in sentences or of links that the other
//! passes keep; the ground truths leave it out. A "Posted by" line without a date or time
//! stays: under a company blog's post it is the author's signature ("Posted by Ann Lee,
//! Product Manager"), which the ground truths keep. Only blocks after the body's last
//! paragraph of prose (of the whole container when no body is found) are looked at.

use dom_query::Document;

use super::arena::Arena;
use super::closing_lines::{blocks_after, labelled, last_prose, opening_of};
use super::pruning::Pruning;

/// Words a footer line holds at most.
const MAX_WORDS: u32 = 15;

/// Openings of a footer line that carries the post's date or time (a digit in the
/// opening read). Sorted.
const DATED: &[&str] = &["posted at", "posted by", "posted on"];

/// Labels of a footer line, each followed by a colon. Sorted.
const LABELS: &[&str] = &[
    "categories",
    "category",
    "filed under",
    "labels",
    "posted in",
    "tagged",
    "tags",
];

/// Prunes the footer lines after the last paragraph of prose of the article's `body`, or
/// of the container on a page where no body was found (a short post: its reader comments'
/// "Posted by … at <date>" lines go too).
pub(super) fn prune(
    doc: &Document,
    arena: &Arena,
    body: Option<usize>,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    let body = body.unwrap_or(prune.container());
    let Some(last) = last_prose(arena, body, prune) else {
        return;
    };
    let nodes = &arena.nodes;
    let found = blocks_after(arena, last, MAX_WORDS, holds_forced, prune, |j| {
        footer(opening_of(doc, nodes[j].id).bytes())
    });
    prune.extend(found);
}

/// Whether a normalised opening is a footer line's.
fn footer(opening: &[u8]) -> bool {
    let dated = DATED.iter().any(|d| {
        opening
            .strip_prefix(d.as_bytes())
            .is_some_and(|rest| rest.first() == Some(&b' ') && rest.iter().any(u8::is_ascii_digit))
    });
    dated || labelled(LABELS, opening)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_posted_by_line_needs_a_date_and_a_label_its_colon() {
        assert!(footer(b"posted by ann at may 2, 2012 9:01 am"));
        assert!(footer(b"posted on november 9, 2012"));
        assert!(!footer(b"posted by ann lee, product manager"));
        assert!(footer(b"labels: gardens, walls"));
        assert!(footer(b"tags : lichens"));
        assert!(!footer(b"tags are how the site files posts"));
        assert!(!footer(b"postedby 2012"));
    }

    #[test]
    fn lists_are_sorted_and_lower_case() {
        for list in [DATED, LABELS] {
            assert!(list.windows(2).all(|w| w[0] < w[1]));
            assert!(list.iter().all(|c| !c.bytes().any(|b| b.is_ascii_uppercase())));
        }
    }
}
