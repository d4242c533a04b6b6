//! Reading-time lines: "5 min read", "Reading time: 11 minutes", "Listen to this article".
//! A blog or news theme prints one by a post's date, and on every card of a list of posts;
//! it says how long the page is, not what it says, and the ground truths leave it out.
//! Only a short block of its own that opens with such words goes (a sentence about reading
//! times is longer or opens otherwise), on any page. The walk over the container is
//! [`super::read_also`]'s, which reads each candidate's text once for both passes.

use super::arena::Node;

/// Words such a line holds at most ("5 min read", "Reading time: 11 minutes"): the
/// corpora's lines hold 2 to 4 (one 7, "Listen to this article in summarized format",
/// left out).
const MAX_WORDS: u32 = 4;
/// Characters such a line holds at most ("Reading time: 11 minutes" has 24). Each
/// candidate's text is read (some 1,500 instructions), so the limits keep the reads few.
const MAX_CHARS: u32 = 26;

/// Openings of a reading-time line, lower case, as the opening reader gives them: from the
/// first letter (the count before "min read" is not read). Sorted.
const OPENINGS: &[&str] = &[
    "listen to this article",
    "min read",
    "min. read",
    "mins read",
    "minute read",
    "minutes read",
    "reading time",
];

/// Whether `n` may be a reading-time line: a short block owning its text, no link in it.
/// [`super::read_also`]'s walk over the container asks, and reads the candidates' text.
pub(super) fn candidate(n: &Node) -> bool {
    n.is_block()
        && n.own.chars > 0
        && n.total.words >= 2
        && n.total.words <= MAX_WORDS
        && n.total.chars <= MAX_CHARS
        && n.total.link_chars == 0
}

/// Whether a normalised opening starts with one of [`OPENINGS`] as whole words.
pub(super) fn reading_time(opening: &[u8]) -> bool {
    OPENINGS.iter().any(|o| {
        opening
            .strip_prefix(o.as_bytes())
            .is_some_and(|rest| rest.first().is_none_or(|b| !b.is_ascii_alphabetic()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_whole_words() {
        assert!(reading_time(b"min read"));
        assert!(reading_time(b"reading time: 11 minutes"));
        assert!(!reading_time(b"reading timetables"));
        assert!(!reading_time(b"minutes ago"));
    }

    #[test]
    fn openings_are_sorted_and_lower_case() {
        assert!(OPENINGS.windows(2).all(|w| w[0] < w[1]));
        assert!(
            OPENINGS
                .iter()
                .all(|c| !c.bytes().any(|b| b.is_ascii_uppercase()))
        );
    }
}
