//! Short closing lines after an article's last paragraph: calls to the reader ("If you
//! enjoyed this post, subscribe to the RSS feed", "Thanks for reading!", "Sign up for our
//! newsletter", "What did you think of this story?") and the site's notices ("© 2012 …
//! All rights reserved", "Powered by …") and boxes titled about the site or its author
//! ("About This Blog", "About the author"). A blog theme or a plugin appends them to every
//! post, after the body's last paragraph of prose. Only a block that opens with such a
//! line and says little more goes; the same words inside or before the body's prose (an
//! author's own closing question among the post's paragraphs, a post about newsletters)
//! stay. On an article page where no element holds the post apart from the container (a
//! short post whose paragraphs sit in the container itself), the container's last prose
//! paragraph stands for the body's.

use dom_query::{Document, NodeData, NodeId};

use super::arena::Arena;
use super::inline_lines;
use super::pruning::Pruning;
use super::vocab_i18n;
use crate::dom::Walker;

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

/// Openings of a box's title about the site or its author ("About Our Team", "About This
/// Blog", "About the author") or of the theme's boxes under a post ("Archives", "Follow",
/// "More from …", "Recent posts", "Share", "Tags", "Read next", "Trending", "Disclaimer",
/// "Written by", "Reviewed by", "Edited by", "Meet the testers", "Filed under",
/// "Advertisement"), matched only when the text owning the
/// opening is a title ([`TITLE_WORDS`] words or fewer): "About 200 people came" is a
/// sentence. Left out, as they took text the ground truths keep: a bare "related"
/// ("Related Content" over a post's own links, "Related article: …" inside the story),
/// "recommended" (a game's system requirements), "connect" (a service page's closing
/// call), "next" (a list item opening "Next-level …": a hyphen ends a word), "comments" (a
/// form's label), "see also" (a manual's section), "print" (a list item). Sorted.
const TITLES: &[&str] = &[
    "about",
    "advertisement",
    "archive",
    "archives",
    "article reviewed by",
    "article written by",
    "author",
    "blogroll",
    "categories",
    "disclaimer",
    "edited by",
    "editor's picks",
    "email",
    "explore",
    "fact checked by",
    "filed under",
    "follow",
    "in case you missed",
    "latest",
    "medically reviewed by",
    "meet the",
    "more from",
    "more stories",
    "most popular",
    "most read",
    "newsletter",
    "next post",
    "popular",
    "popular posts",
    "posted in",
    "previous",
    "previous post",
    "read more",
    "read next",
    "recent comments",
    "recent posts",
    "related posts",
    "related stories",
    "responses",
    "reviewed by",
    "rss",
    "search",
    "share",
    "sponsored",
    "subscribe",
    "tagged",
    "tags",
    "topics",
    "trending",
    "up next",
    "written by",
    "you may also like",
    "you might also like",
];
/// Words a title holds at most.
const TITLE_WORDS: u32 = 6;

/// Openings of a call to the reader, lower case, as whole words at the start of a block's
/// text (its letters: "— Thanks for reading!" opens with "thanks for reading"), and a
/// vendor's calls under a company blog's posts ("Fill out the form…", "Start your free
/// trial…", "Book a demo"). Left out: "ready to" ("Ready to start building?" closes posts
/// whose ground truth keeps it). Sorted.
const CALLS: &[&str] = &[
    "be sure to subscribe",
    "be the first to",
    "become a paid subscriber",
    "book a demo",
    "click here to sign up",
    "click here to subscribe",
    "contact us today",
    "did you enjoy",
    "did you find this",
    "did you like",
    "do you like this",
    "don't forget to subscribe",
    "don't miss",
    "enjoyed this",
    "enter your email",
    "fill out the form",
    "follow me on",
    "follow us",
    "get started",
    "get the latest",
    "get updates",
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
    "never miss",
    "please consider",
    "please share",
    "please subscribe",
    "receive an email",
    "request a free",
    "request our",
    "share this",
    "sign up for",
    "sign up now",
    "sign up to",
    "sign-up for",
    "sign-up to",
    "start a free",
    "start your free",
    "stay in touch",
    "stay up to date",
    "stay updated",
    "subscribe now",
    "subscribe to",
    "tell us what you think",
    "thank you for reading",
    "thank you for visiting",
    "thanks for reading",
    "thanks for stopping by",
    "thanks for visiting",
    "this article is exclusive to",
    "to post a comment",
    "to read the rest of this",
    "to receive",
    "try it free",
    "unlock this article",
    "want more",
    "want to read more",
    "we welcome comments",
    "what did you think",
    "what is included in a subscription",
    "you can follow any responses",
    "you may use these",
    "you might also enjoy",
];

