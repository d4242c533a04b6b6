//! Short texts that are page furniture whatever element holds them: calls to action,
//! sharing and account links, the titles of "related" and "newsletter" boxes. Only whole
//! short text nodes are matched ("Share", "Related posts", "Comments (12)"), and a block
//! counts as furniture only when every text node in it does, so the same words inside a
//! sentence are never touched. English only: other languages simply get no help here.
//! Two shapes count in any language: a link whose text is a bare site path (an include
//! left unrendered) and a plain text that is a bare absolute URL (a data field's value).
//! A script's "Loading …" placeholder (an ellipsis at its end) counts as furniture too.

/// Texts that are chrome when they are the whole text node (after trimming counts and
/// punctuation: "Comments (12)" → "comments"). Sorted (binary search).
const EXACT: &[&str] = &[
    "about the author",
    "about the authors",
    "accept",
    "accept all",
    "accessibility",
    "add to bag",
    "add to basket",
    "add to cart",
    "add to wish list",
    "add to wishlist",
    "advertisement",
    "all rights reserved",
    "article continues below",
    "ask a question",
    "back",
    "back to blog",
    "back to top",
    "book a demo",
    "book now",
    "buy now",
    "call me back",
    "check availability",
    "click to expand",
    "close",
    "comments",
    "contact",
    "contact us",
    "continue reading",
    "cookie settings",
    "copy link",
    "deal of the day",
    "download the app",
    "email",
    "facebook",
    "filter",
    "filters",
    "find in store",
    "follow",
    "follow us",
    "free delivery",
    "free returns",
    "free shipping",
    "free shipping & returns",
    "free shipping and returns",
    "get a quote",
    "get in touch",
    "get started",
    "get the app",
    "home",
    "in stock",
    "instagram",
    "like",
    "like this",
    "linkedin",
    "load more",
    "loading",
    "log in",
    "log out",
    "login",
    "menu",
    "more",
    "multi quote",
    "newsletter",
    "newsletters",
    "next",
    "notify me",
    "open in app",
    "out of stock",
    "pick up in store",
    "pinterest",
    "previous",
    "print",
    "privacy policy",
    "quick shop",
    "quick view",
    "quote",
    "quote reply",
    "read more",
    "register",
    "related",
    "reply",
    "reply with quote",
    "report",
    "request a demo",
    "request a quote",
    "search",
    "secure checkout",
    "see all",
    "see all posts",
    "see less",
    "see more",
    "see plans",
    "share",
    "share this",
    "shop now",
    "show all",
    "show less",
    "show more",
    "sign in",
    "sign up",
    "size chart",
    "size guide",
    "skip",
    "something went wrong",
    "sort",
    "sort by",
    "sort options",
    "sponsored",
    "stay connected",
    "subscribe",
    "subscribe here",
    "table of contents",
    "terms of service",
    "terms of use",
    "tiktok",
    "toggle navigation",
    "trending",
    "tweet",
    "twitter",
    "upvote",
    "view all",
    "view less",
    "view more",
    "view options",
    "whatsapp",
    "write a review",
    "youtube",
];

/// Beginnings of short texts that are chrome ("Related articles", "Sign up for our
/// newsletter", "You may also like"). Sorted (searched from where the text would go).
const PREFIX: &[&str] = &[
    "also read",
    "customers also",
    "frequently bought",
    "get started",
    "get the latest",
    "improve this",
    "in partnership with",
    "join date",
    "join our",
    "join the conversation",
    "join to",
    "last modified",
    "last updated",
    "latest posts",
    "leave a comment",
    "leave a reply",
    "log in to",
    "more articles",
    "more by",
    "more from",
    "more posts",
    "more stories",
    "more topics",
    "most popular",
    "most read",
    "not open for further replies",
    "people also",
    "popular posts",
    "post a comment",
    "posted by",
    "posted on",
    "published on",
    "read next",
    "recent posts",
    "recommended articles",
    "recommended for you",
    "recommended reading",
    "recommended stories",
    "related articles",
    "related posts",
    "related products",
    "related stories",
    "report inappropriate",
    "report this",
    "sent from my",
    "share on",
    "share this",
    "ships from",
    "showing",
    "sign in to",
    "sign up for",
    "sign up to",
    "similar posts",
    "similar products",
    "similar threads",
    "skip to",
    "subscribe to",
    "top posters in",
    "trending now",
    "updated on",
    "use promo code",
    "was this helpful",
    "what others are reading",
    "written by",
    "you may also",
    "you may also like",
    "you may be interested",
    "you might also like",
    "you must be logged in",
    "you must log in",
];

