//! Class and id words of an element: split on punctuation and camelCase, each word
//! weighed once per element (chrome, content, comments, boilerplate, an author box, an
//! article body), memoised per distinct `class` value with what upstream's class lists
//! say of it.

use dom_query::Element;
use html5ever::ns;

use crate::dom::local_name;
use crate::main_content::signature::signature;
use crate::main_content::str_memo::StrMemo;
use crate::main_content::upstream::ListedClass;
use crate::main_content::vocabulary::class_scan::for_each_class;
use crate::main_content::vocabulary::roles;
use crate::main_content::vocabulary::{Entry, Word, WordKey, contains_either, entry_of};

/// What the class/id words of an element say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Words {
    /// Sum of word weights (positive = content-like, negative = chrome-like).
    pub score: i32,
    /// A word naming comments or replies (content on forums, not on articles).
    pub comments: bool,
    /// The word is `comment(s)` (how blogs and news sites name readers' comments; forums
    /// name their posts `reply`, `post`, `message`).
    pub comment_word: bool,
    /// A word naming a forum thread (`thread`, `topic`, `forum`, `discussion`): comments
    /// inside are its posts.
    pub thread: bool,
    /// A word naming boilerplate that is never content (consent, newsletter, ads, sharing).
    pub boiler: bool,
    /// A class/id naming an article's body (`article-body`, `entry-content`, `postBody`).
    pub article_body: bool,
    /// A word that names a chrome region outright (sidebar, related, cart…): it wins over
    /// generic content words in the same element (`related-products`, `sidebar-content`).
    pub strong_chrome: bool,
    /// Another chrome word (nav, menu…), and whether a content word other than "main"
    /// qualifies it: `main-nav` is navigation, `content-nav-section` is not.
    pub weak_chrome: bool,
    pub content_word: bool,
    /// A class for text only screen readers see (`sr-only`, `visually-hidden`…): labels
    /// that repeat what the page shows ("Sort and filter", "Price").
    pub screen_reader: bool,
    /// A class that hides the element (`hide`, `d-none`…; see `class_hides`).
    pub class_hidden: bool,
    /// A word naming the post's writer (`author-box`, `blog-author`, `contributor`).
    pub writer: bool,
    /// A class naming the slot after a post (`after-content`, `below-post`).
    pub after_post: bool,
    /// A class naming a call to action (`blog-cta`, `inline-cta`, `call-to-action`):
    /// content words beside it (`cta-text`, `content-cta`) qualify the box, not its role.
    pub call_to_action: bool,
}

/// Adds a word's weight and what its roles say (each word once per element).
fn add_word(out: &mut Words, e: Entry) {
    out.thread |= e.roles & roles::THREAD != 0;
    match e.word {
        Word::Boiler => {
            out.boiler = true;
            out.score -= 3;
        }
        Word::Chrome(n) => {
            out.score += n;
            if n <= -3 {
                // Navigation words also name in-page navigation inside content
                // (`content-nav-section`); the rest name chrome regions outright.
                if e.roles & roles::NAV != 0 {
                    out.weak_chrome = true;
                } else {
                    out.strong_chrome = true;
                }
            }
        }
        Word::Content => {
            out.score += 2;
            // "main" qualifies chrome (`main-nav`) more often than it names content.
            out.content_word |= e.roles & roles::MAIN == 0;
        }
        Word::Comments => {
            out.comments = true;
            out.comment_word |= e.roles & roles::COMMENT != 0;
            out.score -= 2;
        }
        Word::Neutral => {}
    }
}

/// Class and id words of an element (and the words of a custom element's tag name).
/// Accumulates the words of one element.
struct Acc<'s> {
    out: Words,
    /// The words seen: each word counts once per element
    /// (`promo cmp-promo box-shadow-promo` is one "promo"). (Storage kept between
    /// values: only the first `n_seen` are read.)
    seen: &'s mut [WordKey; 16],
    n_seen: usize,
    /// What the previous words of the current class began.
    phrase: Phrase,
    /// The previous words of the current class were `form` or `form message`.
    prev_form: bool,
}

