//! Short closing lines after an article's last paragraph: calls to the reader ("If you
//! enjoyed this post, subscribe to the RSS feed", "Thanks for reading!", "Sign up for our
//! newsletter", "What did you think of this story?") and the site's notices ("© 2012 …
//! All rights reserved", "Powered by …"). A blog theme or a plugin appends them to every
//! post, after the body's last paragraph of prose. Only a block that opens with such a
//! line and says little more goes; the same words inside or before the body's prose (an
//! author's own closing question among the post's paragraphs, a post about newsletters)
//! stay.

use dom_query::Document;

use super::arena::{Arena, Node};
use super::hints::Kind;
use super::pruning::Pruning;

/// Words a block opening with a call holds at most: the call (one or two sentences) and
/// the small box around it (a form's labels, a comment policy). 40 words left a few such
/// boxes; 120 took them, and 200 or 400 move no further page.
const MAX_WORDS: u32 = 120;
/// Bytes of a block's text read to match its opening.
const OPENING_LEN: usize = 48;

/// Openings of the site's notices: a copyright line, the platform's credit. (A text
/// opening with `©` is one too.) Sorted.
const NOTICES: &[&str] = &[
    "all rights reserved",
    "comments powered by",
    "copyright",
    "powered by",
];

/// Openings of a call to the reader, lower case, as whole words at the start of a block's
/// text (its letters: "— Thanks for reading!" opens with "thanks for reading"). Sorted.
const CALLS: &[&str] = &[
    "be sure to subscribe",
    "click here to sign up",
    "click here to subscribe",
    "did you enjoy",
    "did you find this",
    "did you like",
    "do you like this",
    "don't forget to subscribe",
    "enjoyed this",
    "follow us",
    "get the latest",
    "if you enjoyed",
    "if you found this",
    "if you like this",
    "if you like what",
    "if you liked",
    "if you re new",
    "if you're new",
    "join our",
    "join over",
    "leave a comment",
    "leave a reply",
    "let us know what you think",
    "like this article",
    "like this post",
    "like this story",
    "liked this",
    "please consider",
    "please share",
    "please subscribe",
    "share this",
    "sign up for",
    "sign up now",
    "sign up to",
    "subscribe now",
    "subscribe to",
    "tell us what you think",
    "thank you for reading",
    "thank you for visiting",
    "thanks for reading",
    "thanks for stopping by",
    "thanks for visiting",
    "to post a comment",
    "to receive",
    "want more",
    "we welcome comments",
    "what did you think",
    "you can follow any responses",
    "you may use these",
];

/// Prunes, on an article page (`body` found), the short blocks after the body's last
/// paragraph of prose that open with a call to the reader or a notice.
pub(super) fn prune(
    doc: &Document,
    arena: &Arena,
    body: Option<usize>,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    let Some(body) = body else { return };
    let nodes = &arena.nodes;
    let end = prune.end();
    let body_end = body + nodes[body].size as usize;
    // The body's last paragraph of prose still kept (a thread pruned inside it is not).
    let mut last = None;
    let mut i = body;
    while i < body_end {
        let n = &nodes[i];
        if prune.skips(i, n) {
            i += n.size as usize;
            continue;
        }
        if prose(n) {
            last = Some(i);
        }
        i += 1;
    }
    let Some(last) = last else { return };
    let mut found = Vec::new();
    let mut i = last + nodes[last].size as usize;
    while i < end {
        let n = &nodes[i];
        if prune.skips(i, n) || holds_forced[i] || n.forced {
            i += n.size as usize;
            continue;
        }
        if n.is_block() && n.total.words <= MAX_WORDS && closing_line(doc, n) {
            found.push(i);
            i += n.size as usize;
        } else {
            i += 1;
        }
    }
    prune.extend(found);
}

/// A paragraph of prose (as [`super::link_lists`] counts the body's prose).
fn prose(n: &Node) -> bool {
    n.kind == Kind::Para && !n.dropped && n.own.words >= 12 && n.own.link_density() < 0.3
}

/// Whether the text of `n` opens with one of [`CALLS`] or [`NOTICES`], or with `©`.
fn closing_line(doc: &Document, n: &Node) -> bool {
    let text = doc.tree.get_unchecked(&n.id).text();
    if text.trim_start().starts_with('\u{a9}') {
        return true;
    }
    let mut buf = [0u8; OPENING_LEN];
    let opening = normalized_opening(&text, &mut buf);
    opens_with(CALLS, opening) || opens_with(NOTICES, opening)
}

/// Whether a normalised opening starts with one of `list` as whole words.
fn opens_with(list: &[&str], opening: &[u8]) -> bool {
    list.iter().any(|c| {
        let c = c.as_bytes();
        opening.starts_with(c) && opening.get(c.len()).is_none_or(|b| !b.is_ascii_alphabetic())
    })
}

/// The first [`OPENING_LEN`] bytes of `text` from its first letter, lower case, white
/// space collapsed to one space, a typographic apostrophe written `'`; it stops at any
/// other character that is not ASCII.
fn normalized_opening<'a>(text: &str, buf: &'a mut [u8; OPENING_LEN]) -> &'a [u8] {
    let Some(start) = text.find(|c: char| c.is_ascii_alphabetic()) else {
        return &buf[..0];
    };
    let mut len = 0;
    let mut space = false;
    for c in text[start..].chars() {
        if len == OPENING_LEN {
            break;
        }
        let b = match c {
            '\u{2019}' => b'\'',
            c if c.is_whitespace() => {
                space = true;
                continue;
            }
            c if c.is_ascii() => c.to_ascii_lowercase() as u8,
            _ => break,
        };
        if space && len < OPENING_LEN - 1 {
            buf[len] = b' ';
            len += 1;
        }
        space = false;
        buf[len] = b;
        len += 1;
    }
    &buf[..len]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(text: &str) -> bool {
        let mut buf = [0u8; OPENING_LEN];
        opens_with(CALLS, normalized_opening(text, &mut buf))
    }

    #[test]
    fn calls_open_the_text_as_whole_words() {
        assert!(call("  — Thanks for reading!"));
        assert!(call("If you enjoyed this post, please consider subscribing."));
        assert!(call("If you\u{2019}re new here, subscribe to the feed."));
        assert!(call("Sign up\n  for our newsletter"));
        assert!(!call("Subscribers to the service pay monthly."));
        assert!(!call("The editors thank you for reading."));
        assert!(!call("Joinery is an old craft."));
    }

    #[test]
    fn openings_are_sorted_and_lower_case() {
        for list in [CALLS, NOTICES] {
            assert!(list.windows(2).all(|w| w[0] < w[1]));
            assert!(list.iter().all(|c| !c.bytes().any(|b| b.is_ascii_uppercase())));
        }
    }
}