/// Longest text (bytes, trimmed) looked at.
const MAX_LEN: usize = 48;

/// Whether a text node is furniture (see the module docs).
#[cfg(test)]
fn is_furniture(text: &str) -> bool {
    let mut buf = [0u8; MAX_LEN];
    normalized(text, &mut buf).is_some_and(furniture_in)
}

/// Whether a short text is furniture and whether it titles a block of pointers to other
/// pages (see the module docs, [`POINTER_TITLES`] and [`MORE_OF_A_KIND`]), from one
/// normalisation of it.
pub(super) fn short_text_kinds(text: &str) -> (bool, bool) {
    let mut buf = [0u8; MAX_LEN];
    let english = normalized(text, &mut buf).map_or((false, false), |s| {
        (
            furniture_in(s) || loading_placeholder(text, s),
            pointer_in(s) || more_of_a_kind(s),
        )
    });
    if english.0 || english.1 {
        return english;
    }
    super::vocab_i18n::short_text_kinds(text)
}

/// Whether a short text is a script's placeholder for what it has yet to fetch: it opens
/// with "loading" and ends with an ellipsis ("Loading posts…", "Loading prices for your
/// region..."). A title that opens so ("Loading States & Performance UX") has no
/// ellipsis. `s` is `text` normalised.
fn loading_placeholder(text: &str, s: &[u8]) -> bool {
    if !starts_as_words(s, "loading", false) {
        return false;
    }
    let t = text.trim_end();
    t.ends_with('\u{2026}') || t.ends_with("...")
}

/// `text` lower-cased with single spaces, trimmed of what is not a letter at both ends;
/// `None` when it is empty, long or not ASCII. (ASCII bytes: read as they are, without a
/// UTF-8 check.)
fn normalized<'a>(text: &str, buf: &'a mut [u8; MAX_LEN]) -> Option<&'a [u8]> {
    if text.len() > 4 * MAX_LEN {
        return None;
    }
    // Trim decorations and counts: "→ Share", "Comments (12)", "Share:".
    // By bytes: a byte of a non-ASCII character is never an ASCII letter, so the ends land
    // on character boundaries, as trimming characters did.
    let b = text.as_bytes();
    let start = b.iter().position(u8::is_ascii_alphabetic)?;
    let end = b
        .iter()
        .rposition(u8::is_ascii_alphabetic)
        .map_or(start, |e| e + 1);
    let t = &b[start..end];
    if t.len() > MAX_LEN || !t.is_ascii() {
        return None;
    }
    // Lower-case with single spaces.
    let mut len = 0;
    let mut space = false;
    for &b in t {
        if b.is_ascii_whitespace() {
            space = true;
            continue;
        }
        if space && len > 0 {
            buf[len] = b' ';
            len += 1;
        }
        space = false;
        buf[len] = b.to_ascii_lowercase();
        len += 1;
    }
    Some(&buf[..len])
}

/// Per first letter, the range of a sorted list's entries that start with it (entries
/// start with a lower-case letter: checked when compiling).
const fn letter_ranges(list: &[&str]) -> [(u16, u16); 26] {
    let mut out = [(0u16, 0u16); 26];
    let mut i = 0;
    while i < list.len() {
        let b = list[i].as_bytes()[0];
        assert!(b.is_ascii_lowercase(), "a phrase starts with a lower-case letter");
        let k = (b - b'a') as usize;
        if out[k].0 == out[k].1 {
            out[k].0 = i as u16;
        }
        out[k].1 = i as u16 + 1;
        i += 1;
    }
    out
}

const EXACT_BY_LETTER: [(u16, u16); 26] = letter_ranges(EXACT);
const PREFIX_BY_LETTER: [(u16, u16); 26] = letter_ranges(PREFIX);
const POINTER_BY_LETTER: [(u16, u16); 26] = letter_ranges(POINTER_TITLES);