/// What the previous words of a class began, for the next word to complete
/// (`article-body`, `about-the-author`, `call-to-action`). A word the vocabulary does not
/// know ends them all, and so does a new class: one value to reset, so a new phrase cannot
/// be left out of a reset.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Phrase {
    /// The previous word named a piece (article, post…).
    piece: bool,
    /// The previous word named a component (card, item…).
    component: bool,
    /// The previous word named a person (user, author, member).
    person: bool,
    /// The previous words were `about` or `about the`.
    about: bool,
    /// The previous word named a place after (`after`, `below`).
    place: bool,
    /// The previous words were `call` (1) or `call to` (2).
    call: u8,
}

impl Acc<'_> {
    /// The box about a poster or an author (biography, stats): chrome, and never the
    /// article's body it sits in (`post-body-bio`).
    fn author_box(&mut self) {
        self.out.strong_chrome = true;
        self.out.article_body = false;
        self.out.score -= 3;
        self.phrase.person = false;
        self.phrase.about = false;
    }

    /// The state at the start of a class: no phrase begun, no form named.
    fn new_class(&mut self) {
        self.phrase = Phrase::default();
        self.prev_form = false;
    }

    /// (In line, where the words are split: most words are not the vocabulary's, and what
    /// they do is short; a word it knows goes on in [`Self::add_known`].)
    #[inline]
    fn add(&mut self, w: &str) {
        // One look-up for the word's weight and roles (the lists are in `roles`).
        let key = WordKey::new(w);
        let e = entry_of(&key);
        // A word the vocabulary does not know (most words): it ends the phrases of the
        // words before it, and takes its place among the words seen.
        if e.word == Word::Neutral && e.roles == 0 {
            self.form_state(w);
            self.phrase = Phrase::default();
            self.first_time(key);
            return;
        }
        self.add_known(w, key, e);
    }

    /// [`Self::add`] of a word the vocabulary knows (`e`: what it says of it).
    #[inline(never)]
    fn add_known(&mut self, w: &str, key: WordKey, e: Entry) {
        let has = |role: u32| e.roles & role != 0;
        self.out.writer |= has(roles::WRITER);
        self.out.after_post |= self.phrase.place && has(roles::BODY | roles::PIECE);
        self.phrase.place = has(roles::PLACE);
        // `article-body`, `entry-content`: a piece word followed by a body word.
        if self.phrase.piece && has(roles::BODY) {
            self.out.article_body = true;
        }
        let part_of_component = self.phrase.component && has(roles::PART);
        // `cta`, `call-to-action`, `callToAction`: the box a site drops into a post.
        // (Most words play no part in the name: one bit test for them.)
        self.phrase.call = if has(roles::CALL) {
            self.out.call_to_action |=
                matches!(w, "cta" | "ctas") || (self.phrase.call == 2 && w == "action");
            match (self.phrase.call, w) {
                (_, "call") => 1,
                (1, "to") => 2,
                _ => 0,
            }
        } else {
            0
        };
        self.form_state(w);
        // `message-userDetails`, `author-bio`, `member-stats`: the box about a poster or an
        // author beside their text (title, join date, post count, biography) is chrome,
        // whatever content word ("details", "description") names its parts.
        if self.phrase.person && has(roles::PERSON_DETAIL) {
            self.author_box();
            return;
        }
        // `about-author`, `about-the-author`, `mini-bio`, `post-body-bio`, `biography`:
        // the box about the writer that ends a post, even inside the post's body.
        // `authorbox`, `saboxplugin-wrap`: the same, named in one word by author-box plugins.
        if (self.phrase.about && has(roles::AUTHOR)) || has(roles::AUTHOR_BOX) {
            return self.author_box();
        }
        self.phrase.about = has(roles::ABOUT) || (self.phrase.about && has(roles::THE));
        self.phrase.person = has(roles::PERSON);
        self.phrase.piece = has(roles::PIECE);
        self.phrase.component = has(roles::COMPONENT);
        // `card-footer`, `section-header`: a part of a component, not the page's chrome
        // (an article's or post's footer is its meta: tags, sharing, so it stays chrome).
        if part_of_component {
            return;
        }
        if self.first_time(key) {
            add_word(&mut self.out, e);
        }
    }

    /// `w-form-done`, `w-form-fail`, `form-success`, `form_message-error`: a form's state
    /// messages ("Thank you! Your submission has been received!"), which the page's
    /// stylesheet hides until the form is sent: never content.
    /// (In line: most words follow no `form` and are not one.)
    #[inline]
    fn form_state(&mut self, w: &str) {
        if self.prev_form {
            self.after_form(w);
        } else {
            self.prev_form = w == "form";
        }
    }

    /// [`Self::form_state`] of a word after `form` or `form message`.
    #[inline(never)]
    fn after_form(&mut self, w: &str) {
        self.out.boiler |= matches!(w, "done" | "fail" | "failure" | "success" | "error" | "sent");
        self.prev_form = matches!(w, "message" | "msg");
    }

    /// Whether the word of `key` is new to the element (remembered while there is room).
    fn first_time(&mut self, key: WordKey) -> bool {
        if self.seen[..self.n_seen].contains(&key) {
            return false;
        }
        if self.n_seen < self.seen.len() {
            self.seen[self.n_seen] = key;
            self.n_seen += 1;
        }
        true
    }
}