/// Prunes, on an article page (`body` found), the short blocks after the body's last
/// paragraph of prose that open with a call to the reader or a notice.
pub(super) fn prune(
    doc: &Document,
    arena: &Arena,
    body: Option<usize>,
    article_page: bool,
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    let Some(last) = closing_prose(arena, body, article_page, prune) else {
        return;
    };
    let nodes = &arena.nodes;
    // A wrapper and its first child share their opening, so each owner is read once (the
    // last one read is kept).
    let mut read: Option<(usize, bool)> = None;
    let found = blocks_after(
        arena,
        last,
        MAX_WORDS,
        holds_forced,
        prune,
        Some(doc),
        |_, j| match read {
            Some((r, hit)) if r == j => hit,
            _ => {
                // A title is a block's: an inline line ("Email", "Read More »") is read
                // for calls and notices only.
                let title = nodes[j].is_block() && nodes[j].own.words <= TITLE_WORDS;
                let hit = closing_line(doc, nodes[j].id, title);
                read = Some((j, hit));
                hit
            }
        },
    );
    prune.extend(found);
}

/// The blocks of `max_words` words at most after the paragraph `last` (to the container's
/// end) whose opening passes `opens`: each block's text opens with the text of its first
/// element owning text; `opens` gets the block's index and that element's. With `lines`,
/// an inline element standing as a line of its own ([`inline_lines`]) is read too, as its
/// own owner. Pruned and forced subtrees are skipped; a block found is not looked into.
pub(super) fn blocks_after(
    arena: &Arena,
    last: usize,
    max_words: u32,
    holds_forced: &[bool],
    prune: &Pruning,
    lines: Option<&Document>,
    mut opens: impl FnMut(usize, usize) -> bool,
) -> Vec<usize> {
    let nodes = &arena.nodes;
    let end = prune.end();
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, last + nodes[last].size as usize, end);
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if holds_forced[i] || n.forced {
            walk.step_over();
            continue;
        }
        if !n.is_block() {
            continue;
        }
        if n.total.words <= max_words {
            let owner = (i..i + n.size as usize).find(|&j| nodes[j].own.chars > 0 && !nodes[j].dropped);
            if owner.is_some_and(|j| opens(i, j)) {
                found.push(i);
                walk.step_over();
                continue;
            }
        }
        // The walk steps over inline elements (their text is the block's): the block's
        // inline lines are read here.
        if let Some(doc) = lines
            && n.own.words > 0
        {
            let inline = inline_after(doc, arena, i, 0, max_words, holds_forced, prune);
            found.extend(inline.filter(|&c| opens(c, c)));
        }
    }
    // And those of the blocks around `last`, after it.
    if let Some(doc) = lines {
        let mut a = nodes[last].parent as usize;
        while a != u32::MAX as usize && a >= prune.container() {
            let inline = inline_after(doc, arena, a, last, max_words, holds_forced, prune);
            found.extend(inline.filter(|&c| opens(c, c)));
            a = nodes[a].parent as usize;
        }
    }
    found
}

/// The inline children of the block `b` after the entry `from` that stand as a line of
/// their own of `max_words` words at most.
fn inline_after<'a>(
    doc: &'a Document,
    arena: &'a Arena,
    b: usize,
    from: usize,
    max_words: u32,
    holds_forced: &'a [bool],
    prune: &'a Pruning,
) -> impl Iterator<Item = usize> + 'a {
    let nodes = &arena.nodes;
    arena.children(b).filter(move |&c| {
        c > from
            && !prune.is_gone(c)
            && !holds_forced[c]
            && !nodes[c].forced
            && inline_lines::stands_alone(doc, arena, c).is_some_and(|w| w <= max_words)
    })
}

/// Whether a normalised opening is one of `labels` followed by a colon ("Tags: …",
/// "Related : …").
pub(super) fn labelled(labels: &[&str], opening: &[u8]) -> bool {
    labels.iter().any(|l| {
        opening
            .strip_prefix(l.as_bytes())
            .is_some_and(|rest| rest.trim_ascii_start().first() == Some(&b':'))
    })
}

/// The paragraph the passes reading what closes an article read after: the `body`'s last
/// paragraph of prose, or without a body (a short post) on an article page the
/// container's.
pub(super) fn closing_prose(
    arena: &Arena,
    body: Option<usize>,
    article_page: bool,
    prune: &Pruning,
) -> Option<usize> {
    let body = body.or(article_page.then(|| prune.container()));
    body.and_then(|body| last_prose(arena, body, prune))
}

/// The `body`'s last paragraph of prose still kept (a thread pruned inside it is not),
/// looked for from the end.
pub(super) fn last_prose(arena: &Arena, body: usize, prune: &Pruning) -> Option<usize> {
    last_prose_where(arena, body, prune, |_| true)
}

/// The `body`'s last paragraph of prose still kept that passes `counts`.
pub(super) fn last_prose_where(
    arena: &Arena,
    body: usize,
    prune: &Pruning,
    mut counts: impl FnMut(usize) -> bool,
) -> Option<usize> {
    let nodes = &arena.nodes;
    let body_end = body + nodes[body].size as usize;
    let kept = |mut j: usize| loop {
        if prune.is_gone(j) {
            return false;
        }
        if j == body {
            return true;
        }
        j = nodes[j].parent as usize;
    };
    (body..body_end)
        .rev()
        .find(|&j| nodes[j].is_prose_paragraph() && kept(j) && counts(j))
}