/// The entries of `list` that start with the first letter of `s` (`ranges` is its
/// [`letter_ranges`]; a normalised text starts with a lower-case letter).
fn same_letter<'l>(list: &'l [&'static str], ranges: &[(u16, u16); 26], s: &[u8]) -> &'l [&'static str] {
    match s.first().map(|b| b.wrapping_sub(b'a')) {
        Some(k) if k < 26 => {
            let (from, to) = ranges[k as usize];
            &list[from as usize..to as usize]
        }
        _ => &[],
    }
}

/// Whether `p` starts `s` as whole words: the byte after it, if any, is not a letter
/// (`digits_end`: nor a digit).
fn starts_as_words(s: &[u8], p: &str, digits_end: bool) -> bool {
    let p = p.as_bytes();
    match s.get(p.len()) {
        None => s.len() == p.len() && s == p,
        Some(&b) => !(b.is_ascii_alphabetic() || (digits_end && b.is_ascii_digit())) && s.starts_with(p),
    }
}

/// [`is_furniture`] on a normalised text: only the entries with its first letter are
/// compared, lengths first.
fn furniture_in(b: &[u8]) -> bool {
    same_letter(EXACT, &EXACT_BY_LETTER, b)
        .iter()
        .any(|e| e.len() == b.len() && e.as_bytes() == b)
        || same_letter(PREFIX, &PREFIX_BY_LETTER, b)
            .iter()
            .any(|p| starts_as_words(b, p, false))
}

/// Titles of a comment section, matched at the start of a short text whose letters begin
/// with them: "Comments", "12 Comments", "Comments (3)", "Reader comments", "Leave a reply".
/// (Not "Comment …": in French it opens a question, "Comment choisir …".)
const COMMENT_TITLES: &[&str] = &[
    "add a comment",
    "comments",
    "join the conversation",
    "leave a comment",
    "leave a reply",
    "no comments",
    "post a comment",
    "reader comments",
    "readers comments",
    "trackbacks",
    "what do you think",
];
/// The same for titles that need a count before them ("12 Responses to “…”", "One
/// thought on “…”"): without one they can be an article's own section ("Responses to the
/// plan").
const COUNTED_TITLES: &[&str] = &["response", "responses", "thought on", "thoughts on"];

/// Whether a short text titles a comment section (see [`COMMENT_TITLES`]).
pub(super) fn is_comment_title(text: &str) -> bool {
    let t = text.trim_start();
    if t.len() > 4 * MAX_LEN {
        return false;
    }
    let first = t.bytes().next().unwrap_or(b' ');
    let (counted, t) = if first.is_ascii_digit() {
        (
            true,
            t.trim_start_matches(|c: char| c.is_ascii_digit() || c.is_whitespace()),
        )
    } else if let Some(rest) = strip_word(t, "one") {
        (true, rest)
    } else {
        (false, t)
    };
    let t = t.trim_start_matches(|c: char| !c.is_ascii_alphabetic());
    // Lower-case with single spaces, apostrophes dropped ("Readers' comments").
    let mut buf = [0u8; MAX_LEN];
    let mut len = 0;
    let mut space = false;
    for b in t.bytes().filter(|&b| b != b'\'') {
        if len == MAX_LEN {
            break;
        }
        if b.is_ascii_whitespace() {
            space = true;
            continue;
        }
        if space && len > 0 && len < MAX_LEN {
            buf[len] = b' ';
            len += 1;
        }
        space = false;
        if len < MAX_LEN {
            buf[len] = b.to_ascii_lowercase();
            len += 1;
        }
    }
    let s = std::str::from_utf8(&buf[..len]).unwrap_or("");
    let starts = |p: &&str| {
        s.strip_prefix(*p)
            .is_some_and(|rest| rest.bytes().next().is_none_or(|b| !b.is_ascii_alphabetic()))
    };
    COMMENT_TITLES.iter().any(starts)
        || (counted && COUNTED_TITLES.iter().any(starts))
        || count_inside(s)
        || super::vocab_i18n::is_comment_title(text)
}

/// Words that, right after a count inside a title, name its comments ("There are 27
/// comments", "Showing 3 responses"); an `s` may follow.
const COUNTED_INSIDE: &[&[u8]] = &[b"comment", b"response"];

/// Whether a lower-cased title holds a count of comments after other words, at its end or
/// at the end of its sentence. One pass, looking further only after a digit.
fn count_inside(s: &str) -> bool {
    let b = s.as_bytes();
    (1..b.len()).any(|j| {
        if b[j] != b' ' || !b[j - 1].is_ascii_digit() {
            return false;
        }
        let rest = &b[j + 1..];
        COUNTED_INSIDE.iter().any(|w| {
            let Some(after) = rest.strip_prefix(*w) else {
                return false;
            };
            let after = after.strip_prefix(b"s").unwrap_or(after);
            // The title ends there, or a sentence does ("There are 27 comments. Add
            // yours"), not a headline going on ("Why 3 comments matter").
            let next = after.iter().find(|c| **c != b' ');
            next.is_none_or(|c| !c.is_ascii_alphanumeric())
        })
    })
}

/// `t` without a leading `word` (any case) followed by a space.
fn strip_word<'a>(t: &'a str, word: &str) -> Option<&'a str> {
    let head = t.get(..word.len())?;
    let rest = &t[word.len()..];
    (head.eq_ignore_ascii_case(word) && rest.starts_with(char::is_whitespace)).then_some(rest)
}