/// Memo of the words of `class` values: a page repeats the same class lists on many
/// elements (cards, list items, menu entries). Beside the words, what upstream's lists say
/// of the classes.
pub(crate) struct WordCache {
    /// With the last template signature made of the value: (tag signature, signature).
    classes: StrMemo<(Words, ListedClasses, (u32, u32))>,
    /// [`Acc`]'s words seen, not set anew for each value.
    seen: [WordKey; 16],
}

/// Whether one of an element's classes is on upstream's exclude list ([`EXCLUDE`](super::upstream::EXCLUDE)) and on
/// its force-include list ([`FORCE_INCLUDE`](super::upstream::FORCE_INCLUDE)).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ListedClasses {
    pub excluded: bool,
    pub forced: bool,
}

impl Default for WordCache {
    fn default() -> Self {
        // Room for the distinct class lists of most pages without growing.
        WordCache {
            classes: StrMemo::with_capacity(256),
            seen: [WordKey::default(); 16],
        }
    }
}

/// Class and id words of an element (and the words of a custom element's tag name).
#[cfg(test)]
pub(crate) fn words(el: &Element, cache: &mut WordCache) -> Words {
    words_and_listed_classes(el, cache, 0, el.name.local.bytes().any(|b| b == b'-')).words
}

/// What [`words_and_listed_classes`] reads of an element's attributes.
pub(crate) struct ElementWords<'e> {
    pub words: Words,
    pub classes: ListedClasses,
    /// The template signature.
    pub sig: u32,
    /// The first `id` value (for upstream's id lists).
    pub id: Option<&'e str>,
    /// An attribute that [`super::hidden`] or [`super::landmark`] reads (`role`,
    /// `itemprop`, `aria-hidden`, `hidden`, `style`, in any namespace): without one, the
    /// element is not hidden and its landmark is its tag's.
    pub role_or_hiding: bool,
}