/// Whether the text of the element `id` opens with one of [`CALLS`] or [`NOTICES`], or
/// with `©`. Its text nodes are read in order until the opening is long enough.
fn closing_line(doc: &Document, id: NodeId, title: bool) -> bool {
    let opening = opening_of(doc, id);
    opening.copyright
        || opens_with(CALLS, opening.bytes())
        || opens_with(NOTICES, opening.bytes())
        || (title && opens_with(TITLES, opening.bytes()))
        || vocab_i18n::closing_line(&vocab_i18n::opening_of(doc, id), title)
}

/// The opening of the element `id`'s text: its text nodes are read in order until it is
/// long enough.
pub(crate) fn opening_of(doc: &Document, id: NodeId) -> Opening {
    let mut opening = Opening::default();
    for node in Walker::new(&doc.tree, id) {
        let more = doc
            .tree
            .query_node(&node, |n| match &n.data {
                NodeData::Text { contents } => opening.feed(contents),
                _ => true,
            })
            .unwrap_or(false);
        if !more {
            break;
        }
    }
    opening
}

/// Whether a normalised opening starts with one of `list` (sorted) as whole words. Only
/// the entries sharing the opening's first byte are compared.
pub(super) fn opens_with(list: &[&str], opening: &[u8]) -> bool {
    let Some(&first) = opening.first() else {
        return false;
    };
    let from = list.partition_point(|c| c.as_bytes()[0] < first);
    list[from..]
        .iter()
        .take_while(|c| c.as_bytes()[0] == first)
        .any(|c| {
            let c = c.as_bytes();
            opening.starts_with(c) && opening.get(c.len()).is_none_or(|b| !b.is_ascii_alphabetic())
        })
}

/// The first [`OPENING_LEN`] bytes of a text from its first letter, lower case, white
/// space collapsed to one space, a typographic apostrophe written `'`; it stops at any
/// other character that is not ASCII. Fed text node by text node.
pub(crate) struct Opening {
    buf: [u8; OPENING_LEN],
    len: usize,
    /// White space seen since the last byte kept.
    space: bool,
    /// A character other than white space was read before the first letter.
    lead: bool,
    /// The text's first character (white space aside) is `©`.
    copyright: bool,
}

impl Default for Opening {
    fn default() -> Self {
        Opening {
            buf: [0; OPENING_LEN],
            len: 0,
            space: false,
            lead: false,
            copyright: false,
        }
    }
}

impl Opening {
    /// Reads `text`; whether more text is wanted.
    fn feed(&mut self, text: &str) -> bool {
        for c in text.chars() {
            if self.len == 0 && !c.is_ascii_alphabetic() {
                // Before the first letter: only a leading `©` matters.
                if c == '\u{a9}' && !self.lead {
                    self.copyright = true;
                    return false;
                }
                self.lead |= !c.is_whitespace();
                continue;
            }
            let b = match c {
                '\u{2019}' => b'\'',
                c if c.is_whitespace() => {
                    self.space = true;
                    continue;
                }
                c if c.is_ascii() => c.to_ascii_lowercase() as u8,
                _ => return false,
            };
            if self.space && self.len + 1 < OPENING_LEN {
                self.buf[self.len] = b' ';
                self.len += 1;
            }
            self.space = false;
            self.buf[self.len] = b;
            self.len += 1;
            if self.len == OPENING_LEN {
                return false;
            }
        }
        true
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(text: &str) -> bool {
        let mut opening = Opening::default();
        opening.feed(text);
        opens_with(CALLS, opening.bytes())
    }

    #[test]
    fn calls_open_the_text_as_whole_words() {
        assert!(call("  — Thanks for reading!"));
        assert!(call("If you enjoyed this post, please consider subscribing."));
        assert!(call("If you\u{2019}re new here, subscribe to the feed."));
        assert!(call("Sign up\n  for our newsletter"));
        assert!(call("Sign-up to the newsletter"));
        assert!(!call("Subscribers to the service pay monthly."));
        assert!(!call("The editors thank you for reading."));
        assert!(!call("Joinery is an old craft."));
    }

    #[test]
    fn a_copyright_sign_counts_only_as_the_first_character() {
        let lead = |texts: &[&str]| {
            let mut opening = Opening::default();
            texts.iter().all(|t| opening.feed(t));
            opening.copyright
        };
        assert!(lead(&["\n  ", "\u{a9} 2012 Coast Media"]));
        assert!(!lead(&["(\u{a9} Coast Media)"]));
        assert!(!lead(&["Photo \u{a9} Coast Media"]));
    }

    #[test]
    fn openings_are_sorted_and_lower_case() {
        for list in [CALLS, NOTICES, TITLES] {
            // `opens_with` looks its candidates up by their first byte.
            assert!(list.iter().all(|c| !c.is_empty()));
            assert!(list.windows(2).all(|w| w[0] < w[1]));
            assert!(list.iter().all(|c| !c.bytes().any(|b| b.is_ascii_uppercase())));
        }
    }
}