/// Whether a link's text is a bare site path (`/content/fragments/footer`): an include or
/// a template slot the site left unrendered, never something written for readers.
pub(super) fn is_bare_path(text: &str) -> bool {
    let t = text.trim();
    t.starts_with('/')
        && t.len() <= 4 * MAX_LEN
        && t.bytes().filter(|&b| b == b'/').count() >= 3
        && !t.bytes().any(|b| b.is_ascii_whitespace())
}

/// Whether a text that is not a link is a bare absolute URL (`https://cdn.example/a.jpg`):
/// the value of a data field (image or file addresses), not something written for readers.
/// Only blocks made of nothing else count as furniture, so a URL quoted in a sentence stays.
pub(super) fn is_bare_url(text: &str) -> bool {
    let t = text.trim();
    (t.starts_with("https://") || t.starts_with("http://"))
        && t.bytes().filter(|&b| b == b'/').count() >= 3
        && !t.bytes().any(|b| b.is_ascii_whitespace())
}

/// Titles of blocks that point to other pages ("Related posts", "You may also like",
/// "More from the author", "Most read"), as the start of a short text, lower-case.
const POINTER_TITLES: &[&str] = &[
    "also on",
    "around the web",
    "check out other related",
    "discover more",
    "don't miss",
    "editor's picks",
    "editors' picks",
    "from around the web",
    "latest news",
    "latest posts",
    "latest stories",
    "more articles",
    "more from",
    "more in",
    "more news",
    "more on",
    "more posts",
    "more stories",
    "more videos",
    "most popular",
    "most read",
    "most viewed",
    "popular articles",
    "popular posts",
    "popular stories",
    "read next",
    "recent posts",
    "recommended",
    "related",
    "top stories",
    "trending",
    "what to read next",
    "you may also like",
    "you may like",
    "you might also like",
    "you might like",
];

/// Whether a short text titles a block of pointers to other pages (see
/// [`POINTER_TITLES`]): one of them, as whole words, at its start, or "more" and a kind
/// ([`MORE_OF_A_KIND`]).
#[cfg(test)]
fn is_pointer_title(text: &str) -> bool {
    let mut buf = [0u8; MAX_LEN];
    normalized(text, &mut buf).is_some_and(|s| pointer_in(s) || more_of_a_kind(s))
}

/// [`is_pointer_title`] on a normalised text (only the titles with its first letter are
/// compared).
fn pointer_in(b: &[u8]) -> bool {
    same_letter(POINTER_TITLES, &POINTER_BY_LETTER, b)
        .iter()
        .any(|p| starts_as_words(b, p, true))
}

/// Words that, after "more" and one word of a kind, make a pointer title: "More world
/// stories from …", "More video content from …".
const MORE_OF_A_KIND: &[&str] = &["articles", "from", "stories", "videos"];

/// Whether a normalised text opens "more <one word> <kind>" (see [`MORE_OF_A_KIND`]).
fn more_of_a_kind(b: &[u8]) -> bool {
    let Some(rest) = b.strip_prefix(b"more ") else {
        return false;
    };
    let Some(space) = rest.iter().position(|&c| c == b' ') else {
        return false;
    };
    let rest = &rest[space + 1..];
    MORE_OF_A_KIND.iter().any(|k| starts_as_words(rest, k, true))
}

#[cfg(test)]
mod tests;