/// [`words`], what upstream's lists say of the element's classes (memoised with the
/// words), the element's template signature from its tag's `tag_sig` ([`signature`]) and
/// its `id`, in one look at the attributes; `custom`: the tag is a custom element's, whose
/// name's words count too.
pub(crate) fn words_and_listed_classes<'e>(
    el: &'e Element,
    cache: &mut WordCache,
    tag_sig: u32,
    custom: bool,
) -> ElementWords<'e> {
    let mut out = Words::default();
    let mut listed = ListedClasses::default();
    let mut sig = None;
    let mut id = None;
    let mut role_or_hiding = false;
    for a in el.attrs.iter() {
        role_or_hiding |= matches!(
            a.name.local,
            local_name!("role")
                | local_name!("itemprop")
                | local_name!("aria-hidden")
                | local_name!("hidden")
                | local_name!("style")
        );
        if a.name.ns != ns!() {
            continue;
        }
        if a.name.local == local_name!("class") {
            // (The value read once: each read of a tendril tests where its bytes are.)
            let value: &str = &a.value;
            let (w, l) = match cache.classes.get_or_vacant(value) {
                Ok((w, l, last)) => {
                    // The first class value makes the signature.
                    if sig.is_none() {
                        if last.0 != tag_sig {
                            *last = (tag_sig, signature(tag_sig, value));
                        }
                        sig = Some(last.1);
                    }
                    (*w, *l)
                }
                Err(vacant) => {
                    // One split of the value for its words, upstream's lists and the
                    // hiding classes.
                    let mut hiding = HidingClasses::default();
                    let mut listed = ListedClass::default();
                    let mut w = words_of(value, true, &mut cache.seen, |c, variant| {
                        listed.class(c);
                        hiding.class_read(c, variant);
                    });
                    w.class_hidden = hiding.hides();
                    let l = ListedClasses {
                        excluded: listed.excluded,
                        forced: listed.forced,
                    };
                    let last = (tag_sig, signature(tag_sig, value));
                    sig.get_or_insert(last.1);
                    cache.classes.fill(value, vacant, (w, l, last));
                    (w, l)
                }
            };
            merge(&mut out, w);
            listed.excluded |= l.excluded;
            listed.forced |= l.forced;
        } else if a.name.local == local_name!("id") {
            let value: &'e str = &a.value;
            id.get_or_insert(value);
            if !is_slug(value) {
                merge(&mut out, words_of(value, false, &mut cache.seen, |_, _| {}));
            }
        }
    }
    if custom {
        merge(
            &mut out,
            words_of(&el.name.local, false, &mut cache.seen, |_, _| {}),
        );
    }
    out.score = out.score.clamp(-6, 6);
    ElementWords {
        words: out,
        classes: listed,
        sig: sig.unwrap_or(tag_sig),
        id,
        role_or_hiding,
    }
}

/// An id made from a title (`acer-nitro-16-2023-review`, an anchor for a heading or a
/// card): five parts or more. Its words describe the content, not the element's role.
/// (The parts, non-empty runs between `-` and `_`, counted on bytes: both are ASCII.)
fn is_slug(id: &str) -> bool {
    let mut parts = 0;
    let mut in_part = false;
    for &b in id.as_bytes() {
        let sep = b == b'-' || b == b'_';
        parts += u32::from(!sep && !in_part);
        in_part = !sep;
    }
    parts >= 5
}

fn merge(into: &mut Words, w: Words) {
    into.score += w.score;
    into.comments |= w.comments;
    into.comment_word |= w.comment_word;
    into.thread |= w.thread;
    into.boiler |= w.boiler;
    into.article_body |= w.article_body;
    into.strong_chrome |= w.strong_chrome;
    into.weak_chrome |= w.weak_chrome;
    into.content_word |= w.content_word;
    into.screen_reader |= w.screen_reader;
    into.class_hidden |= w.class_hidden;
    into.writer |= w.writer;
    into.after_post |= w.after_post;
    into.call_to_action |= w.call_to_action;
}

/// Prefixes of the classes a CMS writes for a post's terms and state (`category-news`,
/// `tag-share`, `entry-author-jo`, `status-publish`, `format-standard`).
/// ([`has_post_term_prefix`] reads them by first letter; a test holds it to this list.)
#[cfg(test)]
pub(super) const POST_TERM_PREFIXES: &[&str] = &[
    "category-",
    "entry-author-",
    "entry-category-",
    "entry-tag-",
    "format-",
    "post_tag-",
    "status-",
    "tag-",
    "type-",
];

/// Whether a class names one of a post's terms (`category-news`, `tag-share`: the prefixes
/// of [`has_post_term_prefix`]).
#[inline]
pub(super) fn post_term(class: &str) -> bool {
    // Most classes start with another letter: one comparison for them, in line.
    let first = class.as_bytes().first().map_or(0, u8::to_ascii_lowercase);
    matches!(first, b'c' | b'e' | b'f' | b'p' | b's' | b't') && has_post_term_prefix(class)
}

