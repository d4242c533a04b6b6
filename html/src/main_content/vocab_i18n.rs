//! Furniture labels in the languages most common on the web besides English (German,
//! French, Spanish, Portuguese, Italian, Dutch, Polish, Russian, Turkish, Japanese,
//! Chinese, Korean): the equivalents of the English phrase lists of [`super::phrases`],
//! [`super::closing_lines`], [`super::post_footer`], [`super::read_also`] and
//! [`super::reading_time`], matched the
//! same strict way. The phrases are data ([`tables`]); this module normalises a text
//! (Unicode lower case, white space collapsed, a run of digits written `#`, what precedes
//! the first letter dropped) and matches a phrase as the whole text, or as its start ending
//! where a word does (a `*` phrase may end inside one: Japanese and Chinese write no
//! spaces), or as a label followed by a colon. Counts land anywhere around a title
//! ("12 Kommentare", "Kommentare (12)", "コメント(3)", "3件のコメント", "댓글 3개"): what
//! precedes the first letter is dropped and what follows a whole-word match is free. The
//! English lists are checked first; these only add matches.

mod first_words;
mod tables;

use tables::Use;

use std::sync::LazyLock;

use dom_query::{Document, NodeData, NodeId};

use crate::dom::Walker;

/// Number of uses.
const USES: usize = 12;

/// Bytes of a normalised text kept (what comes after is not read).
const CAP: usize = 128;

/// A text normalised for matching (see the module docs), fed text node by text node.
pub(crate) struct Norm {
    buf: [u8; CAP],
    len: usize,
    /// End of the text's last letter.
    core: usize,
    /// The first letter has been read.
    started: bool,
    /// A digit came before the first letter (a count: "12 Kommentare").
    pub(crate) counted: bool,
    /// White space since the last character kept.
    space: bool,
    /// The last character kept was a digit.
    digit: bool,
    /// The text did not fit.
    full: bool,
}

impl Default for Norm {
    fn default() -> Self {
        Norm {
            buf: [0; CAP],
            len: 0,
            core: 0,
            started: false,
            counted: false,
            space: false,
            digit: false,
            full: false,
        }
    }
}

impl Norm {
    /// `text` normalised.
    pub(crate) fn of(text: &str) -> Norm {
        let mut n = Norm::default();
        n.feed(text);
        n
    }

    /// Reads `text`; whether more text fits.
    pub(crate) fn feed(&mut self, text: &str) -> bool {
        for c in text.chars() {
            if !self.started {
                if !c.is_alphabetic() {
                    self.counted |= c.is_numeric();
                    continue;
                }
                self.started = true;
            }
            if c.is_whitespace() {
                self.space = true;
                continue;
            }
            if c.is_numeric() {
                if self.digit && !self.space {
                    continue;
                }
                if !self.put('#') {
                    return false;
                }
                self.digit = true;
                continue;
            }
            self.digit = false;
            let ok = match c {
                '\u{2019}' | '\u{2bc}' | '`' => self.put('\''),
                '\u{ff1a}' => self.put(':'),
                '\u{130}' => self.put('i'),
                c if c.is_ascii() => self.put(c.to_ascii_lowercase()),
                c => c.to_lowercase().all(|l| self.put(l)),
            };
            if !ok {
                return false;
            }
            if c.is_alphabetic() {
                self.core = self.len;
            }
        }
        true
    }

    /// Appends `c` (after a space if white space came before it); false when it does not fit.
    fn put(&mut self, c: char) -> bool {
        let space = self.space && self.len > 0;
        if self.full || self.len + c.len_utf8() + usize::from(space) > CAP {
            self.full = true;
            return false;
        }
        if space {
            self.buf[self.len] = b' ';
            self.len += 1;
        }
        self.space = false;
        self.len += c.encode_utf8(&mut self.buf[self.len..]).len();
        true
    }

