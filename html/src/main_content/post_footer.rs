//! A post's footer line after its last paragraph: "Posted by Ann at May 2, 2012 9:01 AM",
//! "Posted on November 9, 2012 · 7 Comments", "written by Ann, October 20, 2012", "Labels: gardens, walls", "Tags: …". A blog
//! theme prints it under every post, as a line in sentences or of links that the other
//! passes keep; the ground truths leave it out. A "Posted by" line without a date or time
//! stays: under a company blog's post it is the author's signature ("Posted by Ann Lee,
//! Product Manager"), which the ground truths keep. The blog platform's own sentences
//! about the post's responses ("You can follow any responses to this entry through the RSS
//! 2.0 feed. You can leave a response, or trackback from your own site.", "Both comments
//! and pings are currently closed.") go too: written in sentences, such a line is a
//! paragraph of prose, so the body's last paragraph is the last one that is not such a line.
//! Only blocks after the body's last paragraph of prose (of the whole container when no
//! body is found) are looked at.

use dom_query::Document;

use super::arena::Arena;
use super::closing_lines::{blocks_after, labelled, last_prose_where, opening_of, opens_with};
use super::inline_lines;
use super::pruning::Pruning;
use super::vocab_i18n;

/// Words a footer line holds at most.
const MAX_WORDS: u32 = 15;
/// Words a block opening with one of the platform's sentences ([`PLATFORM`]) holds at most:
/// two or three sentences with a few links.
const PLATFORM_WORDS: u32 = 40;

/// Openings of the sentences a blog platform writes under every post about its responses
/// (the trackback address's label too, and its comment form's note on markup), lower case,
/// as whole words: an author's own words do not open with them. Sorted.
const PLATFORM: &[&str] = &[
    "both comments and pings are currently closed",
    "responses are currently closed",
    "trackback url for this entry",
    "you can follow any responses to this entry",
    "you can leave a response",
    "you can skip to the end and leave a response",
    "you may use these html tags",
];

/// Openings of a footer line that carries the post's date or time (a digit in the
/// opening read; "Written by Ann Lee" alone is a byline the ground truths keep). Sorted.
const DATED: &[&str] = &["posted at", "posted by", "posted on", "written by"];

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
    let nodes = &arena.nodes;
    let platform = |j: usize| {
        nodes[j].total.words <= PLATFORM_WORDS && platform_line(opening_of(doc, nodes[j].id).bytes())
    };
    let Some(last) = last_prose_where(arena, body, prune, |j| !platform(j)) else {
        return;
    };
    let found = blocks_after(
        arena,
        last,
        PLATFORM_WORDS,
        holds_forced,
        prune,
        Some(doc),
        |i, j| {
            let opening = opening_of(doc, nodes[j].id);
            platform_line(opening.bytes())
                || (inline_lines::line_words(doc, arena, i).max(nodes[i].total.words) <= MAX_WORDS
                    && (footer(opening.bytes())
                        || vocab_i18n::tag_label(&vocab_i18n::opening_of(doc, nodes[j].id))))
        },
    );
    prune.extend(found);
}

/// Whether a normalised opening is one of the platform's sentences.
fn platform_line(opening: &[u8]) -> bool {
    opens_with(PLATFORM, opening)
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
        assert!(footer(b"written by ann, october 20, 2012"));
        assert!(!footer(b"written by ann lee"));
        assert!(footer(b"labels: gardens, walls"));
        assert!(footer(b"tags : lichens"));
        assert!(!footer(b"tags are how the site files posts"));
        assert!(!footer(b"postedby 2012"));
    }

    #[test]
    fn platform_lines_open_the_text_as_whole_words() {
        assert!(platform_line(
            b"you can follow any responses to this entry through the rss 2.0 feed"
        ));
        assert!(platform_line(b"both comments and pings are currently closed."));
        assert!(platform_line(
            b"trackback url for this entry: http://example.com/tb/1"
        ));
        assert!(!platform_line(b"you can leave a responsed"));
        assert!(!platform_line(b"if you can leave a response, do"));
    }

    #[test]
    fn lists_are_sorted_and_lower_case() {
        for list in [DATED, LABELS, PLATFORM] {
            assert!(list.windows(2).all(|w| w[0] < w[1]));
            assert!(list.iter().all(|c| !c.bytes().any(|b| b.is_ascii_uppercase())));
        }
    }
}