/// [`post_term`]'s look at the prefixes of a post's terms: only those that open with the class's
/// first letter (a test holds the lists by letter to it).
#[inline(never)]
fn has_post_term_prefix(class: &str) -> bool {
    let first = class.as_bytes().first().map_or(0, u8::to_ascii_lowercase);
    let prefixes: &[&str] = match first {
        b'c' => &["category-"],
        b'e' => &["entry-author-", "entry-category-", "entry-tag-"],
        b'f' => &["format-"],
        b'p' => &["post_tag-"],
        b's' => &["status-"],
        b't' => &["tag-", "type-"],
        _ => &[],
    };
    prefixes.iter().any(|p| {
        class.len() > p.len() && class.as_bytes()[1..p.len()].eq_ignore_ascii_case(&p.as_bytes()[1..])
    })
}

/// Words of one `class` (or `id`, or tag name) value; `each` sees every class of it, and
/// whether it holds a `:` or a `[` (a responsive or variant utility). `seen`: storage for
/// the words seen (what it holds is not read). One scan of the value's bytes reads its
/// classes, their variant test, fragments and word parts ([`for_each_class`]).
#[inline(never)]
fn words_of(
    value: &str,
    is_class: bool,
    seen: &mut [WordKey; 16],
    mut each: impl FnMut(&str, bool),
) -> Words {
    let mut acc = Acc {
        out: Words::default(),
        seen,
        n_seen: 0,
        phrase: Phrase::default(),
        prev_form: false,
    };
    // A post's terms written as classes (`category-social-media tag-share
    // entry-author-jo`, two such classes or more) name its subject, not the element's role.
    // Counted once the first such class is met.
    let mut post_terms: Option<bool> = None;
    // Utility-class frameworks put dozens of classes on one element; only the first few
    // name what the element is.
    let mut n = 0;
    for_each_class(value, |c| {
        let class = c.text();
        // Responsive/variant utilities (`md:hidden`, `w-[20px]`) say nothing.
        let variant = c.variant;
        each(class, variant);
        // A post's term still takes its place among the first few classes.
        let term = is_class
            && post_term(class)
            && *post_terms.get_or_insert_with(|| {
                value
                    .split_ascii_whitespace()
                    .filter(|c| post_term(c))
                    .nth(1)
                    .is_some()
            });
        if class.len() >= 4 && !term {
            acc.out.boiler |= c.boiler;
            acc.out.screen_reader |= is_class && !variant && c.reader;
        }
        if variant || n == 8 {
            return;
        }
        n += 1;
        if term {
            return;
        }
        acc.new_class();
        c.for_each_word(|w| acc.add(w));
    });
    acc.out
}

/// A class that hides the element (`hide`, `hidden`, `d-none`…), unless a responsive
/// variant shows it again on some screens (`hidden md:block`).
#[cfg(test)]
pub(super) fn class_hides(class: &str) -> bool {
    let mut hiding = HidingClasses::default();
    for c in class.split_ascii_whitespace() {
        hiding.class(c);
    }
    hiding.hides()
}

/// [`class_hides`] read one class at a time (the memo's miss path hands it the classes of
/// the split that checks upstream's lists).
#[derive(Default)]
pub(super) struct HidingClasses {
    hides: bool,
    /// A responsive variant shows the element again: nothing hides it.
    shown: bool,
}

impl HidingClasses {
    #[cfg(test)]
    pub(super) fn class(&mut self, c: &str) {
        self.class_read(c, true);
    }

    /// [`Self::class`] of a class that holds no `:` unless `maybe_colon` (the word analysis
    /// has read whether it holds a `:` or a `[`).
    pub(super) fn class_read(&mut self, c: &str, maybe_colon: bool) {
        if self.shown {
            return;
        }
        // (`str::contains` calls `memchr` for each class.)
        if maybe_colon && contains_either(c, b':', b':') {
            if let Some((_, rest)) = c.rsplit_once(':')
                && matches!(
                    rest,
                    "block" | "flex" | "grid" | "inline" | "inline-block" | "inline-flex" | "table"
                )
            {
                self.shown = true;
            }
            return;
        }
        self.hides |= matches!(
            c,
            "hide" | "hidden" | "d-none" | "is-hidden" | "display-none" | "invisible" | "u-hidden"
        );
    }

    pub(super) fn hides(&self) -> bool {
        self.hides && !self.shown
    }
}

#[cfg(test)]
mod tests;