    /// The text up to its last letter.
    fn core(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.core]).unwrap_or("")
    }

    /// The whole normalised text read.
    fn all(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

/// The normalised opening of the element `id`'s text: its text nodes are read in order
/// until the buffer is full.
pub(crate) fn opening_of(doc: &Document, id: NodeId) -> Norm {
    let mut norm = Norm::default();
    for node in Walker::new(&doc.tree, id) {
        let more = doc
            .tree
            .query_node(&node, |n| match &n.data {
                NodeData::Text { contents } => norm.feed(contents),
                _ => true,
            })
            .unwrap_or(true);
        if !more {
            break;
        }
    }
    norm
}

/// The phrases of each use, sorted (by bytes, so phrases sharing a first character are
/// neighbours) and without repeats.
static INDEX: LazyLock<[Vec<&'static str>; USES]> = LazyLock::new(|| {
    let mut lists: [Vec<&'static str>; USES] = Default::default();
    for family in tables::FAMILIES {
        for (bit, list) in lists.iter_mut().enumerate() {
            if family.uses & (1 << bit) != 0 {
                list.extend(family.phrases.iter().copied());
            }
        }
    }
    for list in &mut lists {
        list.sort_unstable();
        list.dedup();
    }
    lists
});

/// The phrases of `uses` (one bit) whose first character is the first of `s`.
fn candidates(uses: u16, s: &str) -> &'static [&'static str] {
    let Some(first) = s.chars().next() else {
        return &[];
    };
    let list = &INDEX[uses.trailing_zeros() as usize];
    let mut key = [0u8; 4];
    let key = first.encode_utf8(&mut key);
    let from = list.partition_point(|p| *p < &*key);
    let to = from + list[from..].partition_point(|p| p.starts_with(&*key));
    &list[from..to]
}

/// `s` after `phrase` when `s` starts with it as whole words (a `*` phrase: as a start of
/// a word too).
fn after<'s>(s: &'s str, phrase: &str) -> Option<&'s str> {
    let (p, open) = phrase.strip_suffix('*').map_or((phrase, false), |p| (p, true));
    let rest = s.strip_prefix(p)?;
    (open || rest.chars().next().is_none_or(|c| !c.is_alphanumeric())).then_some(rest)
}

/// Whether `s` starts with one of the phrases of `uses` as whole words.
fn starts(uses: u16, s: &str) -> bool {
    candidates(uses, s).iter().any(|p| after(s, p).is_some())
}

/// Whether `s` is one of the phrases of `uses`.
fn exact(uses: u16, s: &str) -> bool {
    candidates(uses, s).contains(&s)
}

/// Whether `s` opens with one of the phrases of `uses` and a colon.
fn labelled(uses: u16, s: &str) -> bool {
    candidates(uses, s)
        .iter()
        .any(|p| after(s, p).is_some_and(|rest| rest.trim_start().starts_with(':')))
}

/// Whether a short text is furniture and whether it titles a block of pointers to other
/// pages (the equivalents of `phrases::short_text_kinds`).
pub(crate) fn short_text_kinds(text: &str) -> (bool, bool) {
    if !first_words::SHORT.known(text) {
        return (false, false);
    }
    let n = Norm::of(text);
    if n.full {
        return (false, false);
    }
    let s = n.core();
    (
        exact(Use::EXACT, s) || starts(Use::PREFIX, s),
        starts(Use::POINTER, s),
    )
}

/// Whether a heading's text titles a comment section ("12 Kommentare", "コメント (3)").
pub(crate) fn is_comment_title(text: &str) -> bool {
    if !first_words::COMMENTS.known(text) {
        return false;
    }
    let n = Norm::of(text);
    let s = n.core();
    starts(Use::COMMENT, s)
        || noun(Use::COMMENT_NOUN, s)
        || (n.counted && (noun(Use::COUNTED, s) || starts(Use::COUNTED_ON, s)))
}

/// Whether `s` starts with one of the phrases of `uses` as whole words and says nothing
/// more but a count (letters after a count: "댓글 3개", "コメント 3件").
fn noun(uses: u16, s: &str) -> bool {
    candidates(uses, s).iter().any(|p| {
        after(s, p).is_some_and(|rest| {
            !rest
                .split('#')
                .next()
                .unwrap_or("")
                .chars()
                .any(char::is_alphabetic)
        })
    })
}

/// Whether a block's opening is a call to the reader closing a post or, when the block
/// is a title, a title of the boxes after a post.
pub(crate) fn closing_line(opening: &Norm, title: bool) -> bool {
    let s = opening.all();
    starts(Use::CALL, s) || (title && starts(Use::TITLE, s))
}

/// Whether a block's opening is a footer line's label and a colon ("Schlagwörter: …").
pub(crate) fn tag_label(opening: &Norm) -> bool {
    labelled(Use::TAG_LABEL, opening.all())
}

/// Whether a block's opening is a "read also" label and a colon ("À lire aussi : …").
pub(crate) fn read_label(opening: &Norm) -> bool {
    labelled(Use::READ_LABEL, opening.all())
}

/// Whether a short block's opening is a reading-time line's ("Lesezeit: 5 Minuten").
pub(crate) fn reading_time(opening: &Norm) -> bool {
    starts(Use::READING, opening.all())
}

#[cfg(test)]
mod tests;
